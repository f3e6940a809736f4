/**
 * The exit ready to sign a high or critical alert carries (issue 34 §4; docs/watch.md, "Exits ready to
 * sign"): built by the trade's `exitFor` for the holder the watch names, once, at detection — stored
 * with the event, so a redelivery sends the same one. Building it must never delay an alert for long nor
 * lose it: it is given `timeoutMs`, and a build that is late or fails gives the not-built answer with its
 * reason, with which the alert goes out at once.
 */
import type { AlertExit, ExitRequest } from '../trade/service.ts'

/** How long an alert waits for its exit before it goes out without one (UNAVAILABLE, EXIT_TIMEOUT). */
export const EXIT_BUILD_MS = 2_000

/** What builds an exit: the trade's `exitFor` bound to the service (the engine knows no context). */
export type ExitBuilder = (request: ExitRequest) => Promise<AlertExit>

/** The severities whose alerts carry an exit: the ones a holder acts on at once. */
export const EXIT_SEVERITIES: ReadonlySet<string> = new Set(['high', 'critical'])

/**
 * `build(request)` within `timeoutMs`, never a throw: a late build answers UNAVAILABLE (EXIT_TIMEOUT),
 * a failing one UNAVAILABLE (EXIT_FAILED), each saying the holder may ask POST /trade/quote. A late build
 * that finishes afterwards leaves only an unused trade job behind.
 */
export async function boundedExit(
  build: ExitBuilder,
  request: ExitRequest,
  timeoutMs = EXIT_BUILD_MS,
): Promise<AlertExit> {
  const notBuilt = (code: string, reason: string): AlertExit => ({
    status: 'UNAVAILABLE',
    code,
    reason: `${reason}: the alert went out without one; ask POST /trade/quote for an exit now`,
    job_id: null,
    exit_rating: null,
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<AlertExit>((resolve) => {
    timer = setTimeout(
      () => resolve(notBuilt('EXIT_TIMEOUT', `the exit was not built within ${timeoutMs} ms`)),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([
      build(request).catch((error: unknown) =>
        notBuilt('EXIT_FAILED', `the exit could not be built (${(error as Error).message})`),
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}
