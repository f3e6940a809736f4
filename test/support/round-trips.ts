import type { RunningSandbox } from '../../sandbox/index.ts'
import { criticalPath, type UpstreamCall } from '../../sandbox/call-log.ts'
import { scanRequest } from './service.ts'

/** The upstream servers a scanner reads (the sandbox's stand-ins for Solana RPC, DexScreener and Jupiter). */
const SCANNER_UPSTREAMS: ReadonlySet<string> = new Set(['rpc', 'dexscreener', 'jupiter'])

/** A scan through the HTTP route and what it asked upstream: every call, and the critical path's chain. */
export interface TracedScan {
  status: number
  body: any
  calls: UpstreamCall[]
  path: UpstreamCall[]
}

/**
 * POSTs `{token_address: mint}` to `route` on `app` while the sandbox records every upstream request
 * (sandbox/call-log.ts), alone: nothing else should call the sandbox meanwhile. The critical path's
 * length is the scan's dependent round trips, read with the sandbox's latency (set `faults.latencyMs`).
 */
export async function tracedScan(
  sandbox: Pick<RunningSandbox, 'faults'>,
  app: { handle(request: Request): Promise<Response> },
  route: string,
  mint: string,
): Promise<TracedScan> {
  const recording = sandbox.faults.recordCalls()
  let response: Response
  let body: unknown
  try {
    response = await app.handle(scanRequest(route, { token_address: mint }))
    body = await response.json()
  } finally {
    recording.stop()
  }
  const calls = recording.calls.filter((call) => SCANNER_UPSTREAMS.has(call.server))
  return { status: response.status, body, calls, path: criticalPath(calls) }
}
