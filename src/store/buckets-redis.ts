import type { Redis } from './redis.ts'
import { idleExpiryMs, MemoryBuckets, type BucketShape, type TakeResult } from './token-buckets.ts'

const PREFIX = 'solsentry:bucket:'
/** A limiter must never hold a request up for long: past this, the request goes through. */
const TAKE_TIMEOUT_MS = 100

// `takeFromBucket` (src/http/rate-limit.ts) in Lua, so a take is one atomic step whichever instance sends
// it; src/store/buckets.test.ts runs both over the same sequences to keep them the same arithmetic.
const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = capacity
if state[1] then
  local elapsed = math.max(0, now - tonumber(state[2])) / 1000
  tokens = math.min(capacity, tonumber(state[1]) + elapsed * rate)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'updated', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {allowed, string.format('%.17g', tokens)}`

/**
 * Token buckets in Redis (REDIS_URL), shared by every instance, so a client's limit holds across
 * them. While Redis is slow or unreachable (the store's health then reads down, see `redisPing`), each
 * instance holds clients to the limit with its own buckets in memory: rate limiting neither takes the
 * service down with it nor lapses; once Redis answers, the shared buckets count again.
 */
export function redisBuckets(client: Redis) {
  const local = new MemoryBuckets()
  return {
    async take(key: string, shape: BucketShape, nowMs = Date.now()): Promise<TakeResult> {
      try {
        const answer = (await client.send(
          'EVAL',
          [
            TAKE,
            '1',
            PREFIX + key,
            String(shape.capacity),
            String(shape.refillPerSecond),
            String(Math.floor(nowMs)),
            String(idleExpiryMs(shape)),
          ],
          TAKE_TIMEOUT_MS,
        )) as [number, string]
        const tokens = Number(answer[1])
        if (answer[0] === 1) return { allowed: true, remaining: Math.floor(tokens), retryAfterS: 0 }
        return { allowed: false, remaining: 0, retryAfterS: Math.ceil((1 - tokens) / shape.refillPerSecond) }
      } catch {
        return local.take(key, shape, nowMs)
      }
    },
  }
}
