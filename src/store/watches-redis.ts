/**
 * Watches and their events in Redis (REDIS_URL): the same store as the SQLite one (src/store/watches.ts),
 * shared by every instance. Keys: `solsentry:watch:<id>` (a hash: state, record), `solsentry:watches:active`
 * (the ids of active watches), and per watch `solsentry:watch-seq:<id>` (the last place given),
 * `solsentry:watch-ids:<id>` (event id → place: what makes an event kept once), `solsentry:watch-events:<id>`
 * (place → event id, time and event JSON) and `solsentry:watch-deliveries:<id>` (place → delivery JSON);
 * `solsentry:watches:pending` holds the watches with a delivery pending, `solsentry:watch-snapshot:<subject>`
 * the latest snapshot of a watched subject. Appends and attempts are Lua
 * scripts: the duplicate check and the write, or the state guard and the move, happen together whichever
 * instance sends them.
 */
import type { Redis } from './redis.ts'
import type { AttemptOutcome, StoredWatchEvent, WatchRecord, WatchState, WatchStore } from './watches.ts'

const WATCH = 'solsentry:watch:'
const ACTIVE = 'solsentry:watches:active'
const PENDING = 'solsentry:watches:pending'
const SNAPSHOT = 'solsentry:watch-snapshot:'
const keysOf = (watchId: string) => ({
  seq: `solsentry:watch-seq:${watchId}`,
  ids: `solsentry:watch-ids:${watchId}`,
  events: `solsentry:watch-events:${watchId}`,
  deliveries: `solsentry:watch-deliveries:${watchId}`,
})

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'record', ARGV[2])
if ARGV[1] == 'active' then redis.call('SADD', KEYS[2], ARGV[3]) end
return 1`

const SET_STATE = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state or not string.find(ARGV[1], ',' .. state .. ',', 1, true) then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
if ARGV[2] == 'active' then redis.call('SADD', KEYS[2], ARGV[3]) else redis.call('SREM', KEYS[2], ARGV[3]) end
return 1`

// KEYS: ids, seq, events, deliveries, pending; ARGV: event id, event text, delivery JSON, deliver ('1'), watch id.
const APPEND = `
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then return {tonumber(found), 0} end
local seq = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], seq)
redis.call('HSET', KEYS[3], seq, ARGV[2])
redis.call('HSET', KEYS[4], seq, ARGV[3])
if ARGV[4] == '1' then redis.call('SADD', KEYS[5], ARGV[5]) end
return {seq, 1}`

// KEYS: deliveries, pending; ARGV: place, outcome, error, time (next attempt or delivery), watch id.
const ATTEMPT = `
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then return 0 end
local delivery = cjson.decode(text)
if delivery.state ~= 'pending' then return 0 end
delivery.attempts = delivery.attempts + 1
if ARGV[2] == 'delivered' then
  delivery.state = 'delivered'
  delivery.next = cjson.null
  delivery.deliveredAt = tonumber(ARGV[4])
elseif ARGV[2] == 'retry' then
  delivery.next = tonumber(ARGV[4])
  delivery.error = ARGV[3]
else
  delivery.state = 'dead'
  delivery.next = cjson.null
  delivery.error = ARGV[3]
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(delivery))
if delivery.state ~= 'pending' then
  local pending = false
  for _, value in ipairs(redis.call('HVALS', KEYS[1])) do
    if string.find(value, '"state":"pending"', 1, true) then pending = true break end
  end
  if not pending then redis.call('SREM', KEYS[2], ARGV[5]) end
end
return 1`

interface DeliveryJson {
  state: StoredWatchEvent['delivery']['state']
  attempts: number
  next: number | null
  error: string | null
  deliveredAt: number | null
}

/** An event kept as `<event id>\n<created at>\n<event JSON>` (the id and time never hold a newline). */
const eventText = (eventId: string, createdAt: number, event: unknown) =>
  `${eventId}\n${createdAt}\n${JSON.stringify(event)}`

function storedOf<T>(watchId: string, seq: number, text: string, delivery: DeliveryJson): StoredWatchEvent<T> {
  const first = text.indexOf('\n')
  const second = text.indexOf('\n', first + 1)
  return {
    watchId,
    seq,
    eventId: text.slice(0, first),
    createdAt: Number(text.slice(first + 1, second)),
    event: JSON.parse(text.slice(second + 1)) as T,
    delivery: {
      state: delivery.state,
      attempts: delivery.attempts,
      nextAttemptAt: delivery.next ?? null,
      lastError: delivery.error ?? null,
      deliveredAt: delivery.deliveredAt ?? null,
    },
  }
}

export function redisWatches(client: Redis): WatchStore {
  const send = (command: string, args: string[]) => client.send(command, args)
  const hash = async (key: string) => ((await send('HGETALL', [key])) as Record<string, string> | null) ?? {}
  const recordOf = (fields: Record<string, string>): WatchRecord | undefined =>
    fields.record === undefined
      ? undefined
      : { ...(JSON.parse(fields.record) as WatchRecord), state: fields.state as WatchState }

  /** The watch's deliveries by place, in order. */
  const deliveries = async (watchId: string) =>
    Object.entries(await hash(keysOf(watchId).deliveries))
      .map(([seq, text]) => [Number(seq), JSON.parse(text) as DeliveryJson] as const)
      .sort((a, b) => a[0] - b[0])

  return {
    async saveSnapshot(subject, snapshot) {
      await send('SET', [SNAPSHOT + subject, snapshot])
    },
    async snapshot(subject) {
      return ((await send('GET', [SNAPSHOT + subject])) as string | null) ?? undefined
    },
    async create(watch) {
      const { state, ...rest } = watch
      return (await send('EVAL', [CREATE, '2', WATCH + watch.id, ACTIVE, state, JSON.stringify(rest), watch.id])) === 1
    },
    async get(id) {
      return recordOf(await hash(WATCH + id))
    },
    async setState(id, from, to) {
      return (await send('EVAL', [SET_STATE, '2', WATCH + id, ACTIVE, `,${from.join(',')},`, to, id])) === 1
    },
    async active() {
      const ids = ((await send('SMEMBERS', [ACTIVE])) as string[]).sort()
      const records = await Promise.all(ids.map(async (id) => recordOf(await hash(WATCH + id))))
      return records
        .filter((record): record is WatchRecord => record?.state === 'active')
        .sort((a, b) => a.createdAt - b.createdAt)
    },
    async append(watchId, eventId, event, { deliver, nowMs = Date.now() }) {
      const keys = keysOf(watchId)
      const delivery: DeliveryJson = {
        state: deliver ? 'pending' : 'none',
        attempts: 0,
        next: deliver ? nowMs : null,
        error: null,
        deliveredAt: null,
      }
      const [seq, fresh] = (await send('EVAL', [
        APPEND,
        '5',
        keys.ids,
        keys.seq,
        keys.events,
        keys.deliveries,
        PENDING,
        eventId,
        eventText(eventId, nowMs, event),
        JSON.stringify(delivery),
        deliver ? '1' : '0',
        watchId,
      ])) as [number, number]
      return { seq: Number(seq), fresh: Number(fresh) === 1 }
    },
    async events<T>(watchId: string, { afterSeq = 0, limit = 1_000 } = {}) {
      const places = (await deliveries(watchId)).filter(([seq]) => seq > afterSeq).slice(0, limit)
      if (places.length === 0) return []
      const texts = (await send('HMGET', [keysOf(watchId).events, ...places.map(([seq]) => String(seq))])) as (
        | string
        | null
      )[]
      return places.flatMap(([seq, delivery], index) => {
        const text = texts[index]
        return text ? [storedOf<T>(watchId, seq, text, delivery)] : []
      })
    },
    async nextPending<T>(watchId: string) {
      const next = (await deliveries(watchId)).find(([, delivery]) => delivery.state === 'pending')
      if (!next) return undefined
      const text = (await send('HGET', [keysOf(watchId).events, String(next[0])])) as string | null
      return text ? storedOf<T>(watchId, next[0], text, next[1]) : undefined
    },
    async recordAttempt(watchId, seq, attempt: AttemptOutcome, nowMs = Date.now()) {
      const time = attempt.outcome === 'retry' ? attempt.nextAttemptAt : nowMs
      const error = attempt.outcome === 'delivered' ? '' : attempt.error
      return (
        (await send('EVAL', [
          ATTEMPT,
          '2',
          keysOf(watchId).deliveries,
          PENDING,
          String(seq),
          attempt.outcome,
          error,
          String(time),
          watchId,
        ])) === 1
      )
    },
    async pendingWatches() {
      return ((await send('SMEMBERS', [PENDING])) as string[]).sort()
    },
  }
}
