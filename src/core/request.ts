import type { ServiceContext } from '../context.ts'

/** The origin callers reach the service at: PUBLIC_URL when set (required on mainnet), else the request's. */
export function publicOrigin(ctx: ServiceContext, request: Request): string {
  return ctx.config.PUBLIC_URL ?? new URL(request.url).origin
}

/** The request id the core assigned to this request (echoed in `x-request-id`). */
export function requestIdOf(set: { headers: Record<string, string | number> }): string {
  return String(set.headers['x-request-id'] ?? '')
}

const arrivals = new WeakMap<Request, number>()

/** Records when a request arrived (the core does, first thing). */
export function markArrival(request: Request, atMs = Date.now()): void {
  arrivals.set(request, atMs)
}

/**
 * When the request arrived (epoch ms): a route's deadline runs from here, so the time spent before its
 * handler (verifying the payment) is the route's too. Now, for a request the core did not see.
 */
export function arrivalOf(request: Request): number {
  return arrivals.get(request) ?? Date.now()
}
