import type { ServerWebSocket } from 'bun'
import type { Chain } from '../chain/chain.ts'
import { stringifyRpcJson as stringifyRpc } from '../token/rpc-json.ts'
import type { EncodedAccount } from '@solana/kit'
import { ACCOUNT_ENCODINGS, encodeAccount } from './encode.ts'
import { METHODS, type RpcContext } from './methods.ts'
import { Params } from './params.ts'
import type { SandboxRpcProfile } from './profiles.ts'
import { RPC_ERRORS, RpcError } from './rpc-error.ts'
import { faultResponse, type FaultPlan } from '../faults.ts'

export interface RpcServerOptions {
  hostname: string
  /** HTTP JSON-RPC port (8899 is the local validator's; 0 picks a free one). */
  port: number
  /** WebSocket subscription port (8900 is the local validator's; 0 picks a free one). */
  wsPort: number
  /**
   * A sandbox control served beside the JSON-RPC on its own path (the rug controls), never faulted or
   * rate limited: it is the test's hand on the world, not the provider.
   */
  control?: { path: string; handle(request: Request): Promise<Response> }
}

export interface RunningRpcServer {
  url: string
  wsUrl: string
  stop(): Promise<void>
}

interface JsonRpcRequest {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
}

const JSON_HEADERS = { 'content-type': 'application/json' }

/**
 * The answer past a provider's rate limit: for the public endpoint, as recorded (test/fixtures/recorded/
 * solana-rpc/http429-too-many-requests-specific-rpc-call.json), HTTP 429 with a JSON-RPC error of code
 * 429 whose `id` is the endpoint's own request UUID, not the caller's; for a keyed provider, whose docs
 * name the status only, a bare 429.
 */
function tooManyRequests(kind: SandboxRpcProfile['throttledBody']): Response {
  if (kind === 'empty') return new Response(null, { status: 429 })
  const body = {
    jsonrpc: '2.0',
    error: {
      code: 429,
      message: 'Too many requests for a specific RPC call, contact your app developer or support@rpcpool.com.',
    },
    id: crypto.randomUUID(),
  }
  return new Response(JSON.stringify(body), { status: 429, headers: JSON_HEADERS })
}

/** Answers one JSON-RPC request object (never throws: errors become `error` members). */
export async function handleRpcRequest(ctx: RpcContext, request: JsonRpcRequest): Promise<unknown> {
  const id = request?.id ?? null
  if (
    typeof request !== 'object' ||
    request === null ||
    request.jsonrpc !== '2.0' ||
    typeof request.method !== 'string'
  )
    return { jsonrpc: '2.0', id, error: { code: RPC_ERRORS.INVALID_REQUEST, message: 'Invalid request' } }
  const handler = Object.hasOwn(METHODS, request.method) ? METHODS[request.method] : undefined
  if (!handler) return { jsonrpc: '2.0', id, error: { code: RPC_ERRORS.METHOD_NOT_FOUND, message: 'Method not found' } }
  const params = request.params ?? []
  if (!Array.isArray(params))
    return {
      jsonrpc: '2.0',
      id,
      error: { code: RPC_ERRORS.INVALID_PARAMS, message: 'Invalid params: expected an array' },
    }
  const refusal = ctx.profile?.refusal(request.method, params)
  if (refusal) return { jsonrpc: '2.0', id, error: { code: refusal.code, message: refusal.message } }
  try {
    const result = await handler(new Params(params, ctx.chain.slot), ctx)
    return { jsonrpc: '2.0', id, result }
  } catch (error) {
    if (error instanceof RpcError)
      return {
        jsonrpc: '2.0',
        id,
        error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) },
      }
    return {
      jsonrpc: '2.0',
      id,
      error: { code: RPC_ERRORS.INTERNAL_ERROR, message: `Internal error: ${(error as Error).message}` },
    }
  }
}

/**
 * The Solana JSON-RPC 2.0 server of the sandbox: HTTP on `port` (single and batch requests, and
 * `GET /health`), subscriptions over WebSocket on `wsPort` (signature and slot notifications, what
 * @solana/kit's send-and-confirm needs).
 */
/** The path the sandbox's facilitator reads the chain at: the same RPC, with faults of its own (`facilitator-rpc:`). */
export const FACILITATOR_RPC_PATH = '/facilitator'

export function startRpcServer(ctx: RpcContext, options: RpcServerOptions, faults?: FaultPlan): RunningRpcServer {
  const http = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    async fetch(request) {
      const receivedAt = performance.now()
      const asked = { server: 'rpc', route: '' }
      const answer = await serve(request, asked)
      if (asked.route) faults?.answered(asked.server, asked.route, receivedAt)
      // Browsers may call it, as they call the real endpoints: the validator's RPC server allows any
      // origin (solana rpc_service.rs: jsonrpc-http-server `.cors(AllowOnly([Any]))`, `.cors_max_age(86400)`).
      if (request.headers.has('origin')) answer.headers.set('access-control-allow-origin', '*')
      return answer
    },
  })

  /** `asked` is set to who asked (the facilitator has its path) and the JSON-RPC method(s), once read (a batch's joined by `,`). */
  async function serve(request: Request, asked: { server: string; route: string }): Promise<Response> {
    const { pathname } = new URL(request.url)
    if (options.control && pathname === options.control.path) return options.control.handle(request)
    if (pathname === FACILITATOR_RPC_PATH) asked.server = 'facilitator-rpc'
    if (request.method === 'GET' && pathname === '/health') return new Response('ok')
    if (request.method === 'OPTIONS')
      return new Response(null, {
        headers: {
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? 'content-type',
          'access-control-max-age': '86400',
        },
      })
    if (request.method !== 'POST')
      return new Response('Used HTTP Method is not allowed. POST or OPTIONS is required', { status: 405 })
    let body: unknown
    try {
      body = await request.json()
    } catch {
      return new Response(
        stringifyRpc({ jsonrpc: '2.0', id: null, error: { code: RPC_ERRORS.PARSE_ERROR, message: 'Parse error' } }),
        {
          headers: JSON_HEADERS,
        },
      )
    }
    const calls = (Array.isArray(body) ? body : [body]) as JsonRpcRequest[]
    asked.route = calls.map((call) => String(call?.method)).join(',')
    if (ctx.profile?.overLimit(calls.map((call) => String(call?.method))))
      return tooManyRequests(ctx.profile.throttledBody)
    if (faults) {
      faults.count('rpc')
      for (const call of calls) faults.count(`rpc:${String(call?.method)}`)
      // The facilitator reads the chain at its own path, so its reads can fail alone (faults.ts).
      const facilitator = pathname === FACILITATOR_RPC_PATH
      const fault = calls
        .map(
          (call) =>
            (facilitator ? faults.match('facilitator-rpc', String(call?.method)) : undefined) ??
            faults.match('rpc', String(call?.method)),
        )
        .find(Boolean)
      const wrongShape = calls.map((call) => ({
        jsonrpc: '2.0',
        id: call?.id ?? null,
        result: { unexpected: 'shape' },
      }))
      const injected = await faultResponse(fault, Array.isArray(body) ? wrongShape : wrongShape[0], faults.latencyMs)
      if (injected) return injected
    }
    const answer = Array.isArray(body)
      ? await Promise.all(body.map((item) => handleRpcRequest(ctx, item as JsonRpcRequest)))
      : await handleRpcRequest(ctx, body as JsonRpcRequest)
    return new Response(stringifyRpc(answer), { headers: JSON_HEADERS })
  }
  const subscriptions = new Subscriptions(ctx)
  const ws = Bun.serve<SocketData>({
    hostname: options.hostname,
    port: options.wsPort,
    fetch(request, server) {
      if (server.upgrade(request, { data: { subscriptions: new Map() } })) return undefined
      return new Response('WebSocket only', { status: 400 })
    },
    websocket: {
      message(socket, message) {
        subscriptions.handle(socket, String(message))
      },
      close(socket) {
        subscriptions.drop(socket)
      },
    },
  })
  const unregister = faults?.closesWebSockets((code, reason) => subscriptions.closeSockets(code, reason))
  return {
    url: `http://${options.hostname}:${http.port}`,
    wsUrl: `ws://${options.hostname}:${ws.port}`,
    async stop() {
      unregister?.()
      subscriptions.close()
      await Promise.all([http.stop(true), ws.stop(true)])
    },
  }
}

interface SocketData {
  /** subscription id → cancel function */
  subscriptions: Map<number, () => void>
}

/**
 * agave's answer to an unsubscribe of an id the connection does not hold (rpc/src/rpc_pubsub.rs
 * `unsubscribe`: `Error { code: InvalidParams, message: "Invalid subscription id." }`).
 */
const INVALID_SUBSCRIPTION_ID = 'Invalid subscription id.'
const SYSTEM_PROGRAM = '11111111111111111111111111111111'

/** Signature, slot, logs and account subscriptions over the chain's block, transaction and account events. */
class Subscriptions {
  #nextId = 1
  readonly #sockets = new Set<ServerWebSocket<SocketData>>()
  readonly chain: Chain

  constructor(private readonly ctx: RpcContext) {
    this.chain = ctx.chain
  }

  handle(socket: ServerWebSocket<SocketData>, text: string): void {
    this.#sockets.add(socket)
    let request: JsonRpcRequest
    try {
      request = JSON.parse(text)
    } catch {
      socket.send(
        stringifyRpc({ jsonrpc: '2.0', id: null, error: { code: RPC_ERRORS.PARSE_ERROR, message: 'Parse error' } }),
      )
      return
    }
    const id = request.id ?? null
    const params = Array.isArray(request.params) ? request.params : []
    const reply = (result: unknown): void => void socket.send(stringifyRpc({ jsonrpc: '2.0', id, result }))
    const fail = (code: number, message: string): void =>
      void socket.send(stringifyRpc({ jsonrpc: '2.0', id, error: { code, message } }))
    try {
      switch (request.method) {
        case 'signatureSubscribe':
          reply(this.#signature(socket, new Params(params, this.chain.slot).signature(0)))
          break
        case 'slotSubscribe':
          reply(this.#slot(socket))
          break
        case 'logsSubscribe': {
          const mentions = logsFilter(params[0])
          new Params(params, this.chain.slot).config(1)
          reply(this.#logs(socket, mentions))
          break
        }
        case 'accountSubscribe':
          reply(this.#account(socket, new Params(params, this.chain.slot)))
          break
        case 'signatureUnsubscribe':
        case 'logsUnsubscribe':
        case 'accountUnsubscribe':
        case 'slotUnsubscribe': {
          const id = new Params(params, this.chain.slot).u64(0)
          const cancel = socket.data.subscriptions.get(Number(id))
          if (cancel === undefined) throw new RpcError(RPC_ERRORS.INVALID_PARAMS, INVALID_SUBSCRIPTION_ID)
          cancel()
          socket.data.subscriptions.delete(Number(id))
          reply(true)
          break
        }
        default:
          fail(RPC_ERRORS.METHOD_NOT_FOUND, 'Method not found')
      }
    } catch (error) {
      if (error instanceof RpcError) fail(error.code, error.message)
      else fail(RPC_ERRORS.INTERNAL_ERROR, (error as Error).message)
    }
  }

  drop(socket: ServerWebSocket<SocketData>): void {
    for (const cancel of socket.data.subscriptions.values()) cancel()
    socket.data.subscriptions.clear()
    this.#sockets.delete(socket)
  }

  close(): void {
    for (const socket of this.#sockets) this.drop(socket)
  }

  /** Closes every open connection with `code` (a fault: sandbox/faults.ts `closeWebSockets`). */
  closeSockets(code: number, reason: string): number {
    const open = [...this.#sockets]
    for (const socket of open) {
      this.drop(socket)
      socket.close(code, reason)
    }
    return open.length
  }

  /** Notifies once, when the signature is processed (at once if it already is), then ends. */
  #signature(socket: ServerWebSocket<SocketData>, signature: string): number {
    const id = this.#nextId++
    const notify = (slot: bigint, err: unknown) => {
      socket.send(
        stringifyRpc({
          jsonrpc: '2.0',
          method: 'signatureNotification',
          params: { result: { context: { slot }, value: { err } }, subscription: id },
        }),
      )
      socket.data.subscriptions.get(id)?.()
      socket.data.subscriptions.delete(id)
    }
    const stored = this.chain.getTransaction(signature)
    if (stored) {
      socket.data.subscriptions.set(id, () => {})
      queueMicrotask(() => notify(stored.slot, stored.meta.err))
      return id
    }
    const cancel = this.chain.onTransaction((transaction) => {
      if (transaction.signature === signature) notify(transaction.slot, transaction.meta.err)
    })
    socket.data.subscriptions.set(id, cancel)
    return id
  }

  /** The log lines of every transaction processed from now on that the filter matches (`mentions`: its account keys). */
  #logs(socket: ServerWebSocket<SocketData>, mentions: string | null): number {
    const id = this.#nextId++
    const cancel = this.chain.onTransaction((transaction) => {
      if (mentions !== null && !transaction.accountKeys.includes(mentions)) return
      socket.send(
        stringifyRpc({
          jsonrpc: '2.0',
          method: 'logsNotification',
          params: {
            result: {
              context: { slot: transaction.slot },
              value: {
                signature: transaction.signature,
                err: transaction.meta.err,
                logs: transaction.meta.logMessages,
              },
            },
            subscription: id,
          },
        }),
      )
    })
    socket.data.subscriptions.set(id, cancel)
    return id
  }

  /**
   * Notifies the account's value (getAccountInfo's shape, in the encoding asked for) each time a
   * transaction or a direct write changes its lamports, owner or data, with the slot it changed in.
   * A closed account is notified as the validator does: no lamports, owned by the system program, no data.
   */
  #account(socket: ServerWebSocket<SocketData>, params: Params): number {
    const key = params.pubkey(0)
    const config = params.config(1)
    const encoding = config.string('encoding', ACCOUNT_ENCODINGS, 'binary')
    const dataSlice = config.dataSlice()
    const encode = (account: EncodedAccount) => encodeAccount(account, encoding, dataSlice, this.ctx.parse)
    const current = () => this.chain.getAccount(key) ?? closedAccount(key)
    // Refuses at once what it could never encode (base58 of more than 128 bytes), as getAccountInfo does.
    encode(current())
    const id = this.#nextId++
    let last = fingerprint(current())
    const check = (slot: bigint) => {
      const account = current()
      const seen = fingerprint(account)
      if (seen === last) return
      last = seen
      let value: unknown
      try {
        value = encode(account)
      } catch {
        return
      }
      socket.send(
        stringifyRpc({
          jsonrpc: '2.0',
          method: 'accountNotification',
          params: { result: { context: { slot }, value }, subscription: id },
        }),
      )
    }
    const offTransaction = this.chain.onTransaction((transaction) => {
      if (transaction.accountKeys.includes(key)) check(transaction.slot)
    })
    const offWrite = this.chain.onAccountSet((written) => {
      if (written === key) check(this.chain.slot)
    })
    socket.data.subscriptions.set(id, () => {
      offTransaction()
      offWrite()
    })
    return id
  }

  #slot(socket: ServerWebSocket<SocketData>): number {
    const id = this.#nextId++
    const cancel = this.chain.onBlock((block) => {
      socket.send(
        stringifyRpc({
          jsonrpc: '2.0',
          method: 'slotNotification',
          params: { result: { parent: block.parent, root: block.parent, slot: block.slot }, subscription: id },
        }),
      )
    })
    socket.data.subscriptions.set(id, cancel)
    return id
  }
}

function closedAccount(key: string): EncodedAccount {
  return {
    address: key as EncodedAccount['address'],
    data: new Uint8Array(0),
    executable: false,
    lamports: 0n as EncodedAccount['lamports'],
    programAddress: SYSTEM_PROGRAM as EncodedAccount['programAddress'],
    space: 0n,
  }
}

/** What an account notification reports: lamports, owner, executable and the data's bytes. */
function fingerprint(account: EncodedAccount): string {
  return `${account.lamports}:${account.programAddress}:${account.executable}:${Bun.hash(account.data as Uint8Array)}`
}

/**
 * The filter of a logsSubscribe: "all" (every non-vote transaction; the sandbox has no votes) or
 * `{mentions: [one address]}` — null for all, else the address. The validator takes one address only.
 */
function logsFilter(filter: unknown): string | null {
  if (filter === 'all' || filter === 'allWithVotes') return null
  const mentions = (filter as { mentions?: unknown } | null)?.mentions
  if (Array.isArray(mentions) && mentions.length === 1) return new Params(mentions, 0n).pubkey(0)
  throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid Request: Only 1 address supported')
}
