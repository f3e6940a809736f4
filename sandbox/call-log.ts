/**
 * What a client asked of the sandbox's servers and when, to count its dependent round trips from the
 * call graph rather than from a stopwatch: every HTTP request a server receives while a recording is
 * open (FaultPlan.recordCalls) is kept with the time it arrived and the time it was answered, and the
 * critical path is the longest chain of requests each of which arrived after the previous one was
 * answered. Requests that overlap in time count once, however many there are.
 *
 * Read it with a latency added to every answer (FaultPlan.latencyMs): then the calls a client sends
 * together overlap by that much, and only a call that waited for an answer starts after it. The count
 * is exact as long as the client's own work between two calls of one round stays under the latency.
 */

/** One HTTP request a sandbox server received. Times are `performance.now()` milliseconds. */
export interface UpstreamCall {
  /** The server: `rpc`, `dexscreener`, `jupiter`, … (the fault plan's names). */
  server: string
  /** What was asked: the path of a stand-in, the JSON-RPC method(s) of the RPC's request (a batch's joined by `,`). */
  route: string
  receivedAt: number
  answeredAt: number
}

/** An open recording: the calls received since it opened; `stop()` closes it and returns them. */
export interface CallRecording {
  readonly calls: readonly UpstreamCall[]
  stop(): UpstreamCall[]
}

/**
 * The critical path of `calls`: the longest chain in which each call arrived after the previous one was
 * answered (a client waited for it), oldest first. Its length is the dependent round trips.
 */
export function criticalPath(calls: readonly UpstreamCall[]): UpstreamCall[] {
  const sorted = [...calls].sort((a, b) => a.receivedAt - b.receivedAt)
  const length: number[] = []
  const previous: (number | undefined)[] = []
  sorted.forEach((call, index) => {
    let best = 0
    let from: number | undefined
    for (let before = 0; before < index; before++)
      if (sorted[before]!.answeredAt <= call.receivedAt && length[before]! > best) {
        best = length[before]!
        from = before
      }
    length.push(best + 1)
    previous.push(from)
  })
  let end = length.indexOf(Math.max(0, ...length))
  const chain: UpstreamCall[] = []
  while (end >= 0 && end < sorted.length) {
    chain.unshift(sorted[end]!)
    const next = previous[end]
    if (next === undefined) break
    end = next
  }
  return chain
}

/** The chain as one line: `rpc getAccountInfo,getMultipleAccounts → dexscreener /token-pairs/… → …`. */
export function describePath(chain: readonly UpstreamCall[]): string {
  return chain.map((call) => `${call.server} ${call.route}`).join(' → ')
}
