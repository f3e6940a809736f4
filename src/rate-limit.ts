import type { Config } from './config.ts'

/** A token bucket: holds up to `capacity` tokens and gains `refillPerSecond` tokens each second. */
export interface BucketShape {
  capacity: number
  refillPerSecond: number
}

/** A bucket's stored state. */
export interface BucketState {
  tokens: number
  updatedMs: number
}

export interface TakeResult {
  allowed: boolean
  /** Whole tokens left after this take. */
  remaining: number
  /** Seconds until one token is available again (0 when allowed). */
  retryAfterS: number
}

/** Named limit classes a route can opt into through its manifest (`rateLimit: 'scanner'`). */
export type RateLimitClass = 'scanner'

/** The bucket shape of each limit class, from config. */
export function rateLimitShapes(config: Config): Record<RateLimitClass, BucketShape> {
  return {
    scanner: {
      capacity: config.RATE_LIMIT_SCANNER_BURST,
      refillPerSecond: config.RATE_LIMIT_SCANNER_PER_MINUTE / 60,
    },
  }
}

/**
 * Refills a bucket for the time elapsed since it was last touched, then tries to take one token.
 * Pure, so every store (SQLite, Redis script, tests) shares one definition of the arithmetic.
 */
export function takeFromBucket(
  state: BucketState | undefined,
  shape: BucketShape,
  nowMs: number,
): { next: BucketState; result: TakeResult } {
  const elapsedS = state ? Math.max(0, nowMs - state.updatedMs) / 1000 : 0
  const available = state ? Math.min(shape.capacity, state.tokens + elapsedS * shape.refillPerSecond) : shape.capacity
  if (available >= 1) {
    const tokens = available - 1
    return {
      next: { tokens, updatedMs: nowMs },
      result: { allowed: true, remaining: Math.floor(tokens), retryAfterS: 0 },
    }
  }
  return {
    next: { tokens: available, updatedMs: nowMs },
    result: { allowed: false, remaining: 0, retryAfterS: Math.ceil((1 - available) / shape.refillPerSecond) },
  }
}

/** How long an idle bucket takes to fill up again; after that its row carries no information. */
export function idleExpiryMs(shape: BucketShape): number {
  return Math.ceil((shape.capacity / shape.refillPerSecond) * 1000)
}
