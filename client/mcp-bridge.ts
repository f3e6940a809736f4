/**
 * `solsentry mcp`: a local MCP server over stdio for agent hosts that cannot pay by themselves. It lists
 * the remote service's tools (its /mcp tools/list, so every route the service adds appears here) and
 * runs each call as the tool's HTTP route through the SDK, which pays from the user's own wallet within
 * the spend controls. The keys stay in this process; only signed payments leave it.
 *
 * A call that fails comes back as an MCP tool error (`isError: true`) saying what happened and what to
 * do, its code in `_meta["solsentry/error"]` (docs/errors.md); the service's own error body rides in
 * `structuredContent` only when the tool's output schema takes it, so an official client never throws
 * on it. Over stdio the bridge ends when its host does: stdin closing, or its parent process gone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { CLIENT_ERROR_CODES } from './errors.ts'
import { StdioBatchTransport } from './stdio-transport.ts'
import { type Receipt, type RouteKey, type Solsentry, SolsentryError, type SpendRefusal } from './index.ts'
import { renderDeepDive, renderExitCheck, renderMarketIntel, renderQuickScan } from './render.ts'
import type { DeepDive, ExitCheck, MarketIntel, QuickScan } from './routes.ts'
import { CLIENT_VERSION } from './version.ts'

const ROUTE_META = 'solsentry/route'
/** The result `_meta` key of a failed call's code and details (docs/errors.md). */
export const ERROR_META = 'solsentry/error'
/** How often the stdio bridge checks that its parent process still runs. */
const PARENT_CHECK_MS = 2_000

/**
 * The bridge's MCP server on `transport`. Resolves when the transport closes. Without a `transport` it
 * serves stdio and closes when stdin ends or its parent process dies (a crashed host leaves none behind).
 */
export async function runBridge(solsentry: Solsentry, transport?: Transport): Promise<void> {
  const listed = await remoteTools(solsentry).catch((error: unknown) => {
    // The host shows the server's stderr: say it once; tools/list asks the service again.
    console.error(`solsentry mcp: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  })
  let tools = listed?.tools
  const toolsNow = async (): Promise<Tool[]> => {
    tools ??= (
      await remoteTools(solsentry).catch((error: unknown) => {
        throw new McpError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error))
      })
    ).tools
    return tools
  }

  const server = new Server(
    { name: 'solsentry', version: CLIENT_VERSION },
    {
      capabilities: { tools: {} },
      instructions: `${listed?.instructions ?? ''}\n\nThis local bridge pays paid tools from your own wallet, within its spend controls (per call: the published price at most).`,
    },
  )
  const validator = new AjvJsonSchemaValidator()
  /** Each tool's output schema compiled once, when a service refusal first needs it. */
  const outputChecks = new Map<string, (value: unknown) => boolean>()
  const fitsOutput = (tool: Tool, value: unknown) => {
    if (!tool.outputSchema) return false
    let check = outputChecks.get(tool.name)
    if (!check) {
      const compiled = validator.getValidator(tool.outputSchema)
      check = (candidate) => compiled(candidate).valid
      outputChecks.set(tool.name, check)
    }
    return check(value)
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await toolsNow() }))
  server.setRequestHandler(CallToolRequestSchema, async (call): Promise<CallToolResult> => {
    const known = await toolsNow().catch((error: McpError) => error)
    // No list of tools: the service did not answer (the bridge asks it again at the next call).
    if (known instanceof McpError)
      return {
        isError: true,
        content: [{ type: 'text', text: `${call.params.name}: ${known.message.replace(/^MCP error -?\d+: /, '')}` }],
        _meta: { [ERROR_META]: { code: 'SERVICE_UNREACHABLE', url: solsentry.url } },
      }
    const tool: Tool | undefined = known.find((candidate) => candidate.name === call.params.name)
    const route = tool?._meta?.[ROUTE_META]
    if (!tool || typeof route !== 'string') {
      // The tools' names before they all took the sol_ prefix (docs/mcp.md): say the new one.
      const renamed = known.find((candidate) => candidate.name === `sol_${call.params.name}`)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${call.params.name}${renamed ? ` (it is named ${renamed.name} now)` : ''}: tools/list names the tools`,
      )
    }
    try {
      let receipt: Receipt | undefined
      const answer = (await solsentry.call(route as RouteKey, (call.params.arguments ?? {}) as never, {
        onReceipt: (settled) => {
          receipt = settled
        },
      })) as Record<string, unknown>
      const words = wordsOf(route, answer)
      return {
        structuredContent: answer,
        // The JSON first (as the service's own MCP answers it), then the answer as the CLI puts it in words.
        content: [
          { type: 'text' as const, text: JSON.stringify(answer) },
          ...(words ? [{ type: 'text' as const, text: words }] : []),
        ],
        _meta: { 'solsentry/spent_usd': solsentry.spentUsd, ...(receipt ? { 'x402/payment-response': receipt } : {}) },
      }
    } catch (error) {
      const failure = failureOf(tool.name, error, solsentry)
      // The service's own error body, when the tool's output schema takes it (its catalogue error).
      const body = failure.service && error instanceof SolsentryError ? error.body : undefined
      const fits = body !== undefined && fitsOutput(tool, body)
      return {
        isError: true,
        content: [{ type: 'text', text: failure.text }],
        ...(fits ? { structuredContent: body } : {}),
        _meta: { [ERROR_META]: failure.meta, 'solsentry/spent_usd': solsentry.spentUsd },
      }
    }
  })
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve
  })
  // Over stdio: one message a line, or a batch (revision 2025-03-26), every revision the SDK serves.
  await server.connect(transport ?? new StdioBatchTransport())
  if (!transport) untilOrphaned(() => server.close())
  await closed
}

/** The remote service's tools and instructions, from its /mcp. */
async function remoteTools(solsentry: Solsentry): Promise<{ tools: Tool[]; instructions: string | undefined }> {
  const remote = new Client({ name: 'solsentry-bridge', version: CLIENT_VERSION })
  try {
    await remote.connect(new StreamableHTTPClientTransport(new URL(`${solsentry.url}/mcp`)))
    const { tools } = await remote.listTools()
    return { tools, instructions: remote.getInstructions() }
  } catch (error) {
    throw new Error(
      `the solsentry service at ${solsentry.url} did not list its tools (${error instanceof Error ? error.message : String(error)}): start it, or set SOLSENTRY_URL (--url) in this server's configuration`,
    )
  } finally {
    await remote.close().catch(() => undefined)
  }
}

/**
 * Calls `close` once, when stdin ends (the host closed the pipe) or the parent process is gone (its
 * pid changed: the bridge was handed to init or a subreaper), then makes sure the process ends.
 */
function untilOrphaned(close: () => Promise<void>): void {
  const parent = process.ppid
  let done = false
  const stop = () => {
    if (done) return
    done = true
    clearInterval(watch)
    process.stdin.pause()
    void close().finally(() => {
      // Nothing is left to do; an open handle must not keep a host-less process alive.
      setTimeout(() => process.exit(0), 500).unref()
    })
  }
  process.stdin.once('end', stop)
  process.stdin.once('close', stop)
  const watch = setInterval(() => {
    if (process.ppid !== parent || !alive(parent)) stop()
  }, PARENT_CHECK_MS)
  watch.unref()
}

/** Whether a process with this pid exists (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}

/** A failed call in words (what happened, what to do) and its code for `_meta`. */
export function failureOf(
  toolName: string,
  error: unknown,
  solsentry: Solsentry,
): { text: string; meta: Record<string, unknown>; service?: true } {
  if (!(error instanceof SolsentryError))
    return {
      text: `${toolName} failed in the bridge: ${error instanceof Error ? error.message : String(error)}`,
      meta: { code: 'INTERNAL' },
    }
  const { code, body } = error
  const nothingPaid = 'nothing was paid'
  if (code === 'SPEND_LIMIT') {
    const refusal = body as Partial<SpendRefusal>
    const price = usd(refusal.price_usd)
    const text =
      refusal.limit === 'budget'
        ? `${toolName} costs ${price} USD; the budget left is ${usd(refusal.budget_left_usd)} USD (--budget ${usd(refusal.budget_usd)}, ${usd(refusal.spent_usd)} spent): raise it or call a cheaper tool; ${nothingPaid}`
        : refusal.limit === 'per_call'
          ? `${toolName} asks ${price} USD, over this bridge's per-call cap of ${usd(refusal.cap_usd)} USD (the lower of --max-usd and the price the service publishes): raise --max-usd or call a cheaper tool; ${nothingPaid}`
          : `${toolName}: ${error.message}; ${nothingPaid}`
    return { text, meta: { code, ...body } }
  }
  if ((code === 'PAYMENT_REQUIRED' && !solsentry.canPay) || code === 'NO_WALLET') {
    const price = priceOf(body)
    return {
      text: `${toolName} is paid${price ? ` (${price} USD)` : ''} and this bridge has no wallet to pay it: set SOLSENTRY_KEYPAIR (a Solana keypair file) or SOLSENTRY_EVM_KEY in this server's env in the host's configuration, or pass --keypair; ${nothingPaid}`,
      meta: { code: 'NO_WALLET', ...(price ? { price_usd: price } : {}) },
    }
  }
  if (code === 'SERVICE_UNREACHABLE')
    return {
      text: `${toolName}: ${error.message}; ${nothingPaid}`,
      meta: { code, ...body },
    }
  if (code === 'PAYMENT_FAILED') {
    // The SDK names the remedy when it knows the cause (the RPC, the rails); else the code's own.
    const remedied = /SOLSENTRY_|give it /.test(error.message)
    const remedy = remedied ? '' : `. ${capitalized(CLIENT_ERROR_CODES.PAYMENT_FAILED.remedy)}`
    return {
      text: `${toolName}: ${error.message}${remedy} (set in this server's env in the host's configuration); ${nothingPaid}`,
      meta: { code },
    }
  }
  if (code === 'ATTESTATION_INVALID')
    return {
      text: `${toolName}: ${error.message}: ${CLIENT_ERROR_CODES.ATTESTATION_INVALID.remedy}`,
      meta: { code },
    }
  if (code === 'PAYMENT_REQUIRED') {
    // Paid, and the service (its facilitator) refused the payment: the wallet's side, most often its funds.
    const price = priceOf(body)
    return {
      text: `${toolName}: the service refused this wallet's payment: ${error.message}; nothing was paid. Check that the wallet holds${price ? ` ${price} USD or more of` : ''} USDC on the rail it pays with (a wallet without a USDC account fails its simulation with InvalidAccountData)`,
      meta: { code, status: error.status, ...(error.requestId ? { request_id: error.requestId } : {}) },
      service: true,
    }
  }
  // The service's own answer: its catalogue code and message (which says what to do).
  return {
    text: `${toolName}: ${code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`,
    meta: { code, status: error.status, ...(error.requestId ? { request_id: error.requestId } : {}) },
    service: true,
  }
}

/** A USD amount as people write prices: two decimals, more only when they carry digits (0.015). */
function usd(amount: string | undefined): string {
  if (amount === undefined) return '?'
  const value = Number(amount)
  const cents = value * 100
  return Math.abs(cents - Math.round(cents)) < 1e-9 ? value.toFixed(2) : String(value)
}

const capitalized = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`

/** The price a 402's offers ask (atomic USDC, 6 decimals, on either rail), in USD. */
function priceOf(body: Record<string, unknown>): string | undefined {
  const offers = body.accepts as { amount?: string; maxAmountRequired?: string }[] | undefined
  const atomic = offers?.[0]?.amount ?? offers?.[0]?.maxAmountRequired
  return atomic === undefined ? undefined : usd(String(Number(atomic) / 1e6))
}

/** A scanner's answer as the CLI shows it, without colours (undefined for the other routes). */
function wordsOf(route: string, answer: Record<string, unknown>): string | undefined {
  const plain = { color: false }
  if (route === 'POST /scan/quick') return renderQuickScan(plain, answer as QuickScan)
  if (route === 'POST /market/intel') return renderMarketIntel(plain, answer as MarketIntel)
  if (route === 'POST /scan/deep') return renderDeepDive(plain, answer as DeepDive)
  if (route === 'POST /exit/check') return renderExitCheck(plain, answer as ExitCheck)
  return undefined
}
