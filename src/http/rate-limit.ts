import type { Config } from '../kernel/config.ts'
import type { RateLimitClass } from '../kernel/manifest.ts'
import type { BucketShape } from '../store/token-buckets.ts'

/** The bucket shape of each limit class, from config. */
export function rateLimitShapes(config: Config): Record<RateLimitClass, BucketShape> {
  return {
    scanner: {
      capacity: config.RATE_LIMIT_SCANNER_BURST,
      refillPerSecond: config.RATE_LIMIT_SCANNER_PER_MINUTE / 60,
    },
  }
}
