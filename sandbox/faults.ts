/**
 * Fault injection for the sandbox's servers, so the service's degradation is tested over real HTTP:
 * per server and route (a JSON-RPC method, or a path prefix of the DexScreener/Jupiter stand-ins).
 * Set programmatically (tests) or with SANDBOX_FAULTS, a JSON object such as
 * `{"rpc:getTokenLargestAccounts": {"kind": "slow", "delayMs": 8000}, "dexscreener:/token-pairs": {"kind": "rate_limited"}}`.
 *
 * The facilitator's own reads of the chains are `facilitator-rpc:<JSON-RPC method>` (Solana and the
 * EVM chain alike): `{"facilitator-rpc:getSignatureStatuses": {"kind": "server_error"}}` makes it send a
 * settlement it then cannot confirm, as a hosted facilitator whose RPC fails answers
 * (`settlement_pending` with the transaction). `{"facilitator:/settle": {"kind": "settlement_pending"}}`
 * settles for real and answers `settlement_pending` (its confirmation timed out).
 *
 * `drop_members` answers normally, less the named top-level members of a JSON object answer: an
 * upstream that leaves out a member its schema lists (or listed only later), e.g.
 * `{"jupiter:/swap/v2/build": {"kind": "drop_members", "members": ["priceImpactPct"]}}`.
 */
export type FaultKind =
  | 'down'
  | 'slow'
  | 'rate_limited'
  | 'server_error'
  | 'malformed_json'
  | 'wrong_shape'
  /** Facilitator `/settle` only: the transfer is sent and lands, the answer says `settlement_pending`. */
  | 'settlement_pending'
  /** The normal answer without `members` (HTTP stand-ins: top-level members of a JSON object). */
  | 'drop_members'
  /** 401: a host that wants an API key the request did not carry, or refuses the one it did. */
  | 'unauthorized'
  /** 404: a host that does not serve the route (an API version it has not deployed). */
  | 'not_found'

export interface Fault {
  kind: FaultKind
  /** For `slow`: how long to wait before answering normally. */
  delayMs?: number
  /** For `drop_members`: the members left out of the answer. */
  members?: string[]
}

import type { CallRecording, UpstreamCall } from './call-log.ts'

const SERVERS = ['rpc', 'dexscreener', 'jupiter', 'lifi', 'facilitator', 'facilitator-rpc', 'news', 'model'] as const
export type SandboxServer = (typeof SERVERS)[number]

const KINDS: readonly FaultKind[] = [
  'down',
  'slow',
  'rate_limited',
  'server_error',
  'malformed_json',
  'wrong_shape',
  'settlement_pending',
  'drop_members',
  'unauthorized',
  'not_found',
]

/** Faults by `server:route`, and counts of the requests each server received. */
export class FaultPlan {
  readonly #faults = new Map<string, Fault>()
  /** Requests received per server (HTTP requests; for the RPC also per method). */
  readonly requests = new Map<string, number>()
  /** Added to every answer of every server, to stand in for mainnet round-trip times (benches). */
  latencyMs = 0
  readonly #recordings = new Set<UpstreamCall[]>()
  /** How the RPC's WebSocket server closes its open connections (registered by sandbox/rpc/server.ts). */
  readonly #socketClosers = new Set<(code: number, reason: string) => number>()

  static fromEnv(value: string | undefined): FaultPlan {
    const plan = new FaultPlan()
    if (!value) return plan
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new Error(
        'SANDBOX_FAULTS: not JSON (expected {"rpc:<method>" | "dexscreener:<path prefix>" | "jupiter:<path prefix>": {"kind": ...}})',
      )
    }
    for (const [key, fault] of Object.entries(parsed as Record<string, Fault>)) {
      const [server, route] = key.split(/:(.*)/s) as [string, string | undefined]
      if (!SERVERS.includes(server as SandboxServer) || !route) throw new Error(`SANDBOX_FAULTS: bad key "${key}"`)
      if (!KINDS.includes(fault?.kind))
        throw new Error(`SANDBOX_FAULTS: "${key}" needs a kind among ${KINDS.join(', ')}`)
      if (
        fault.kind === 'drop_members' &&
        !(Array.isArray(fault.members) && fault.members.length > 0 && fault.members.every((m) => typeof m === 'string'))
      )
        throw new Error(`SANDBOX_FAULTS: "${key}" (drop_members) needs "members": a list of member names`)
      plan.set(server as SandboxServer, route, fault)
    }
    return plan
  }

  set(server: SandboxServer, route: string, fault: Fault): void {
    this.#faults.set(`${server}:${route}`, fault)
  }

  clear(): void {
    this.#faults.clear()
  }

  /** The fault for a JSON-RPC method (exact) or a path (longest matching prefix). */
  match(server: SandboxServer, route: string): Fault | undefined {
    const exact = this.#faults.get(`${server}:${route}`)
    if (exact) return exact
    let best: { length: number; fault: Fault } | undefined
    for (const [key, fault] of this.#faults) {
      const prefix = key.slice(server.length + 1)
      if (key.startsWith(`${server}:/`) && route.startsWith(prefix) && (!best || prefix.length > best.length))
        best = { length: prefix.length, fault }
    }
    return best?.fault
  }

  count(key: string): void {
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1)
  }

  countOf(key: string): number {
    return this.requests.get(key) ?? 0
  }

  /**
   * Records every request the servers receive from now on, with when it arrived and was answered,
   * until `stop()`: the call graph a client's round trips are counted from (sandbox/call-log.ts).
   */
  recordCalls(): CallRecording {
    const calls: UpstreamCall[] = []
    this.#recordings.add(calls)
    return {
      calls,
      stop: () => {
        this.#recordings.delete(calls)
        return calls
      },
    }
  }

  /**
   * Closes every open WebSocket connection of the RPC with `code` — by default 1000, a clean close, as a
   * provider rotating its nodes does (which @solana/kit's subscriptions do not notice by themselves:
   * src/sources/live-subscriptions.ts). New connections are served as before. Answers how many were closed.
   */
  closeWebSockets(code = 1000, reason = 'sandbox: connection closed'): number {
    let closed = 0
    for (const close of this.#socketClosers) closed += close(code, reason)
    return closed
  }

  /** The RPC server registers how to close its connections; the answer unregisters it. */
  closesWebSockets(close: (code: number, reason: string) => number): () => void {
    this.#socketClosers.add(close)
    return () => this.#socketClosers.delete(close)
  }

  /** A request a server answered (kept by every open recording). */
  answered(server: string, route: string, receivedAt: number): void {
    if (this.#recordings.size === 0) return
    const call = { server, route, receivedAt, answeredAt: performance.now() }
    for (const calls of this.#recordings) calls.push(call)
  }
}

/**
 * The answer a fault gives instead of the real one, or undefined to answer normally (after the delay
 * of a `slow` fault). `wrongShape` is a valid JSON body of the wrong shape for that server.
 */
export async function faultResponse(
  fault: Fault | undefined,
  wrongShape: unknown,
  latencyMs = 0,
): Promise<Response | undefined> {
  if (latencyMs > 0) await Bun.sleep(latencyMs)
  if (!fault) return undefined
  switch (fault.kind) {
    case 'down':
      // What a dead upstream behind a load balancer answers; a closed port is tested separately.
      return new Response('no healthy upstream', { status: 503 })
    case 'slow':
      await Bun.sleep(fault.delayMs ?? 10_000)
      return undefined
    case 'rate_limited':
      return new Response(JSON.stringify({ error: 'rate limited' }), {
        status: 429,
        headers: { 'retry-after': '1', 'content-type': 'application/json' },
      })
    case 'server_error':
      return new Response(JSON.stringify({ error: 'internal error' }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      })
    case 'malformed_json':
      return new Response('{"jsonrpc":"2.0","result":{"value":[', { headers: { 'content-type': 'application/json' } })
    case 'wrong_shape':
      return new Response(JSON.stringify(wrongShape), { headers: { 'content-type': 'application/json' } })
    case 'settlement_pending':
      // Answered by the facilitator itself, after it settled (sandbox/facilitator/index.ts).
      return undefined
    case 'drop_members':
      // The normal answer, trimmed after it is made (withoutMembers).
      return undefined
    case 'unauthorized':
      return new Response(JSON.stringify({ error: 'Unauthorized' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      })
    case 'not_found':
      return new Response(JSON.stringify({ error: 'Not Found' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      })
  }
}

/**
 * `answer` less the members a `drop_members` fault names, when it is a JSON object (anything else,
 * refusals included, is left as it is); otherwise `answer` itself.
 */
export async function withoutMembers(fault: Fault | undefined, answer: Response): Promise<Response> {
  if (fault?.kind !== 'drop_members' || !answer.ok) return answer
  const body = (await answer
    .clone()
    .json()
    .catch(() => undefined)) as unknown
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return answer
  const kept = Object.fromEntries(Object.entries(body).filter(([member]) => !fault.members?.includes(member)))
  const headers = new Headers(answer.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(kept), { status: answer.status, headers })
}
