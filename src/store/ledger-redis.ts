import type { Redis } from './redis.ts'
import { OPEN_STATES, RETRYABLE_STATES, type PaymentLedger, type PaymentRecord } from './ledger.ts'

/** Keys are namespaced so the ledger can share a Redis with other data. */
const PREFIX = 'solsentry:payment:'
/** The set of keys of payments left mid-way, for reconciliation. */
const OPEN = 'solsentry:payments:open'

// Each script runs atomically in Redis: a claim or a transition is one step, whichever instance sends it.
const CLAIM = `
local state = redis.call('HGET', KEYS[1], 'state')
if state and not string.find(ARGV[7], ',' .. state .. ',', 1, true) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'key', ARGV[1], 'state', 'verifying', 'network', ARGV[2], 'amount', ARGV[3], 'resource', ARGV[4], 'request_id', ARGV[5], 'created_at', ARGV[6], 'updated_at', ARGV[6])
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'evidence', ARGV[8]) end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'request_hash', ARGV[9]) end
redis.call('SADD', KEYS[2], ARGV[1])
return 1`
const TRANSITION = `
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'updated_at', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'payer', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'tx', ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[6]) end
if string.find(ARGV[8], ',' .. ARGV[2] .. ',', 1, true) then redis.call('SADD', KEYS[2], ARGV[7]) else redis.call('SREM', KEYS[2], ARGV[7]) end
return 1`

const toRecord = (hash: Record<string, string>): PaymentRecord => ({
  key: hash.key!,
  state: hash.state as PaymentRecord['state'],
  network: hash.network!,
  amount: hash.amount!,
  resource: hash.resource!,
  requestHash: hash.request_hash ?? null,
  requestId: hash.request_id!,
  payer: hash.payer ?? null,
  transaction: hash.tx ?? null,
  reason: hash.reason ?? null,
  evidence: hash.evidence ?? null,
  createdAt: Number(hash.created_at),
  updatedAt: Number(hash.updated_at),
})

/**
 * The payment ledger in Redis, for instances that share it (REDIS_URL): the same contract as the
 * SQLite ledger, each claim and transition one Lua script. Unlike the cache, a ledger that cannot be
 * reached is an error — a payment is never taken without its record.
 */
export function redisLedger(client: Redis): PaymentLedger {
  const retryable = `,${RETRYABLE_STATES.join(',')},`
  const open = `,${OPEN_STATES.join(',')},`
  const hash = async (key: string) => (await client.send('HGETALL', [PREFIX + key])) as Record<string, string> | null
  return {
    async claim(payment, nowMs = Date.now()) {
      const args = [
        payment.key,
        payment.network,
        payment.amount,
        payment.resource,
        payment.requestId,
        String(nowMs),
        retryable,
        payment.evidence ?? '',
        payment.requestHash ?? '',
      ]
      const won = await client.send('EVAL', [CLAIM, '2', PREFIX + payment.key, OPEN, ...args])
      if (won === 1) return { ok: true }
      return { ok: false, existing: toRecord((await hash(payment.key))!) }
    },
    async transition(key, from, to, fields = {}, nowMs = Date.now()) {
      const args = [
        from,
        to,
        String(nowMs),
        fields.payer ?? '',
        fields.transaction ?? '',
        fields.reason ?? '',
        key,
        open,
      ]
      return (await client.send('EVAL', [TRANSITION, '2', PREFIX + key, OPEN, ...args])) === 1
    },
    async get(key) {
      const found = await hash(key)
      return found && Object.keys(found).length > 0 ? toRecord(found) : undefined
    },
    async unresolved() {
      const keys = (await client.send('SMEMBERS', [OPEN])) as string[]
      const records = await Promise.all(keys.map(async (key) => (await this.get(key))!))
      return records.filter(Boolean).sort((a, b) => a.createdAt - b.createdAt)
    },
  }
}
