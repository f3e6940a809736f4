import { describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { createKeyPairSignerFromPrivateKeyBytes, getAddressEncoder } from '@solana/kit'
import { CLIENT_ERROR_CODES } from '../client/errors.ts'
import { solanaKeypairFile } from '../client/index.ts'
import { ERROR_META } from '../client/mcp-bridge.ts'
import { ERROR_CATALOGUE } from '../src/kernel/errors.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The local stdio MCP bridge (`solsentry mcp`) as a desktop host runs it: a child process on the
// sandboxed service over loopback, driven by the official MCP SDK client (or raw JSON-RPC lines).
const { sandbox, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const world = sandbox.file
const buyer = await solanaKeypairFile(world.buyer.keypair_path)
const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  SOLSENTRY_URL: running.url,
  SOLSENTRY_KEYPAIR: world.buyer.keypair_path,
  SOLSENTRY_SOLANA_RPC: world.urls.rpc,
}
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test-host', version: '1.0.0' } },
})}\n`

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** A process's state and CPU time so far (user + system, µs) from /proc; undefined once it is gone. */
function procOf(pid: number): { state: string; cpuUs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0]!, cpuUs: ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS }
  } catch {
    return undefined
  }
}

/** Whether a process has ended (gone, or a zombie nobody has reaped yet). */
const ended = (pid: number) => {
  const proc = procOf(pid)
  return proc === undefined || proc.state === 'Z'
}

/** Waits up to `ms` for `pid` to end; the time it took, or undefined when it still runs. */
async function endOf(pid: number, ms: number): Promise<number | undefined> {
  const started = performance.now()
  while (performance.now() - started < ms) {
    if (ended(pid)) return performance.now() - started
    await Bun.sleep(50)
  }
  return undefined
}

/** Lines read from a stream, one at a time. */
function linesOf(stream: ReadableStream<Uint8Array>): () => Promise<string> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  return async () => {
    for (;;) {
      const newline = buffered.indexOf('\n')
      if (newline >= 0) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        return line
      }
      const { value, done } = await reader.read()
      if (done) throw new Error(`the stream ended (${buffered})`)
      buffered += decoder.decode(value, { stream: true })
    }
  }
}

describe('the bridge ends with its host', () => {
  test('stdin closed after a session: it exits within 5 s, without spinning', async () => {
    const child = Bun.spawn([process.execPath, cli, 'mcp'], { env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
    try {
      const line = linesOf(child.stdout)
      child.stdin.write(INITIALIZE)
      await child.stdin.flush()
      expect(JSON.parse(await line()).result.serverInfo.name).toBe('solsentry')
      const cpuAtClose = procOf(child.pid)!.cpuUs
      await child.stdin.end()
      const took = await endOf(child.pid, 5_000)
      expect(took).toBeDefined()
      expect(await child.exited).toBe(0)
      // The CPU it used from the close to its exit: a spin would burn a core the whole time.
      const cpuAfterClose = Number(child.resourceUsage()!.cpuTime.total) - cpuAtClose
      expect(cpuAfterClose).toBeLessThan(1_000_000)
    } finally {
      if (!ended(child.pid)) child.kill('SIGKILL')
    }
  }, 30_000)

  test('stdin already at its end (`solsentry mcp < /dev/null`): it exits, without spinning', async () => {
    const child = Bun.spawn([process.execPath, cli, 'mcp'], { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
    try {
      const took = await endOf(child.pid, 15_000)
      expect(took).toBeDefined()
      expect(await child.exited).toBe(0)
      // Its start-up (reading the service's tools) and nothing more.
      expect(Number(child.resourceUsage()!.cpuTime.total)).toBeLessThan(6_000_000)
    } finally {
      if (!ended(child.pid)) child.kill('SIGKILL')
    }
  }, 30_000)

  test('its parent killed while stdin stays open: it exits within 5 s', async () => {
    // A shell starts the bridge on the shell's own stdin (held open by this test) and waits; killing
    // the shell leaves the bridge with an open stdin and a new parent, as a crashed desktop host does.
    const shell = Bun.spawn(
      ['sh', '-c', 'exec 3<&0; "$@" <&3 3<&- & echo $!; wait', 'sh', process.execPath, cli, 'mcp'],
      {
        env,
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
      },
    )
    const line = linesOf(shell.stdout)
    const bridge = Number(await line())
    try {
      shell.stdin.write(INITIALIZE)
      await shell.stdin.flush()
      expect(JSON.parse(await line()).result.serverInfo.name).toBe('solsentry')
      expect(ended(bridge)).toBe(false)
      shell.kill('SIGKILL')
      await shell.exited
      expect(await endOf(bridge, 5_000)).toBeDefined()
    } finally {
      if (!ended(bridge)) process.kill(bridge, 'SIGKILL')
      await shell.stdin.end()
    }
  }, 30_000)
})

describe('a bridge misconfigured stops at once, saying why on stderr (the host shows its log)', () => {
  const start = async (args: string[], settings: Record<string, string>) => {
    const child = Bun.spawn([process.execPath, cli, 'mcp', ...args], {
      env: { ...env, ...settings },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited])
    return { stderr, code }
  }

  test('--budget abc: USAGE, exit 2', async () => {
    const { stderr, code } = await start(['--budget', 'abc'], {})
    expect(code).toBe(2)
    expect(stderr.trim()).toBe(
      'solsentry: USAGE: --budget is an amount in USD such as 2.00, at most 6 decimals (got "abc")',
    )
  }, 30_000)

  test('a keypair file that is not there: NO_WALLET naming it and --keypair, exit 1, no stack trace', async () => {
    const { stderr, code } = await start([], { SOLSENTRY_KEYPAIR: '/nonexistent/id.json' })
    expect(code).toBe(1)
    expect(stderr).toStartWith('solsentry: NO_WALLET: cannot read the keypair file /nonexistent/id.json')
    expect(stderr).toContain('--keypair')
    expect(stderr).not.toMatch(/^\s+at /m)
  }, 30_000)
})

type ToolResult = {
  isError?: boolean
  structuredContent?: Record<string, unknown>
  content: { type: string; text: string }[]
  _meta?: Record<string, Record<string, unknown>>
}

/** The bridge as a host starts it, connected with the official SDK client; `settings` replace env entries (undefined drops one). */
async function bridgeWith(args: string[], settings: Record<string, string | undefined> = {}): Promise<Client> {
  const childEnv = { ...env, ...settings }
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name]
  const mcp = new Client({ name: 'test-host', version: '1.0.0' })
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', ...args],
      env: childEnv as Record<string, string>,
      stderr: 'pipe',
    }),
  )
  await mcp.listTools() // the client validates structured results against the schemas it lists
  return mcp
}

/** A refusal as the official client takes it: an isError result (never a thrown McpError), text only. */
function expectRefusal(result: ToolResult, code: string): string {
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  expect(result._meta?.[ERROR_META]?.code).toBe(code)
  expect(Object.keys({ ...ERROR_CATALOGUE, ...CLIENT_ERROR_CODES })).toContain(code)
  return result.content[0]!.text
}

test("the bridge's version is the client package's (client/package.json), one version everywhere", async () => {
  const mcp = await bridgeWith([])
  try {
    const { version } = JSON.parse(readFileSync(join(import.meta.dir, '..', 'client', 'package.json'), 'utf8'))
    expect(mcp.getServerVersion()).toMatchObject({ name: 'solsentry', version })
    const cliVersion = Bun.spawnSync([process.execPath, cli, '--version']).stdout.toString().trim()
    expect(cliVersion).toBe(`solsentry ${version}`)
  } finally {
    await mcp.close()
  }
}, 60_000)

describe('refusals come back as tool errors the official client takes', () => {
  const intel = { name: 'sol_market_intel', arguments: { token_address: mintOf('blue-chip') } }
  const quick = { name: 'sol_quick_scan', arguments: { token_address: mintOf('blue-chip') } }

  test('over the budget (--budget 0.10, a 0.20 tool): the price and the budget left, nothing paid', async () => {
    const mcp = await bridgeWith(['--budget', '0.10'])
    try {
      const before = await usdcOf(sandbox, buyer.address)
      const text = expectRefusal((await mcp.callTool(intel)) as ToolResult, 'SPEND_LIMIT')
      expect(text).toStartWith(
        'sol_market_intel costs 0.20 USD; the budget left is 0.10 USD (--budget 0.10, 0.00 spent): raise it or call a cheaper tool',
      )
      expect(text).not.toContain('Failed to create payment payload')
      expect(await usdcOf(sandbox, buyer.address)).toBe(before)
      // Within the budget the same bridge still pays, and the next refusal counts what was spent.
      const paid = (await mcp.callTool(quick)) as ToolResult
      expect(paid.isError).toBeFalsy()
      expect(paid._meta?.['x402/payment-response']?.success).toBe(true)
      const again = expectRefusal((await mcp.callTool(intel)) as ToolResult, 'SPEND_LIMIT')
      expect(again).toStartWith(
        'sol_market_intel costs 0.20 USD; the budget left is 0.08 USD (--budget 0.10, 0.02 spent)',
      )
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test('over the per-call cap (--max-usd 0.01, a 0.02 tool): the price and the cap, nothing paid', async () => {
    const mcp = await bridgeWith(['--max-usd', '0.01'])
    try {
      const before = await usdcOf(sandbox, buyer.address)
      const text = expectRefusal((await mcp.callTool(quick)) as ToolResult, 'SPEND_LIMIT')
      expect(text).toStartWith("sol_quick_scan asks 0.02 USD, over this bridge's per-call cap of 0.01 USD")
      expect(text).toContain('raise --max-usd')
      expect(await usdcOf(sandbox, buyer.address)).toBe(before)
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test('no keypair: NO_WALLET, saying how to give it one; a free tool still answers', async () => {
    const mcp = await bridgeWith([], { SOLSENTRY_KEYPAIR: undefined, SOLSENTRY_EVM_KEY: undefined })
    try {
      const text = expectRefusal((await mcp.callTool(quick)) as ToolResult, 'NO_WALLET')
      expect(text).toStartWith('sol_quick_scan is paid (0.02 USD) and this bridge has no wallet to pay it')
      expect(text).toContain('SOLSENTRY_KEYPAIR')
      expect(text).not.toContain('X-PAYMENT')
      const pairs = (await mcp.callTool({ name: 'sol_trade_pairs', arguments: {} })) as ToolResult
      expect(pairs.isError).toBeFalsy()
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test('a wallet without USDC: the service refuses the payment, said with what to check, nothing paid', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(32))
    const signer = await createKeyPairSignerFromPrivateKeyBytes(secret, true)
    const keypair = join(tmpdir(), `solsentry-empty-${process.pid}.json`)
    await Bun.write(keypair, JSON.stringify([...secret, ...getAddressEncoder().encode(signer.address)]))
    const mcp = await bridgeWith([], { SOLSENTRY_KEYPAIR: keypair })
    try {
      const result = (await mcp.callTool(quick)) as ToolResult
      expect(result.isError).toBe(true)
      expect(result._meta?.[ERROR_META]?.code).toBe('PAYMENT_REQUIRED')
      expect(result.content[0]!.text).toStartWith("sol_quick_scan: the service refused this wallet's payment: ")
      expect(result.content[0]!.text).toContain('Check that the wallet holds 0.02 USD or more of USDC')
    } finally {
      await mcp.close()
      rmSync(keypair, { force: true })
    }
  }, 60_000)

  test('the Solana RPC unreachable: PAYMENT_FAILED, naming SOLSENTRY_SOLANA_RPC, nothing paid', async () => {
    const mcp = await bridgeWith([], { SOLSENTRY_SOLANA_RPC: 'http://127.0.0.1:1' })
    try {
      const before = await usdcOf(sandbox, buyer.address)
      const text = expectRefusal((await mcp.callTool(quick)) as ToolResult, 'PAYMENT_FAILED')
      expect(text).toStartWith('sol_quick_scan: the payment could not be made')
      expect(text).toContain('SOLSENTRY_SOLANA_RPC')
      expect(await usdcOf(sandbox, buyer.address)).toBe(before)
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test('the service gone after listing its tools: SERVICE_UNREACHABLE, naming the URL tried', async () => {
    // A loopback relay to the service stands for it, then stops answering.
    const relay = Bun.serve({
      port: 0,
      fetch: async (request) => {
        const url = new URL(request.url)
        return fetch(`${running.url}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' ? undefined : await request.arrayBuffer(),
        })
      },
    })
    const url = `http://127.0.0.1:${relay.port}`
    const mcp = await bridgeWith([], { SOLSENTRY_URL: url })
    try {
      await relay.stop(true)
      const text = expectRefusal((await mcp.callTool(quick)) as ToolResult, 'SERVICE_UNREACHABLE')
      expect(text).toStartWith(`sol_quick_scan: nothing answers at ${url} (`)
      expect(text).toContain('SOLSENTRY_URL')
    } finally {
      await mcp.close()
      await relay.stop(true)
    }
  }, 60_000)

  test('the service down from the start: the bridge runs, says so on tools/list and as a tool error', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const url = `http://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const mcp = new Client({ name: 'test-host', version: '1.0.0' })
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp'],
        env: { ...env, SOLSENTRY_URL: url },
        stderr: 'pipe',
      }),
    )
    try {
      const listing = await mcp.listTools().catch((error: Error) => error)
      expect(listing).toBeInstanceOf(Error)
      expect((listing as Error).message).toContain(`the solsentry service at ${url} did not list its tools`)
      expect((listing as Error).message).toContain('SOLSENTRY_URL')
      const text = expectRefusal((await mcp.callTool(quick)) as ToolResult, 'SERVICE_UNREACHABLE')
      expect(text).toStartWith(`sol_quick_scan: the solsentry service at ${url} did not list its tools`)
    } finally {
      await mcp.close()
    }
  }, 60_000)

  test("the service's own refusal: its catalogue error, in structuredContent as the output schema takes it", async () => {
    const mcp = await bridgeWith([])
    try {
      const result = (await mcp.callTool({
        name: 'sol_quick_scan',
        arguments: { token_address: 'BONK' },
      })) as ToolResult
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
      expect(result._meta?.[ERROR_META]).toMatchObject({ code: 'INVALID_ADDRESS', status: 400 })
      expect(result.content[0]!.text).toStartWith('sol_quick_scan: INVALID_ADDRESS: ')
      // A tool's name from before the sol_ prefix: a protocol error naming the new one.
      const old = await mcp.callTool({ name: 'trending', arguments: {} }).catch((error: Error) => error)
      expect((old as Error).message).toContain('unknown tool trending (it is named sol_trending now)')
    } finally {
      await mcp.close()
    }
  }, 60_000)
})
