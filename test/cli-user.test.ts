import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { generateKeyPairSigner } from '@solana/kit'
import { CLI_EXIT_CODES, exitCode } from '../client/errors.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { runToEnd } from './support/run.ts'
import { testWithTmux, tradeOnATerminal } from './support/terminal.ts'
import { usdcOf } from './support/x402.ts'

// The CLI as a hurried new user meets it (issue 32's second pass): the service on the sandbox over
// loopback, the CLI a child process (or in tmux when it asks), its exit code and words read as a person would.
const { sandbox, ctx, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const world = sandbox.file
const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
const settings = {
  SOLSENTRY_URL: running.url,
  SOLSENTRY_KEYPAIR: world.buyer.keypair_path,
  SOLSENTRY_SOLANA_RPC: world.urls.rpc,
}
const run = (args: string[], env: Record<string, string | undefined> = settings) =>
  runToEnd([process.execPath, cli, ...args], {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: '/nonexistent',
    ...env,
  })
const usdc = () => usdcOf(sandbox, world.buyer.address)
/** The route's request schema as the service publishes it: what the CLI must quote, never a copy. */
const openapi = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
  paths: Record<
    string,
    {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                properties: Record<
                  string,
                  { enum?: string[]; minimum?: number; maximum?: number; description?: string }
                >
              }
            }
          }
        }
      }
    }
  >
}
const memberOf = (path: string, member: string) =>
  openapi.paths[path]!.post.requestBody.content['application/json'].schema.properties[member]!
// The serial rugger's LP is not burned: the gate warns. The hostile Token-2022 mint: the gate blocks.
const warned = () => mintOf('serial-rugger')
const blocked = () => mintOf('hostile-token-2022')

describe('exit codes: one meaning each, the table in --help', () => {
  test('--help prints every code with its one meaning; no code twice', async () => {
    const { stdout, code } = await run(['--help'])
    expect(code).toBe(0)
    const table = stdout.slice(stdout.indexOf('exit codes'))
    for (const entry of CLI_EXIT_CODES)
      expect(table).toMatch(new RegExp(`^ {2}${entry.code} +${entry.meaning.split(' ').slice(0, 4).join(' ')}`, 'm'))
    const codes = CLI_EXIT_CODES.map((entry) => entry.code)
    expect(new Set(codes).size).toBe(codes.length)
    expect(new Set(CLI_EXIT_CODES.map((entry) => entry.name)).size).toBe(codes.length)
  })

  test(`${exitCode('OK')}: done`, async () => {
    expect((await run(['pairs'])).code).toBe(exitCode('OK'))
  })

  test(`${exitCode('FAILED')}: the service refused the call (TOKEN_NOT_FOUND), said with its code`, async () => {
    // A well-formed address no account has (a new key's).
    const { stderr, code } = await run(['quick', (await generateKeyPairSigner()).address])
    expect(code).toBe(exitCode('FAILED'))
    expect(stderr).toContain('solsentry: TOKEN_NOT_FOUND:')
  })

  test(`${exitCode('USAGE')}: a value the service's schema refuses, in the option's words`, async () => {
    const { stderr, code } = await run(['trending', '--interval', '2h'])
    expect(code).toBe(exitCode('USAGE'))
    expect(stderr).toContain(
      `--interval must be one of ${memberOf('/scan/trending', 'interval').enum!.join(', ')} (not "2h")`,
    )
  })

  test(`${exitCode('CONFIRMATION_REQUIRED')}: the gate warns and no terminal can ask`, async () => {
    const { stderr, code } = await run(['trade', warned(), '--amount', '0.01'])
    expect(code).toBe(exitCode('CONFIRMATION_REQUIRED'))
    expect(stderr).toContain('CONFIRMATION_REQUIRED')
  }, 60_000)

  testWithTmux(
    `${exitCode('DECLINED')}: "n" at the question`,
    async () => {
      await tradeOnATerminal(cli, [warned(), '--amount', '0.01'], settings, async (session) => {
        session.type('n')
        const after = await session.waitFor(/\[exit \d+\]/)
        expect(after).toContain('solsentry: DECLINED')
        expect(after).toContain(`[exit ${exitCode('DECLINED')}]`)
      })
    },
    60_000,
  )

  test(`${exitCode('TRADE_NOT_CONFIRMED')}: the gate blocks; the reasons once, no line ending in a space`, async () => {
    const before = await usdc()
    const { stdout, stderr, code } = await run(['trade', blocked(), '--amount', '0.01', '--yes'])
    expect(code).toBe(exitCode('TRADE_NOT_CONFIRMED'))
    expect(stderr).toMatch(/^Trade +job_\w+ +REJECTED_RISK_GATE$/m)
    expect(stderr).toContain('RISK_GATE: the risk gate blocks buying TRAP, for the reasons above (nothing was charged)')
    const reasons = [...stderr.matchAll(/^ {15}(?:CRITICAL|HIGH|MEDIUM|LOW|INFO) +(.+)$/gm)].map((match) => match[1]!)
    expect(reasons.length).toBeGreaterThan(1)
    for (const reason of reasons) expect(stderr.split(reason).length - 1).toBe(1)
    expect(stderr).not.toMatch(/ $/m)
    expect(stdout).toBe('')
    expect(await usdc()).toBe(before)
    // --json: the job on stdout for a script, the same exit code.
    const json = await run(['trade', blocked(), '--amount', '0.01', '--yes', '--json'])
    expect(json.code).toBe(exitCode('TRADE_NOT_CONFIRMED'))
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'REJECTED_RISK_GATE', rejection: { code: 'RISK_GATE' } })
  }, 60_000)
})

describe('a quote that expires at the question is quoted again and asked again, never signed stale', () => {
  testWithTmux(
    '"y" after the blockhash expired: the quote expired, the new plan, the question again; "y": confirmed',
    async () => {
      await tradeOnATerminal(cli, [warned(), '--amount', '0.02'], settings, async (session) => {
        // The person thinks for longer than the quote lives: the chain moves past its blockhash.
        for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
        session.type('y')
        const asked = await session.waitFor('Sign and send this new quote? [y/N]', 30_000)
        expect(asked).toContain('The quote expired before it could be signed')
        expect(asked).toContain('quoted again, the terms may have moved. Nothing was signed.')
        expect(asked.split('Trade plan').length - 1).toBe(2)
        expect(asked.slice(asked.indexOf('The quote expired'))).toMatch(/price impact +[\d.]+%/)
        session.type('y')
        const after = await session.waitFor(/\[exit \d+\]/, 45_000)
        // Signed stale, it would have failed (BLOCKHASH_EXPIRED, exit 5): it confirmed.
        expect(after).toMatch(/CONFIRMED/)
        expect(after).not.toContain('BLOCKHASH_EXPIRED')
        expect(after).toContain(`[exit ${exitCode('OK')}]`)
      })
    },
    90_000,
  )
})

describe('the service’s words in the CLI’s: options, accepted values from the route’s schema, commands', () => {
  test('--size, --home, --limit: the option typed and what its route accepts; nothing charged', async () => {
    const before = await usdc()
    const size = await run(['exit', mintOf('blue-chip'), '--size', 'abc'])
    const { minimum, maximum } = memberOf('/exit/check', 'size_usdc')
    expect(size.code).toBe(2)
    expect(size.stderr).toContain(`--size must be a number from ${minimum} to ${maximum} (not "abc")`)
    const home = await run(['exit', mintOf('blue-chip'), '--home', 'mars'])
    expect(home.code).toBe(2)
    expect(home.stderr).toContain(
      `--home must be one of ${memberOf('/exit/cross-check', 'home_chain').enum!.join(', ')}`,
    )
    const limit = await run(['launches', '--limit', '0'])
    expect(limit.code).toBe(2)
    expect(limit.stderr).toContain('--limit must be a whole number from 1 to')
    // No enum or range: the member's own description, its first clause.
    const news = await run(['news', 'ab cd!'])
    const described = memberOf('/news/pulse', 'symbol').description!.split(/[;.](?:\s|$)/)[0]!
    expect(news.code).toBe(2)
    expect(news.stderr).toContain(
      `<ticker or mint> must be ${described.charAt(0).toLowerCase()}${described.slice(1)} (not "ab cd!")`,
    )
    for (const said of [size.stderr, home.stderr, limit.stderr, news.stderr]) {
      expect(said).not.toContain('Expected')
      expect(said).not.toContain('body member')
    }
    expect(await usdc()).toBe(before)
  }, 60_000)

  test("--slippage out of the service's range: a usage error naming the option (exit 2), nothing signed or charged", async () => {
    const before = await usdc()
    const { stderr, code } = await run(['trade', warned(), '--from', 'USDC', '--amount', '1', '--slippage', '5000000'])
    expect(code).toBe(exitCode('USAGE'))
    expect(stderr).toMatch(/USAGE: --slippage must be \d+ to \d+ \(got 5000000\), in basis points/)
    expect(stderr).not.toContain('slippage_bps')
    expect(await usdc()).toBe(before)
  }, 60_000)

  test("doctor --url reads that service's health (not this shell's settings); a closed port is SERVICE_UNREACHABLE", async () => {
    const health = (await (await fetch(`${running.url}/health`)).json()) as { status: string; sources: object }
    const checked = await run(['doctor', '--url', running.url])
    expect(checked.code).toBe(health.status === 'ok' || health.status === 'unknown' ? 0 : 1)
    expect(checked.stdout).toContain(`Service  ${running.url}`)
    for (const name of Object.keys(health.sources)) expect(checked.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'))
    expect(checked.stdout).not.toContain('FACILITATOR_URL')
    const asJson = await run(['doctor', '--json'], { ...settings })
    expect(JSON.parse(asJson.stdout)).toMatchObject({ status: health.status, sources: expect.any(Object) })
    const closed = await run(['doctor', '--url', 'http://127.0.0.1:9'])
    expect(closed.code).toBe(1)
    expect(closed.stderr).toContain('SERVICE_UNREACHABLE: nothing answers at http://127.0.0.1:9')
  }, 60_000)

  test('doctor --url on a service whose Jupiter host lacks Swap API v2: the jupiter line names the path, exit 1', async () => {
    sandbox.faults.set('jupiter', '/swap/v2', { kind: 'not_found' })
    try {
      await ctx.health.probe('jupiter')
      // /health reuses its reading for a second: read until it is the probe's.
      await eventually(
        'jupiter degraded on /health',
        async () => (await (await fetch(`${running.url}/health`)).json()) as { sources: Record<string, string> },
        (health) => health.sources.jupiter === 'degraded',
      )
      const { stdout, code } = await run(['doctor', '--url', running.url])
      expect(code).toBe(1)
      expect(stdout).toMatch(
        /^ {2}jupiter +degraded +token search answered .*; swap API v2 \(GET \/swap\/v2\/order\): jupiter: rejected \(HTTP 404\): this host does not serve \/swap\/v2\/order$/m,
      )
    } finally {
      sandbox.faults.clear()
      await ctx.health.probe('jupiter')
    }
  }, 60_000)

  test('exit --home: the cross-check says nothing of unread mint blockers when its mint was read', async () => {
    const { stdout, code } = await run(['exit', mintOf('blue-chip'), '--home', 'base'])
    expect(code).toBe(0)
    expect(stdout).toContain('Exit cross-check')
    expect(stdout).not.toContain('could not be read')
    expect(stdout).toMatch(/returns {7}\d[\d,]*\.\d\d USDC/)
  }, 60_000)

  test('routes read as commands: "solsentry exit <mint> is paid", never "/exit/check"', async () => {
    const noWallet = await run(['exit', mintOf('blue-chip')], { ...settings, SOLSENTRY_KEYPAIR: undefined })
    expect(noWallet.code).toBe(1)
    expect(noWallet.stderr).toContain('NO_WALLET: solsentry exit <mint> is paid (0.01 USD)')
    const capped = await run(['quick', mintOf('blue-chip'), '--max-usd', '0.001'])
    expect(capped.stderr).toContain(
      "SPEND_LIMIT: solsentry quick <mint> asks 0.02 USD, over this call's cap of 0.001 USD",
    )
    // Dollars with their cents: "0.50 USD … (0.00 USD spent)", never "0.5 USD … (spent 0)".
    const budget = await run(['deep', mintOf('blue-chip'), '--budget', '0.1'])
    expect(budget.stderr).toContain(
      'SPEND_LIMIT: solsentry deep <mint> costs 0.50 USD, which would exceed the budget of 0.10 USD (0.00 USD spent)',
    )
    // The CLI's options alone, never the SDK's beside them ("wallet.solana; the CLI: --keypair").
    expect(noWallet.stderr).toContain('a Solana keypair file (--keypair <file> or SOLSENTRY_KEYPAIR)')
    const down = await run(['quick', mintOf('blue-chip')], { ...settings, SOLSENTRY_URL: 'http://127.0.0.1:9' })
    expect(down.stderr).toContain('Point the client at it with --url <url> or SOLSENTRY_URL')
    for (const said of [noWallet.stderr, capped.stderr, budget.stderr, down.stderr]) {
      expect(said).not.toMatch(/(^|\s)\/(exit|scan)\//)
      expect(said).not.toContain('the CLI:')
      expect(said).not.toMatch(/wallet\.solana|wallet\.evm|solanaRpcUrl|the url option/)
    }
  })

  test('currencies and pairs for people: prices by command (never a route), columns named; --json as the API', async () => {
    const people = await run(['currencies'])
    expect(people.code).toBe(0)
    const answer = JSON.parse((await run(['currencies', '--json'])).stdout) as {
      prices: { route: string; usd: string }[]
    }
    const quick = answer.prices.find((price) => price.route === 'POST /scan/quick')!
    expect(people.stdout).toMatch(new RegExp(`^ {2}solsentry quick <mint> +${quick.usd} USD$`, 'm'))
    expect(people.stdout).not.toMatch(/(GET|POST) \//)
    const pairs = await run(['pairs'])
    expect(pairs.stdout).toMatch(/^ {2}symbol +mint +name$/m)
    expect(pairs.stdout).toMatch(/^ {2}USDC +\w{32,44} +\S/m)
  })

  test('a ticker for a mint: a verified token’s symbol is its mint; another is said before anything is paid', async () => {
    const before = await usdc()
    const bonk = await run(['quick', 'BONK'])
    expect(bonk.code).toBe(2)
    expect(bonk.stderr).toContain(
      '"BONK" is not a mint address, nor the symbol of a verified token (solsentry pairs lists them)',
    )
    const focus = await run(['trending', '--focus', '$WIF'])
    expect(focus.code).toBe(2)
    expect(focus.stderr).toContain('--focus "$WIF" is not a mint address')
    expect(await usdc()).toBe(before)
    const pairs = JSON.parse((await run(['pairs', '--json'])).stdout) as { pairs: { symbol: string; mint: string }[] }
    const usdcMint = pairs.pairs.find((pair) => pair.symbol === 'USDC')!.mint
    const scan = await run(['quick', 'usdc', '--json'])
    expect(scan.code).toBe(0)
    expect(JSON.parse(scan.stdout).token_address).toBe(usdcMint)
  }, 60_000)

  test('a typo in a mint or a wallet: which character, or how long; exit 2 before any call', async () => {
    // Nothing listens there: had the CLI called, it would say SERVICE_UNREACHABLE.
    const down = { ...settings, SOLSENTRY_URL: 'http://127.0.0.1:9' }
    const zero = await run(['quick', `${mintOf('blue-chip').slice(0, -1)}0`], down)
    expect(zero.code).toBe(2)
    expect(zero.stderr).toContain('it has "0", which no Solana address has (base58: no 0, O, I or l)')
    const short = await run(['wallet', 'abc'], down)
    expect(short.code).toBe(2)
    expect(short.stderr).toContain('"abc" is not a wallet address: it has 3 characters, and a Solana address 32 to 44')
    for (const said of [zero.stderr, short.stderr]) expect(said).not.toContain('SERVICE_UNREACHABLE')
  })

  test('--help per command (and help <command>) without calling; an option without its value; a mistyped command: did you mean', async () => {
    const down = { ...settings, SOLSENTRY_URL: 'http://127.0.0.1:9' }
    const quick = await run(['quick', '--help'], down)
    expect(quick.code).toBe(0)
    expect(quick.stdout).toStartWith('usage: solsentry quick <mint>\n')
    expect(quick.stdout).toContain('exit codes')
    const trade = await run(['help', 'trade'], down)
    expect(trade.code).toBe(0)
    expect(trade.stdout).toStartWith('usage: solsentry trade <mint or symbol> --amount <amount>')
    expect(trade.stdout).toContain('risk gate warns')
    // An option left without its value (at the end, or before another option) is never dropped silently.
    for (const args of [
      ['trending', '--limit'],
      ['trending', '--limit', '--json'],
    ]) {
      const bare = await run(args, down)
      expect(bare.code).toBe(2)
      expect(bare.stderr).toContain('USAGE: --limit needs a value: --limit <value>')
    }
    const mode = await run(['news', '--mode', 'x'], down)
    expect(mode.code).toBe(2)
    expect(mode.stderr).toContain('--mode must be one of pulse, brief, cohorts, report (not "x")')
    // Buying what pays for it: said here, in the command's words, not the service's input_mint/output_mint.
    const same = await run(['trade', 'SOL', '--amount', '1'])
    expect(same.code).toBe(2)
    expect(same.stderr).toContain('SOL is both the token to buy and the one paid with')
    expect(same.stderr).not.toContain('input_mint')
    const typo = await run(['qiuck', mintOf('blue-chip')], down)
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('unknown command qiuck: did you mean quick?')
    // The nearest, not the first within reach: radr is one edit from radar, two from trade.
    expect((await run(['radr'], down)).stderr).toContain('did you mean radar?')
    expect((await run(['quick', '--help'], down)).stdout).not.toContain('unknown')
  })
})

describe('npm run pay and npm run trade say what happened, and never "paid" when nothing was', () => {
  const script = async (name: 'pay' | 'trade', ...args: string[]) => {
    return runToEnd(
      [
        process.execPath,
        join(import.meta.dir, '..', 'sandbox', `${name}.ts`),
        ...args,
        '--world',
        sandbox.worldFilePath,
      ],
      { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SOLSENTRY_URL: running.url },
    )
  }

  test('npm run pay on a 400: its code and message, "nothing was paid", exit 1; on a 200: paid, with the receipt', async () => {
    const before = await usdc()
    const refused = await script('pay', '/scan/quick', 'BONK')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^npm run pay: INVALID_ADDRESS: .*\(HTTP 400\); nothing was paid$/m)
    expect(refused.stderr).not.toContain('paid by')
    expect(await usdc()).toBe(before)
    const paid = await script('pay', '/scan/quick', mintOf('blue-chip'))
    expect(paid.code).toBe(0)
    expect(paid.stderr).toMatch(/^HTTP 200; paid by \w+ on solana:\S+; receipt \{"success":true/m)
  }, 60_000)

  test('npm run trade on a refused quote: its code and message, nothing signed or paid, exit 1', async () => {
    const before = await usdc()
    const refused = await script('trade', 'BONK')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^npm run trade: quote refused: INVALID_ADDRESS: .*\(HTTP 400\); nothing was signed or paid$/m,
    )
    const blockedQuote = await script('trade', blocked(), '--amount', '0.01')
    expect(blockedQuote.code).toBe(1)
    expect(blockedQuote.stderr).toContain('npm run trade: quote refused: TRADE_REJECTED:')
    expect(blockedQuote.stderr).not.toContain('paid by')
    expect(await usdc()).toBe(before)
  }, 60_000)

  test('npm run trade on a gate that warns: stops before signing without --yes (exit 3), nothing paid', async () => {
    const before = await usdc()
    const warnedQuote = await script('trade', warned(), '--amount', '0.01')
    expect(warnedQuote.code).toBe(3)
    expect(warnedQuote.stderr).toMatch(
      /^npm run trade: the risk gate warns \(grade [A-F]\): .+\. Not signing without --yes; nothing was signed or paid$/m,
    )
    expect(warnedQuote.stderr).not.toContain('execute:')
    expect(await usdc()).toBe(before)
  }, 60_000)
})
