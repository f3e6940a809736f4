import { afterAll, describe, expect, test } from 'bun:test'
import { Attestor } from '../../src/attest/attestation.ts'
import { openSqliteStore } from '../../src/store/sqlite.ts'
import type { WatchRecord } from '../../src/store/watches.ts'
import { WatchEventBus } from './event-bus.ts'
import type { WatchEvent } from './watch-events.ts'
import { WebhookDelivery } from './webhook-delivery.ts'
import { signWebhook, verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature.ts'

const attestor = new Attestor(crypto.getRandomValues(new Uint8Array(32)))

/** What the receiver got: each attempt's event id, body and signature header. */
interface Received {
  eventId: string
  body: string
  signature: string | null
  watchId: string | null
}

/**
 * A real receiver on a free port. `plan(eventId, nth)` says how to answer the nth attempt (from 1) at an
 * event: a status, or `slow` (answers 200 after the sender has given up).
 */
function receiver(plan: (eventId: string, nth: number) => number | 'slow') {
  const received: Received[] = []
  const attempts = new Map<string, number>()
  const server = Bun.serve({
    port: 0,
    async fetch(request) {
      const body = await request.text()
      const eventId = request.headers.get('x-solsentry-event-id') ?? ''
      received.push({
        eventId,
        body,
        signature: request.headers.get(WEBHOOK_SIGNATURE_HEADER),
        watchId: request.headers.get('x-solsentry-watch-id'),
      })
      const nth = (attempts.get(eventId) ?? 0) + 1
      attempts.set(eventId, nth)
      const answer = plan(eventId, nth)
      if (answer === 'slow') {
        await Bun.sleep(1_000)
        return new Response('late')
      }
      return new Response(null, { status: answer })
    },
  })
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) }
}

const receivers: { stop(): unknown }[] = []
afterAll(() => {
  for (const entry of receivers) entry.stop()
})

let unique = 0
async function setUp(plan: (eventId: string, nth: number) => number | 'slow', url?: string) {
  const hook = receiver(plan)
  receivers.push(hook)
  const store = openSqliteStore(':memory:')
  const watchId = `w${++unique}`
  const watch: WatchRecord = {
    id: watchId,
    subject: { kind: 'token', address: 'Mint111111111111111111111111111111111111111' },
    events: ['mint_used'],
    thresholds: {},
    webhookUrl: url ?? hook.url,
    exit: null,
    payer: 'payer',
    paidFrom: 0,
    paidUntil: Date.now() + 3_600_000,
    state: 'active',
    createdAt: Date.now(),
  }
  await store.watches.create(watch)
  const delivery = new WebhookDelivery({
    store: store.watches,
    attestor,
    maxAttempts: 4,
    baseDelayMs: 4,
    maxDelayMs: 20,
    timeoutMs: 100,
  })
  const add = async (eventId: string) => {
    const event: WatchEvent = {
      event_id: eventId,
      watch_id: watchId,
      kind: 'mint_used',
      severity: 'critical',
      subject: watch.subject,
      slot: 1,
      signature: null,
      before: { supply: '1' },
      after: { supply: '2' },
      sentence: 'minted',
      detected_at: new Date().toISOString(),
    }
    await store.watches.append(watchId, eventId, event, { deliver: true })
    delivery.kick(watchId)
  }
  return { hook, store, watchId, delivery, add }
}

describe('webhook delivery against a real receiver', () => {
  test('a receiver failing twice gets the event a third time; each attempt is signed, the signature checks with kit alone', async () => {
    const { hook, store, watchId, delivery, add } = await setUp((_, nth) => (nth <= 2 ? 503 : 200))
    await add('e1')
    await delivery.idle()
    expect(hook.received.map((entry) => entry.eventId)).toEqual(['e1', 'e1', 'e1'])
    const [event] = await store.watches.events(watchId)
    expect(event!.delivery).toMatchObject({ state: 'delivered', attempts: 3, lastError: 'HTTP 503' })
    const last = hook.received.at(-1)!
    expect(last.watchId).toBe(watchId)
    const check = (overrides: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      verifyWebhook({ header: last.signature, watchId, body: last.body, publicKey: attestor.publicKey, ...overrides })
    expect(await check({})).toBe(true)
    expect(await check({ body: last.body.replace('minted', 'nothing') })).toBe(false)
    expect(await check({ watchId: 'another-watch' })).toBe(false)
    expect(await check({ publicKey: new Attestor(new Uint8Array(32).fill(7)).publicKey })).toBe(false)
    expect(await check({ header: null })).toBe(false)
    // Stale: ten minutes later, out of the default five minutes' tolerance.
    expect(await check({ nowS: Math.floor(Date.now() / 1000) + 600 })).toBe(false)
    expect(
      await verifyWebhook({
        header: signWebhook(attestor, watchId, '{}', 1_000),
        watchId,
        body: '{}',
        publicKey: attestor.publicKey,
        nowS: 1_010,
      }),
    ).toBe(true)
  })

  test('ordered per watch: the second event waits until the first is delivered', async () => {
    const { hook, delivery, add } = await setUp((eventId, nth) => (eventId === 'a' && nth <= 2 ? 500 : 200))
    await add('a')
    await add('b')
    await add('c')
    await delivery.idle()
    expect(hook.received.map((entry) => entry.eventId)).toEqual(['a', 'a', 'a', 'b', 'c'])
  })

  test('a receiver that always fails: dead-lettered after the attempts, with the last error; the next event goes on', async () => {
    const { hook, store, watchId, delivery, add } = await setUp((eventId) => (eventId === 'bad' ? 500 : 200))
    await add('bad')
    await add('good')
    await delivery.idle()
    expect(hook.received.map((entry) => entry.eventId)).toEqual(['bad', 'bad', 'bad', 'bad', 'good'])
    const [bad, good] = await store.watches.events(watchId)
    expect(bad!.delivery).toMatchObject({ state: 'dead', attempts: 4, lastError: 'HTTP 500' })
    expect(good!.delivery.state).toBe('delivered')
    expect(delivery.counts).toMatchObject({ delivered: 1, dead: 1, retried: 3 })
  })

  test('410 Gone dead-letters at once; a slow receiver is retried; a refused connection ends dead-lettered', async () => {
    const gone = await setUp(() => 410)
    await gone.add('g')
    await gone.delivery.idle()
    expect(gone.hook.received).toHaveLength(1)
    expect((await gone.store.watches.events(gone.watchId))[0]!.delivery).toMatchObject({ state: 'dead', attempts: 1 })

    const slow = await setUp((_, nth) => (nth === 1 ? 'slow' : 200))
    await slow.add('s')
    await slow.delivery.idle()
    expect((await slow.store.watches.events(slow.watchId))[0]!.delivery).toMatchObject({
      state: 'delivered',
      attempts: 2,
      lastError: 'no answer within 100 ms',
    })

    const closed = receiver(() => 200)
    const url = closed.url
    closed.stop()
    const refused = await setUp(() => 200, url)
    await refused.add('r')
    await refused.delivery.idle()
    const [event] = await refused.store.watches.events(refused.watchId)
    expect(event!.delivery.state).toBe('dead')
    expect(event!.delivery.attempts).toBe(4)
    expect(event!.delivery.lastError).not.toBeNull()
  })

  test('an event detected twice is sent once (de-duplicated by its id)', async () => {
    const { hook, delivery, add } = await setUp(() => 200)
    await add('once')
    await add('once')
    await delivery.idle()
    expect(hook.received.map((entry) => entry.eventId)).toEqual(['once'])
  })

  test('a restart resumes what was pending', async () => {
    const { hook, store, watchId, delivery } = await setUp(() => 200)
    await store.watches.append(watchId, 'left', { event_id: 'left', watch_id: watchId }, { deliver: true })
    await delivery.resume()
    await delivery.idle()
    expect(hook.received.map((entry) => entry.eventId)).toEqual(['left'])
  })

  test('full jitter: waits spread over [0, base × 2^attempts), capped', () => {
    const store = openSqliteStore(':memory:')
    const at = (random: number) =>
      new WebhookDelivery({
        store: store.watches,
        attestor,
        baseDelayMs: 1_000,
        maxDelayMs: 60_000,
        random: () => random,
      })
    expect(at(0).backoffMs(5)).toBe(0)
    expect(at(0.5).backoffMs(1)).toBe(500)
    expect(at(0.5).backoffMs(3)).toBe(2_000)
    expect(at(0.999).backoffMs(20)).toBe(59_940)
    expect(() => new WebhookDelivery({ store: store.watches, attestor, maxAttempts: 0 })).toThrow()
  })
})

describe('the event bus', () => {
  test('a watch’s listeners and the catch-all get each event; one that throws stops no other; unsubscribing stops it', () => {
    const bus = new WatchEventBus()
    const seen: string[] = []
    const stopOne = bus.subscribe('w1', (event) => seen.push(`w1:${event.event_id}`))
    bus.subscribe('w1', () => {
      throw new Error('a broken stream')
    })
    bus.subscribe('*', (event, seq) => seen.push(`all:${event.event_id}:${seq}`))
    const event = (watchId: string, id: string) => ({ event_id: id, watch_id: watchId }) as WatchEvent
    bus.publish(event('w1', 'a'), 1)
    bus.publish(event('w2', 'b'), 1)
    stopOne()
    bus.publish(event('w1', 'c'), 2)
    expect(seen).toEqual(['w1:a', 'all:a:1', 'all:b:1', 'all:c:2'])
    expect(bus.listeners).toBe(2)
  })
})
