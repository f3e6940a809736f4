import type { Redis } from './redis.ts'
import type { JobStore } from './jobs.ts'

const PREFIX = 'solsentry:job:'
/** The job that owns each transaction signature (set once, never moved). */
const TRANSACTION_PREFIX = 'solsentry:job-transaction:'

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'job', ARGV[2], 'updated_at', ARGV[3])
return 1`

// A transition is one Lua script: the status guard and the write happen together, whichever instance sends it.
const TRANSITION = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status or not string.find(ARGV[1], ',' .. status .. ',', 1, true) then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'job', ARGV[3], 'updated_at', ARGV[4])
return 1`

/** Trade jobs in Redis (REDIS_URL): a hash per job (status, job JSON, updated_at). */
export function redisJobs(client: Redis): JobStore {
  return {
    async create(id, status, job, nowMs = Date.now()) {
      return (await client.send('EVAL', [CREATE, '1', PREFIX + id, status, JSON.stringify(job), String(nowMs)])) === 1
    },
    async transition(id, from, status, job, nowMs = Date.now()) {
      const allowed = `,${from.join(',')},`
      return (
        (await client.send('EVAL', [
          TRANSITION,
          '1',
          PREFIX + id,
          allowed,
          status,
          JSON.stringify(job),
          String(nowMs),
        ])) === 1
      )
    },
    async claimTransaction(signature, jobId) {
      const key = TRANSACTION_PREFIX + signature
      await client.send('SET', [key, jobId, 'NX'])
      return (await client.send('GET', [key])) as string
    },
    async get(id) {
      const hash = (await client.send('HGETALL', [PREFIX + id])) as Record<string, string> | null
      if (!hash || hash.status === undefined || hash.job === undefined) return undefined
      return { id, status: hash.status, job: JSON.parse(hash.job), updatedAt: Number(hash.updated_at) }
    },
  }
}
