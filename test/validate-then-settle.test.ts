import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import { Type } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/settings.ts'
import { ERROR_CATALOGUE } from '../src/kernel/errors.ts'
import { defineManifest } from '../src/kernel/manifest.ts'
import { routeOptions } from '../src/http/route-options.ts'
import { SchemaVersion } from '../src/kernel/schemas.ts'
import { TokenRequest } from '../src/pipeline/schemas.ts'
import { SCHEMA_VERSION } from '../src/kernel/version.ts'
import { closeContext, createContext, type ServiceContext } from '../src/context.ts'
import { send, VALID_MINT } from './support/app.ts'
import { ledgerKeyOf, paymentHeader, usdcOf } from './support/x402.ts'

// Issue 27, part 4: a paid answer is checked against its route's response schema before its payment
// settles. The whole app on the sandbox, a real facilitator, the demo buyer's payment, the treasury read
// from the chain.

/** What the test route answers next: one that fits its schema, one that does not, one with a member too many. */
let next: 'valid' | 'invalid' | 'extra' = 'valid'
const PATH = '/validate-then-settle/answer'

/** A priced route (0.02 USD) whose answer the test chooses; mounted with routeOptions, as every plugin's. */
function answerPlugin(ctx: ServiceContext) {
  const manifest = defineManifest({
    name: 'validate-then-settle',
    routes: {
      answer: {
        method: 'POST',
        path: PATH,
        summary: 'Answer as the test says',
        description: 'Answers a grade that fits the schema, or one that does not.',
        price: { usd: '0.02' },
        body: TokenRequest,
        response: Type.Object({ schema_version: SchemaVersion, grade: Type.String() }),
        tags: ['test'],
      },
    },
  })
  ctx.registry.register(manifest)
  const { answer } = manifest.routes
  return new Elysia({ name: 'plugin:validate-then-settle' }).post(
    answer.path,
    // With its schema_version, as the features answer: the core's afterHandle then leaves the answer as
    // it is, so Elysia checks it only after every afterHandle hook has run.
    () => {
      // The cast hides from the compiler the wrong type the route's schema must catch at run time.
      if (next === 'invalid') return { schema_version: SCHEMA_VERSION, grade: 42 } as unknown as { grade: string }
      if (next === 'extra') return { schema_version: SCHEMA_VERSION, grade: 'A', internal_note: 'not in the schema' }
      return { schema_version: SCHEMA_VERSION, grade: 'A' }
    },
    routeOptions(ctx, answer),
  )
}

const sandbox = await startSandbox(ephemeralSandboxOptions())
const ctx = createContext(loadConfig({ ...sandbox.serviceSettings, DATA_DIR: ':memory:', LOG_LEVEL: 'silent' }), {
  logger: pino({ level: 'silent' }),
})
const gate = ctx.payments
await gate.start()
const service = createApp(ctx, { plugins: [answerPlugin(ctx)] })
afterAll(async () => {
  await closeContext(ctx)
  await sandbox.stop()
})
afterEach(() => {
  sandbox.faults.clear()
  next = 'valid'
})

const { client } = await demoPayer(sandbox.file, 'solana')
const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
const call = (headers: Record<string, string> = {}) =>
  send(service, 'POST', PATH, { json: { token_address: VALID_MINT }, headers })

/** The demo buyer's payment for the route's challenge, and its ledger key. */
async function pay(): Promise<{ header: string; key: string }> {
  const challenged = await call()
  expect(challenged.status).toBe(402)
  const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
  return { header, key: ledgerKeyOf(header) }
}

describe('a paid answer is validated before its payment settles', () => {
  test('an answer that fails its response schema: 500 INTERNAL, nothing charged, the payment released and good for the same call', async () => {
    const { header, key } = await pay()
    const before = await treasury()

    next = 'invalid'
    const failed = await call({ 'payment-signature': header })
    expect(failed.status).toBe(500)
    expect(failed.headers.get('content-type')).toContain('application/json')
    expect(failed.json).toMatchObject({
      error: true,
      code: 'INTERNAL',
      message: ERROR_CATALOGUE.INTERNAL.message,
      request_id: expect.any(String),
    })
    expect(failed.json).not.toHaveProperty('stack')
    expect(failed.text).not.toMatch(/\.ts:\d+/)
    expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'cancelled' })
    expect(await treasury()).toBe(before)
    expect(failed.headers.get('payment-response')).toBeNull()

    // Released, not consumed: the same payment buys the same call once it answers well, charged once.
    next = 'valid'
    const paid = await call({ 'payment-signature': header })
    expect(paid.status).toBe(200)
    expect(paid.json).toEqual({ schema_version: '2.0', grade: 'A' })
    expect(JSON.parse(Buffer.from(paid.headers.get('payment-response')!, 'base64').toString())).toMatchObject({
      success: true,
    })
    expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settled' })
    expect(await treasury()).toBe(before + 20_000n)
    // Used up now.
    expect((await call({ 'payment-signature': header })).status).toBe(402)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test("an answer Elysia's normalisation accepts (a member the schema does not name, dropped) settles as any good answer", async () => {
    const { header, key } = await pay()
    const before = await treasury()
    next = 'extra'
    const paid = await call({ 'payment-signature': header })
    expect(paid.status).toBe(200)
    expect(paid.json).toEqual({ schema_version: '2.0', grade: 'A' })
    expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settled' })
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('a valid answer whose settlement fails is withheld: 402 with the challenge, never the answer, nothing charged', async () => {
    const { header, key } = await pay()
    const before = await treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'down' })
    const withheld = await call({ 'payment-signature': header })
    expect(withheld.status).toBe(402)
    expect(withheld.headers.get('content-type')).toContain('application/json')
    expect(withheld.headers.get('payment-required')).toBeTruthy()
    expect(withheld.headers.get('cache-control')).toBe('no-store')
    expect(withheld.json).toMatchObject({ error: true, code: 'PAYMENT_REQUIRED' })
    expect(withheld.json).not.toHaveProperty('grade')
    expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'pending' })
    expect(await treasury()).toBe(before)
  })
})

describe('a settlement is recorded once its answer is kept', () => {
  // Found by `npm run bench -- guard` (the cluster's short form): an instance killed after the ledger
  // recorded `settled` but before its answer was kept left a payment that moved with no answer anywhere,
  // and presenting it again said "already used". Now the ledger holds it `settling` until the answer is
  // kept, so such a death leaves it to recovery (test/orphaned-calls.test.ts: read from the chain,
  // credited, collected by presenting it again), never `settled` without an answer.
  test('while the paid answer is being kept the money has moved and the ledger still says settling; then settled', async () => {
    const { header, key } = await pay()
    const before = await treasury()
    const keeping = holdKeeping()
    try {
      const paid = call({ 'payment-signature': header })
      await keeping.started
      expect(await treasury()).toBe(before + 20_000n)
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settling' })
      keeping.release()
      const answered = await paid
      expect(answered.status).toBe(200)
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settled', transaction: expect.any(String) })
      expect((await call({ 'payment-signature': header })).status).toBe(402)
      expect(await treasury()).toBe(before + 20_000n)
    } finally {
      keeping.restore()
    }
  })

  /** Holds the keeping of the next paid answer until `release` is called; `started` resolves when it begins. */
  function holdKeeping() {
    const answers = ctx.store.answers
    const put = answers.put
    let begin!: () => void
    const started = new Promise<void>((resolve) => (begin = resolve))
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    answers.put = async (...args) => {
      begin()
      await released
      return put(...args)
    }
    return { started, release, restore: () => (answers.put = put) }
  }

  test('a settlement the facilitator reported pending and the chain confirmed is recorded settled once its answer is kept too', async () => {
    const { header, key } = await pay()
    const before = await treasury()
    sandbox.faults.set('facilitator', '/settle', { kind: 'settlement_pending' })
    const keeping = holdKeeping()
    try {
      const paid = call({ 'payment-signature': header })
      await keeping.started
      expect(await treasury()).toBe(before + 20_000n)
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settling', transaction: expect.any(String) })
      keeping.release()
      expect((await paid).status).toBe(200)
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settled' })
    } finally {
      keeping.restore()
    }
  })

  test('taken for orphaned while its answer was being kept (another instance’s recovery): the answer that went out consumes the credit, no second answer', async () => {
    const { header, key } = await pay()
    const before = await treasury()
    const keeping = holdKeeping()
    const recovery = ctx.payments as unknown as {
      releaseStale(nowMs?: number): Promise<number>
      resolvePending(): Promise<{ credited: number }>
    }
    try {
      const paid = call({ 'payment-signature': header })
      await keeping.started
      // As an instance whose clock runs past the bound would: settling → pending, then credited from the chain.
      await recovery.releaseStale(Date.now() + 10 * 60_000)
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'pending' })
      expect(await recovery.resolvePending()).toMatchObject({ credited: 1 })
      keeping.release()
      expect((await paid).status).toBe(200)
      // The answer delivered was the call it paid for: the credit is consumed, not left owed.
      expect(await ctx.store.ledger.get(key)).toMatchObject({ state: 'settled' })
      const again = await call({ 'payment-signature': header })
      expect(again.status).toBe(402)
      expect(await treasury()).toBe(before + 20_000n)
    } finally {
      keeping.restore()
    }
  })
})
