import { describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { evmAccount, Solsentry, SolsentryError, solanaKeypairFile } from '../client/index.ts'
import { renderJob, renderLaunchRadar, renderTrending, renderWalletIntel } from '../client/render.ts'
import { SERVICE_MANIFESTS } from '../src/app.ts'
import { testApp } from './support/app.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { runToEnd } from './support/run.ts'
import { openApiValidator } from './support/openapi.ts'
import { screenOf, testWithTmux, tradeOnATerminal } from './support/terminal.ts'
import { usdcOf } from './support/x402.ts'

// The whole service on the sandbox over HTTP on loopback; the SDK and the CLI pay it as a user would.
// One client address makes every call here: the scanner limit is set out of its way (429s have their own test).
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

const world = sandbox.file
const solanaWallet = await solanaKeypairFile(world.buyer.keypair_path)
const evmWallet = evmAccount(world.evm_buyer.private_key)
const payTo = world.x402.solana.pay_to
const client = (options: ConstructorParameters<typeof Solsentry>[0] = {}) =>
  new Solsentry({ url: running.url, wallet: { solana: solanaWallet }, solanaRpcUrl: world.urls.rpc, ...options })
const validate = await openApiValidator({
  handle: (request) => fetch(`${running.url}${new URL(request.url).pathname}`),
})

test('the SDK types every route of the plugins the service mounts (SERVICE_MANIFESTS names them all)', () => {
  const { ctx: mounted } = testApp()
  // Mounted, or switched off for want of a source (a feed without JUPITER_URL).
  const builtIn = [...mounted.registry.plugins(), ...mounted.registry.off().map((off) => off.plugin)].filter(
    (name) => name !== 'fixture',
  )
  expect(SERVICE_MANIFESTS.map((manifest) => manifest.name).sort()).toEqual(builtIn.sort())
})

describe('the SDK on the sandbox (@x402/fetch, the caller’s own signer)', () => {
  test('pays each paid scanner on the Solana rail: typed answers, receipts, the prices moved on chain', async () => {
    const solsentry = client()
    const before = [await usdcOf(sandbox, solanaWallet.address), await usdcOf(sandbox, payTo)]
    const mint = mintOf('blue-chip')
    const scan = await solsentry.quickScan(mint)
    expect(validate('POST', '/scan/quick', 200, scan)).toEqual([])
    expect(scan.structural_risk_grade).toMatch(/^[A-F]$/)
    // @ts-expect-error the answers are typed from the manifests: a member that does not exist is a type error
    expect(scan.no_such_member).toBeUndefined()
    const intel = await solsentry.marketIntel(mint)
    expect(validate('POST', '/market/intel', 200, intel)).toEqual([])
    const dive = await solsentry.deepDive(mint)
    expect(validate('POST', '/scan/deep', 200, dive)).toEqual([])
    expect(['AVOID', 'WATCH', 'CONSIDER', 'DYOR', 'BUY']).toContain(dive.recommendation.action)
    expect(solsentry.receipts.map((receipt) => receipt.success)).toEqual([true, true, true])
    expect(solsentry.spentUsd).toBe('0.720000')
    expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before[0]! - 720_000n)
    expect(await usdcOf(sandbox, payTo)).toBe(before[1]! + 720_000n)
    // Each answer's attestation was checked against the published key, and names its settlement.
    expect(solsentry.attestations.map((statement) => statement.route)).toEqual([
      'POST /scan/quick',
      'POST /market/intel',
      'POST /scan/deep',
    ])
    expect(solsentry.attestations.map((statement) => statement.payment?.transaction)).toEqual(
      solsentry.receipts.map((receipt) => receipt.transaction),
    )
  }, 60_000)

  test('an answer whose attestation does not hold is refused (ATTESTATION_INVALID)', async () => {
    // A fetch that changes one byte of the answer on its way: the attestation no longer matches.
    const tampering = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init)
      if (!response.headers.get('x-attestation')) return response
      const text = (await response.text()).replace('"schema_version":"2.0"', '"schema_version":"2.1"')
      return new Response(text, response)
    }) as typeof fetch
    const solsentry = client({ fetch: tampering })
    const refused = await solsentry.quickScan(mintOf('blue-chip')).catch((error) => error)
    expect(refused).toBeInstanceOf(SolsentryError)
    expect(refused.code).toBe('ATTESTATION_INVALID')
    expect(refused.message).toContain('not the answer attested')
  })

  test('pays on the Base rail with an EVM account', async () => {
    const solsentry = new Solsentry({ url: running.url, wallet: { evm: evmWallet } })
    const before = await sandbox.evm.usdcBalance(evmWallet.address)
    await solsentry.quickScan(mintOf('blue-chip'))
    expect(solsentry.receipts[0]).toMatchObject({ success: true, network: 'eip155:31337' })
    expect(await sandbox.evm.usdcBalance(evmWallet.address)).toBe(before - 20_000n)
  })

  test('spend controls: a per-call cap under the price refuses to pay; a budget stops the run', async () => {
    const capped = client({ maxPerCallUsd: '0.01' })
    const before = await usdcOf(sandbox, solanaWallet.address)
    const refused = await capped.quickScan(mintOf('blue-chip')).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(SolsentryError)
    expect((refused as SolsentryError).code).toBe('SPEND_LIMIT')
    expect((refused as SolsentryError).message).toContain('over this call’s cap'.replace('’', "'"))
    const budgeted = client({ budgetUsd: '0.03' })
    await budgeted.quickScan(mintOf('blue-chip'))
    const over = await budgeted.quickScan(mintOf('blue-chip')).catch((error: unknown) => error)
    expect((over as SolsentryError).code).toBe('SPEND_LIMIT')
    expect((over as SolsentryError).message).toContain('budget of 0.03')
    expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before - 20_000n)
  })

  test('a payment the wallet cannot make (its RPC unreachable) is PAYMENT_FAILED, not SPEND_LIMIT; nothing is charged', async () => {
    const unreachable = client({ solanaRpcUrl: 'http://127.0.0.1:1' })
    const before = await usdcOf(sandbox, solanaWallet.address)
    const failed = await unreachable.quickScan(mintOf('blue-chip')).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(SolsentryError)
    expect((failed as SolsentryError).code).toBe('PAYMENT_FAILED')
    expect((failed as SolsentryError).message).toStartWith('the payment could not be made: ')
    expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before)
  })

  test('an answer withheld while its settlement is read from the chain is collected with the same payment, charged once', async () => {
    // The answers the SDK receives, as it receives them.
    const statuses: number[] = []
    const watching = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    }) as typeof fetch
    const solsentry = client({ fetch: watching })
    const before = await usdcOf(sandbox, payTo)
    // Nobody can read a status for a while: the facilitator answers settlement_pending, the service withholds.
    sandbox.faults.set('rpc', 'getSignatureStatuses', { kind: 'server_error' })
    const scanning = solsentry.quickScan(mintOf('blue-chip'))
    // The challenge, then the paid request's answer: withheld (402 again).
    await eventually(
      'the answer withheld',
      () => statuses,
      (seen) => seen.filter((status) => status === 402).length >= 2,
    )
    expect(await usdcOf(sandbox, payTo)).toBe(before + 20_000n)
    sandbox.faults.clear()
    // The SDK presents the same payment again after Retry-After, and gets the answer: no second payment.
    const scan = await scanning
    expect(scan.structural_risk_grade).toMatch(/^[A-F]$/)
    expect(solsentry.receipts).toEqual([expect.objectContaining({ success: true })])
    expect(solsentry.spentUsd).toBe('0.020000')
    expect(await usdcOf(sandbox, payTo)).toBe(before + 20_000n)
  }, 60_000)

  test('errors carry the catalogue code, the status and the request id', async () => {
    const error = (await client()
      .quickScan('BONK')
      .catch((caught: unknown) => caught)) as SolsentryError
    expect(error).toBeInstanceOf(SolsentryError)
    expect(error).toMatchObject({ code: 'INVALID_ADDRESS', status: 400 })
    expect(error.requestId).toMatch(/\S/)
  })

  test('a trade in one call: quote, sign locally, execute, final state; the fee settled once', async () => {
    const solsentry = client()
    const stages: string[] = []
    const job = await solsentry.trade({
      inputMint: 'So11111111111111111111111111111111111111112',
      outputMint: mintOf('blue-chip'),
      amountIn: '100000000',
      onUpdate: (stage) => stages.push(stage),
    })
    expect(job.status).toBe('CONFIRMED')
    expect(job.fee).toMatchObject({ status: 'settled', amount: '150000' })
    expect(stages).toEqual(['quoted', 'signed', 'executing', 'final'])
    expect(solsentry.spentUsd).toBe('0.150000')
  }, 60_000)
})

test('429: the SDK waits the Retry-After and tries again', async () => {
  const { app } = testApp({ RATE_LIMIT_SCANNER_BURST: '1', RATE_LIMIT_SCANNER_PER_MINUTE: '60' })
  const solsentry = new Solsentry({
    url: 'http://localhost',
    fetch: ((input: string, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch,
  })
  const started = Date.now()
  await solsentry.call('POST /fixture/scan' as never, { token_address: mintOf('blue-chip') } as never)
  await solsentry.call('POST /fixture/scan' as never, { token_address: mintOf('blue-chip') } as never)
  expect(Date.now() - started).toBeGreaterThanOrEqual(900)
})

describe('the CLI', () => {
  const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
  const env = {
    ...process.env,
    SOLSENTRY_URL: running.url,
    SOLSENTRY_KEYPAIR: world.buyer.keypair_path,
    SOLSENTRY_SOLANA_RPC: world.urls.rpc,
  }
  const run = (...args: string[]) => runToEnd([process.execPath, cli, ...args], env)

  test('--json answers validate against /openapi.json, for every paid scanner', async () => {
    const mint = mintOf('wash-traded')
    for (const [command, path] of [
      ['quick', '/scan/quick'],
      ['intel', '/market/intel'],
      ['deep', '/scan/deep'],
      ['exit', '/exit/check'],
    ] as const) {
      const { stdout, code } = await run(command, mint, '--json')
      expect(code).toBe(0)
      expect(validate('POST', path, 200, JSON.parse(stdout))).toEqual([])
    }
    for (const [command, path] of [
      ['trending', '/scan/trending'],
      ['radar', '/signal/radar'],
    ] as const) {
      const { stdout, code } = await run(command, '--interval', '24h', '--limit', '3', '--focus', mint, '--json')
      expect(code).toBe(0)
      expect(validate('POST', path, 200, JSON.parse(stdout))).toEqual([])
    }
    const trader = world.scenarios.flatMap((scenario) => scenario.wallets).find((w) => w.role === 'profitable-trader')!
    const wallet = await run('wallet', trader.address, '--json')
    expect(wallet.code).toBe(0)
    expect(validate('POST', '/wallet/intel', 200, JSON.parse(wallet.stdout))).toEqual([])
    for (const [command, path] of [
      ['launches', '/launch/radar'],
      ['graduating', '/graduation/radar'],
      ['smart-money', '/scan/smart-money'],
      ['momentum', '/graduation/momentum'],
    ] as const) {
      const { stdout, code } = await run(command, '--limit', '5', '--json')
      expect(code).toBe(0)
      expect(validate('POST', path, 200, JSON.parse(stdout))).toEqual([])
    }
    const home = await run('exit', mint, '--home', 'arbitrum', '--json')
    expect(home.code).toBe(0)
    expect(validate('POST', '/exit/cross-check', 200, JSON.parse(home.stdout))).toEqual([])
    expect(JSON.parse(home.stdout).home_chain).toBe('arbitrum')
    for (const [mode, path] of [
      ['pulse', '/news/pulse'],
      ['brief', '/news/brief'],
      ['cohorts', '/news/pulse_plus'],
      ['report', '/news/report'],
    ] as const) {
      const { stdout, code } = await run('news', 'BNDL', '--mode', mode, '--json')
      expect(code).toBe(0)
      expect(validate('POST', path, 200, JSON.parse(stdout))).toEqual([])
    }
    const suggestion = await run('suggest', '--source', 'signal', '--interval', '24h', '--stake', '50', '--json')
    expect(suggestion.code).toBe(0)
    expect(validate('POST', '/trade/suggest', 200, JSON.parse(suggestion.stdout))).toEqual([])
  }, 60_000)

  testWithTmux(
    'on a terminal: the grade badge in colour, the facts, the findings that decided it',
    async () => {
      const { text, escapes } = await screenOf(
        [process.execPath, cli, 'quick', mintOf('hostile-token-2022')],
        {
          SOLSENTRY_URL: env.SOLSENTRY_URL,
          SOLSENTRY_KEYPAIR: env.SOLSENTRY_KEYPAIR,
          SOLSENTRY_SOLANA_RPC: env.SOLSENTRY_SOLANA_RPC,
          TERM: 'xterm-256color',
        },
        'What decided it',
      )
      expect(text).toContain('Quick scan')
      expect(text).toMatch(/^ [A-F] {2,}structural safety · data (FULL|PARTIAL|LIMITED)/m)
      expect(text).toMatch(/mint authority +(revoked|LIVE)/)
      expect(text).toMatch(/^ {2}(CRITICAL|HIGH) +\S/m)
      // The badge is drawn reversed and coloured, the severities coloured: escape sequences on the screen.
      expect(escapes).toContain('\x1b[')
      expect(escapes).not.toBe(text)
    },
    30_000,
  )

  testWithTmux(
    'a deep dive on a terminal: the badge, the recommendation and the key drivers',
    async () => {
      const { text } = await screenOf(
        [process.execPath, cli, 'deep', mintOf('wash-traded')],
        {
          SOLSENTRY_URL: env.SOLSENTRY_URL,
          SOLSENTRY_KEYPAIR: env.SOLSENTRY_KEYPAIR,
          SOLSENTRY_SOLANA_RPC: env.SOLSENTRY_SOLANA_RPC,
          TERM: 'xterm-256color',
        },
        'Findings',
      )
      expect(text).toMatch(/^ [A-F] {2,} (AVOID|WATCH|DYOR|CONSIDER) /m)
      expect(text).toContain('Key drivers')
      expect(text).toContain('Wash trading')
    },
    30_000,
  )

  test('solsentry serve runs the service from the environment, and stops on SIGTERM', async () => {
    const child = Bun.spawn([process.execPath, cli, 'serve'], {
      env: { ...process.env, ...sandbox.serviceSettings, PORT: '0', DATA_DIR: ':memory:', LOG_LEVEL: 'info' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const reader = child.stdout.getReader()
      let printed = ''
      const url = await eventually(
        'the listening line',
        async () => {
          const { value } = await reader.read()
          printed += new TextDecoder().decode(value ?? new Uint8Array())
          return /"url":"(http:[^"]+)","profile"/.exec(printed)?.[1]
        },
        (found) => found !== undefined,
      )
      expect((await fetch(`${url}/health`)).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await child.exited).toBe(0)
  }, 30_000)

  test('trade --json: --amount in SOL, quote, sign with the keypair, execute (paid on confirmation), the final job; exit 0', async () => {
    const { stdout, code } = await run('trade', mintOf('blue-chip'), '--amount', '0.1', '--json')
    expect(code).toBe(0)
    const job = JSON.parse(stdout)
    expect(validate('GET', '/trade/status/{job_id}', 200, job)).toEqual([])
    expect(job).toMatchObject({ status: 'CONFIRMED', fee: { status: 'settled', amount: '150000' } })
    // 0.1 SOL, in lamports (SOL has 9 decimals).
    expect(job.request.amount_in).toBe('100000000')
  }, 60_000)

  testWithTmux(
    'an exit check on a terminal: BLOCKED and what could stop it',
    async () => {
      const { text } = await screenOf(
        [process.execPath, cli, 'exit', mintOf('hostile-token-2022'), '--size', '25'],
        {
          SOLSENTRY_URL: env.SOLSENTRY_URL,
          SOLSENTRY_KEYPAIR: env.SOLSENTRY_KEYPAIR,
          SOLSENTRY_SOLANA_RPC: env.SOLSENTRY_SOLANA_RPC,
          TERM: 'xterm-256color',
        },
        'What could stop it',
      )
      expect(text).toMatch(/^ BLOCKED +25 USDC · data (FULL|PARTIAL|LIMITED)/m)
      expect(text).toMatch(/^ {2}BLOCKS +No route sells/m)
      expect(text).toContain('transfer fee')
    },
    30_000,
  )

  test('a paid answer for people ends with its verified attestation', async () => {
    const { stdout, code } = await run('quick', mintOf('blue-chip'))
    expect(code).toBe(0)
    const published = (await (await fetch(`${running.url}/.well-known/x402`)).json()) as any
    expect(stdout).toContain(`attested ✓ by ${published.attestation.public_key} (slot `)
  })

  test('a ticker for a mint: said before anything is called (USAGE, exit 2), a mint asked for', async () => {
    const { stderr, code } = await run('quick', 'BONK')
    expect(code).toBe(2)
    expect(stderr).toContain('solsentry: USAGE: the token "BONK" is not a mint address')
    expect(stderr).toContain("give the token's mint address (a ticker names many tokens; the mint names one)")
  })

  test('a wallet instead of a mint: paid, refused (NOT_A_TOKEN_MINT, readable on stderr), exit 1, nothing charged', async () => {
    const before = await usdcOf(sandbox, solanaWallet.address)
    const { stderr, code } = await run('quick', world.buyer.address)
    expect(code).toBe(1)
    expect(stderr).toContain(`solsentry: NOT_A_TOKEN_MINT: ${world.buyer.address} is a wallet`)
    expect(stderr).toContain('nothing was charged (request ')
    expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before)
  })

  test('solsentry mcp: a local stdio MCP server that pays from the wallet', async () => {
    const mcp = new Client({ name: 'test-host', version: '1.0.0' })
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env, stderr: 'pipe' }))
    try {
      const { tools } = await mcp.listTools()
      expect(tools.map((tool) => tool.name)).toContain('sol_quick_scan')
      const before = await usdcOf(sandbox, solanaWallet.address)
      const result = (await mcp.callTool({
        name: 'sol_quick_scan',
        arguments: { token_address: mintOf('blue-chip') },
      })) as {
        isError?: boolean
        structuredContent: Record<string, unknown>
        _meta: Record<string, { success: boolean }>
      }
      expect(result.structuredContent.code).toBeUndefined()
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent.structural_risk_grade).toMatch(/^[A-F]$/)
      expect(result._meta['x402/payment-response']!.success).toBe(true)
      expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before - 20_000n)
    } finally {
      await mcp.close()
    }
  }, 30_000)
})

describe('the CLI when something is missing: the right code, what to do, a non-zero exit, never a stack trace', () => {
  const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
  // No world file here unless a test puts one: the remedies and the RPC do not come from a stray ./data.
  const nowhere = mkdtempSync(join(tmpdir(), 'solsentry-cli-'))
  /** The CLI with only `settings` (no SOLSENTRY_* from this shell), its data directory `nowhere`. */
  const runWith = async (settings: Record<string, string>, ...args: string[]) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SOLSENTRY_')))
    const finished = await runToEnd([process.execPath, cli, ...args], { ...inherited, DATA_DIR: nowhere, ...settings })
    expect(finished.stderr).not.toMatch(/^\s+at /m)
    return finished
  }
  /** A port nothing listens on (one just given back by the system). */
  const closedPort = () => {
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
    const port = server.port
    server.stop(true)
    return port
  }

  test('the service unreachable: SERVICE_UNREACHABLE, the URL tried and where it came from, how to point at it', async () => {
    const url = `http://127.0.0.1:${closedPort()}`
    const fromEnv = await runWith({ SOLSENTRY_URL: url }, 'quick', mintOf('blue-chip'))
    expect(fromEnv.code).toBe(1)
    expect(fromEnv.stderr).toStartWith(`solsentry: SERVICE_UNREACHABLE: nothing answers at ${url} (`)
    expect(fromEnv.stderr).toContain('that URL came from SOLSENTRY_URL')
    expect(fromEnv.stderr).toContain('--url <url> or SOLSENTRY_URL')
    expect(fromEnv.stderr).toContain('npm start')
    // --service is the same flag (as npm run pay spells it), and wins over the environment.
    const fromFlag = await runWith({ SOLSENTRY_URL: running.url }, 'pairs', '--service', url)
    expect(fromFlag.code).toBe(1)
    expect(fromFlag.stderr).toContain('that URL came from --url')
    // A free route too: nothing to pay, still the same error.
    const notUrl = await runWith({}, 'pairs', '--url', 'localhost:8402')
    expect(notUrl.code).toBe(2)
    expect(notUrl.stderr).toContain('solsentry: USAGE: localhost:8402 (from --url) is not a URL: write it as http://')
  })

  test('no wallet: NO_WALLET with the price and how to pass one (--keypair, SOLSENTRY_KEYPAIR; the sandbox buyer’s file)', async () => {
    const { stderr, code } = await runWith({ SOLSENTRY_URL: running.url }, 'quick', mintOf('blue-chip'))
    expect(code).toBe(1)
    expect(stderr).toContain(
      'solsentry: NO_WALLET: solsentry quick <mint> is paid (0.02 USD) and this client has no wallet',
    )
    expect(stderr).toContain('--keypair <file> or SOLSENTRY_KEYPAIR')
    expect(stderr).toContain('--evm-key')
    expect(stderr).not.toContain('X-PAYMENT')
    // On the sandbox (its world file in DATA_DIR), the remedy names its demo buyer's keypair file.
    const dataDir = dirname(dirname(sandbox.worldFilePath))
    const here = await runWith({ SOLSENTRY_URL: running.url, DATA_DIR: dataDir }, 'quick', mintOf('blue-chip'))
    expect(here.stderr).toContain(`→ on the sandbox, its demo buyer: --keypair ${world.buyer.keypair_path}`)
    const unreadable = await runWith(
      { SOLSENTRY_URL: running.url, SOLSENTRY_KEYPAIR: join(nowhere, 'no-such.json') },
      'quick',
      mintOf('blue-chip'),
    )
    expect(unreadable.code).toBe(1)
    expect(unreadable.stderr).toContain(
      `solsentry: NO_WALLET: cannot read the keypair file ${join(nowhere, 'no-such.json')}`,
    )
  })

  test('no Solana RPC set: PAYMENT_FAILED naming --solana-rpc and SOLSENTRY_SOLANA_RPC; nothing charged', async () => {
    const before = await usdcOf(sandbox, solanaWallet.address)
    const { stderr, code } = await runWith(
      { SOLSENTRY_URL: running.url, SOLSENTRY_KEYPAIR: world.buyer.keypair_path },
      'quick',
      mintOf('blue-chip'),
    )
    expect(code).toBe(1)
    expect(stderr).toContain('solsentry: PAYMENT_FAILED: the payment could not be made: no Solana RPC is set')
    expect(stderr).toContain('--solana-rpc <url> or SOLSENTRY_SOLANA_RPC')
    expect(stderr).not.toContain('SPEND_LIMIT')
    expect(await usdcOf(sandbox, solanaWallet.address)).toBe(before)
  }, 60_000)

  test("on the sandbox, the CLI pays through the sandbox's RPC without --solana-rpc (its world file names the service)", async () => {
    // What npm start writes: the world file with the service's URL in it.
    const dataDir = mkdtempSync(join(tmpdir(), 'solsentry-cli-world-'))
    mkdirSync(join(dataDir, 'sandbox'))
    writeFileSync(
      join(dataDir, 'sandbox', 'world.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(sandbox.worldFilePath, 'utf8')), service_url: running.url }),
    )
    const { stdout, code } = await runWith(
      { SOLSENTRY_URL: running.url, SOLSENTRY_KEYPAIR: world.buyer.keypair_path, DATA_DIR: dataDir },
      'quick',
      mintOf('blue-chip'),
    )
    expect(code).toBe(0)
    expect(stdout).toContain('Quick scan')
  }, 60_000)

  test('npm run pay honours SOLSENTRY_URL, PORT and --service; a service not there is one line, exit 1', async () => {
    const pay = join(import.meta.dir, '..', 'sandbox', 'pay.ts')
    const payWith = async (settings: Record<string, string>, ...args: string[]) => {
      const inherited = Object.fromEntries(
        Object.entries(process.env).filter(([name]) => !name.startsWith('SOLSENTRY_') && name !== 'PORT'),
      )
      const finished = await runToEnd(
        [process.execPath, pay, '/scan/quick', mintOf('blue-chip'), '--world', sandbox.worldFilePath, ...args],
        { ...inherited, ...settings },
      )
      expect(finished.stderr).not.toMatch(/^\s+at /m)
      return finished
    }
    const byUrl = await payWith({ SOLSENTRY_URL: running.url })
    expect(byUrl.stderr).toContain('HTTP 200; paid by')
    expect(byUrl.code).toBe(0)
    const byPort = await payWith({ PORT: String(new URL(running.url).port) })
    expect(byPort.stderr).toContain('HTTP 200; paid by')
    expect(byPort.code).toBe(0)
    const url = `http://127.0.0.1:${closedPort()}`
    const down = await payWith({ SOLSENTRY_URL: running.url }, '--service', url)
    expect(down.code).toBe(1)
    expect(down.stderr).toStartWith(`npm run pay: SERVICE_UNREACHABLE: nothing answers at ${url}`)
    expect(down.stderr).toContain('--service <url> or SOLSENTRY_URL')
  }, 60_000)
})

describe('solsentry trade: amounts in the token’s units, the plan, and a question before signing when the gate warns', () => {
  const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
  const settings = {
    SOLSENTRY_URL: running.url,
    SOLSENTRY_KEYPAIR: world.buyer.keypair_path,
    SOLSENTRY_SOLANA_RPC: world.urls.rpc,
  }
  const run = (...args: string[]) => runToEnd([process.execPath, cli, ...args], { ...process.env, ...settings })
  /** What the buyer holds: SOL (lamports) and sandbox USDC. */
  const holdings = async () => {
    const response = await fetch(world.urls.rpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [world.buyer.address] }),
    })
    const sol = ((await response.json()) as { result: { value: number } }).result.value
    return [sol, await usdcOf(sandbox, solanaWallet.address)]
  }
  // The serial rugger's LP is not burned: the gate warns (grade C), and the deep dive would say AVOID.
  const warned = () => mintOf('serial-rugger')

  test('the gate warns and no terminal can ask: the plan, CONFIRMATION_REQUIRED, exit 3, nothing signed', async () => {
    const before = await holdings()
    const { stdout, stderr, code } = await run('trade', warned(), '--amount', '0.1')
    expect(code).toBe(3)
    expect(stdout).toContain('Trade plan')
    expect(stdout).toMatch(/^ {2}sell +0\.1 SOL$/m)
    expect(stdout).toMatch(/^ {2}buy +about [\d,.]+ \S+/m)
    expect(stdout).toMatch(/^ {2}risk gate +WARN +quick-scan grade [A-F]/m)
    // The reasons, each on its line with its severity: never "[object Object]".
    expect(stdout).not.toContain('[object Object]')
    expect(stdout).toMatch(/^ {15}(CRITICAL|HIGH|MEDIUM|LOW|INFO) +\S/m)
    expect(stderr).toContain('solsentry: CONFIRMATION_REQUIRED: the risk gate warns about')
    expect(stderr).toContain('--yes')
    expect(await holdings()).toEqual(before)
  }, 60_000)

  test('--yes: the same trade goes ahead, confirmed; the job shows symbols and amounts in units', async () => {
    const { stdout, code } = await run('trade', warned(), '--amount', '0.1', '--yes')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Trade +\S+ +CONFIRMED/m)
    expect(stdout).toMatch(/^ {2}sell +0\.1 SOL$/m)
    // The token's symbol from its metadata on chain (it is not among the verified pairs).
    expect(stdout).toMatch(/^ {2}buy +about [\d,.]+ LEGIT$/m)
    expect(stdout).toMatch(/^ {2}fee +settled \(0\.15 USDC\)$/m)
    expect(stdout).not.toContain('[object Object]')
  }, 60_000)

  test('--amount is read in the input token’s decimals: more decimals than it has is a usage error (exit 2)', async () => {
    // USDC has 6 decimals (/trade/pairs): 7 are refused before anything is quoted.
    const usdc = await run('trade', mintOf('blue-chip'), '--from', 'USDC', '--amount', '0.0000001')
    expect(usdc.code).toBe(2)
    expect(usdc.stderr).toContain("--amount: 0.0000001 has more decimals than the token's 6")
    const sol = await run('trade', mintOf('blue-chip'), '--amount', '0.0000000001')
    expect(sol.code).toBe(2)
    expect(sol.stderr).toContain("has more decimals than the token's 9")
    const none = await run('trade', mintOf('blue-chip'))
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('trade needs --amount')
  })

  testWithTmux(
    'on a terminal the gate’s warning asks first: "n" signs nothing (DECLINED, exit 4), the balances unchanged',
    async () => {
      const before = await holdings()
      await tradeOnATerminal(cli, [warned(), '--amount', '0.1'], settings, async (session, screen) => {
        expect(screen).toContain('Trade plan')
        expect(screen).toMatch(/risk gate +WARN/)
        session.type('n')
        const after = await session.waitFor(/\[exit \d+\]/)
        expect(after).toContain('solsentry: DECLINED: the swap was declined: nothing was signed or sent')
        expect(after).toContain('[exit 4]')
      })
      expect(await holdings()).toEqual(before)
    },
    60_000,
  )

  testWithTmux(
    'on a terminal, Ctrl-C at the question is a no: nothing signed (DECLINED, exit 4)',
    async () => {
      const before = await holdings()
      await tradeOnATerminal(cli, [warned(), '--amount', '0.1'], settings, async (session) => {
        session.press('C-c')
        const after = await session.waitFor(/\[exit \d+\]/)
        expect(after).toContain('solsentry: DECLINED')
        expect(after).toContain('[exit 4]')
      })
      expect(await holdings()).toEqual(before)
    },
    60_000,
  )

  testWithTmux(
    'on a terminal, "y" signs and sends it: confirmed',
    async () => {
      await tradeOnATerminal(cli, [warned(), '--amount', '0.05'], settings, async (session) => {
        session.type('y')
        const after = await session.waitFor(/\[exit \d+\]/, 45_000)
        expect(after).toMatch(/CONFIRMED/)
        expect(after).toMatch(/sell +0\.05 SOL/)
        expect(after).toContain('[exit 0]')
      })
    },
    60_000,
  )
})

describe('the tables for people: units, labels, "not measured", one noun for one', () => {
  const plain = { color: false }

  test('trending: a header naming each column and its interval; $ and % in the cells; a null reads "not measured"', async () => {
    const feed = await client().trending({ interval: '24h', limit: 5 })
    expect(feed.items.length).toBeGreaterThan(0)
    const shown = renderTrending(plain, feed).split('\n')
    expect(shown[2]).toMatch(/^ {2}# +grade +symbol +price +change 24h +volume 24h +traders$/)
    const rows = shown.slice(3, 3 + feed.items.length)
    for (const row of rows) expect(row).toMatch(/ \$[\d.,]+[kMB]? /)
    // An answer with nothing measured for a token: words, never "?" or "$0".
    const item = { ...feed.items[0]!, price_usd: null, price_change_pct: null, volume_usd: null }
    const blank = renderTrending(plain, { ...feed, items: [item] }).split('\n')[3]!
    expect(blank.match(/not measured/g)).toHaveLength(3)
    expect(blank).not.toMatch(/\?|\$0\b/)
  })

  test('launches: labelled columns (bonded %, market cap in SOL, traders, filling %/min)', async () => {
    // The answer as the service gives it; the index is not followed here, so one coin is put in it (its schema's members).
    const answer = await client().launchRadar({ limit: 5 })
    const coin = {
      rank: 1,
      token_address: mintOf('pump-bonding'),
      symbol: 'CURVY',
      name: 'Curvy',
      launchpad: 'pump',
      stage: 'near_completion',
      bonding_progress_pct: 63.2157,
      market_cap_sol: 99.55,
      market_cap_usd: null,
      age_s: 600,
      trades: 40,
      buys: 30,
      sells: 10,
      unique_traders: 23,
      volume_sol: 12.5,
      fill_rate_pct_per_min: 0.09,
      minutes_to_graduation: 413.3,
      bundled_buyers: 0,
      sniper_share_pct: null,
      round_trip_share_pct: null,
      creator_sold: false,
      flags: ['WASH_TRADING'],
      quick_scan: null,
    }
    const radar = { ...answer, items: [coin] } as never as typeof answer
    const shown = renderLaunchRadar(plain, radar).split('\n')
    expect(shown[2]).toMatch(/^ {2}# +grade +symbol +bonded +market cap +traders +filling$/)
    expect(shown[3]).toBe(
      '  1   –     CURVY        63.22%    99.55 SOL       23  +0.09%/min, graduates in about 7 h  wash trading',
    )
  })

  test('wallet intel: "1 token", "won 100% of them", a win rate not measured in words', async () => {
    const trader = world.scenarios.flatMap((scenario) => scenario.wallets).find((w) => w.role === 'profitable-trader')!
    const wallet = await client().walletIntel(trader.address)
    const shown = renderWalletIntel(plain, { ...wallet, tokens_traded: 1, win_rate_pct: null, realized_pnl_usd: null })
    expect(shown).toMatch(/ in 1 token$/m)
    expect(shown).toContain('win rate not measured')
    expect(shown).toMatch(/^ {2}realized +not measured/m)
    expect(shown).not.toMatch(/\?%|\b1 tokens\b/)
    expect(renderWalletIntel(plain, { ...wallet, win_rate_pct: 100 })).toContain('won 100% of them')
  })

  test('a job: the risk gate’s reasons as lines, amounts in units with the symbol, a mint shortened', () => {
    const mint = mintOf('serial-rugger')
    const job = {
      job_id: 'job_x',
      status: 'QUOTED',
      quote: {
        input_mint: 'So11111111111111111111111111111111111111112',
        output_mint: mint,
        in_amount: '100000000',
        out_amount: '869012627514',
        min_out_amount: '864667564376',
        slippage_bps: 50,
        price_impact_pct: 0.4,
        route: [{ venue: 'Raydium', pool: 'p', input_mint: 'a', output_mint: 'b', percent: 100 }],
        last_valid_block_height: 1,
        expires_at: null,
      },
      risk_gate: {
        verdict: 'WARN',
        token: mint,
        grade: 'C',
        data_quality: 'FULL',
        reasons: [{ code: 'LP_UNBURNED', severity: 'high', detail: 'Most LP tokens still exist.' }],
      },
      execution: null,
      rejection: null,
      fee: null,
    } as never
    const labels = {
      So11111111111111111111111111111111111111112: {
        mint: 'So11111111111111111111111111111111111111112',
        symbol: 'SOL',
        decimals: 9,
      },
      [mint]: { mint, decimals: 6 },
    }
    const shown = renderJob(plain, job, labels)
    expect(shown).not.toContain('[object Object]')
    expect(shown).toMatch(/^ {2}sell +0\.1 SOL$/m)
    expect(shown).toContain(`about 869,012.627514 ${mint.slice(0, 4)}…${mint.slice(-4)}`)
    expect(shown).toMatch(
      /^ {2}risk gate +WARN +quick-scan grade C · data FULL\n {15}HIGH +Most LP tokens still exist\.$/m,
    )
    // Without decimals known, the atomic units say so.
    expect(renderJob(plain, job, {})).toContain('100,000,000 atomic units of So11…1112')
  })
})
