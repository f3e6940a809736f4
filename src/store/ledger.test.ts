import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeBackends, redisForFile } from '../../test/support/redis.ts'
import type { PaymentLedger } from './ledger.ts'
import { redisClient } from './redis.ts'
import { redisLedger } from './ledger-redis.ts'
import { openSqliteStore } from './sqlite.ts'
import { openNodeSqlite } from '../runtime/sqlite-driver.ts'
import { respConnection } from '../runtime/redis-connection.ts'

const dir = mkdtempSync(join(tmpdir(), 'solsentry-ledger-'))
const redis = redisForFile()
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

interface Opened {
  ledger: PaymentLedger
  close(): Promise<void> | void
}

/** Each backend: a fresh ledger per test, and the same durable one again after a "restart". */
const backends: [string, { fresh(): Opened; durable(): Opened }][] = [
  [
    'SQLite',
    {
      fresh: () => openSqliteStore(':memory:'),
      durable: () => openSqliteStore(dir),
    },
  ],
  [
    // Deno's driver (src/runtime/sqlite-driver.ts), which Bun has too.
    'SQLite, node:sqlite',
    {
      fresh: () => openSqliteStore(':memory:', openNodeSqlite),
      durable: () => openSqliteStore(join(dir, 'node-sqlite'), openNodeSqlite),
    },
  ],
  [
    'Redis',
    {
      // Keys are unique per test run, so one server serves every test.
      fresh: () => redisLedgerOpened(),
      durable: () => redisLedgerOpened(),
    },
  ],
  [
    // Deno's connection (src/runtime/redis-connection.ts), which runs on Bun too.
    'Redis, RESP over node:net',
    { fresh: () => redisLedgerOpened(respConnection), durable: () => redisLedgerOpened(respConnection) },
  ],
]

function redisLedgerOpened(connection?: typeof respConnection): Opened {
  const client = redisClient(redis.url, connection)
  return { ledger: redisLedger(client), close: () => client.close() }
}

let unique = 0
const payment = (name: string) => {
  const key = `${name}-${process.pid}-${++unique}`
  return {
    key,
    network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    amount: '20000',
    resource: 'POST /scan/quick',
    requestId: `req-${key}`,
  }
}

describeBackends(backends, 'payment ledger', (backend) => {
  test('a payment is claimed once; a second claim answers the record that holds it', async () => {
    const { ledger, close } = backend.fresh()
    const a = payment('a')
    expect(await ledger.claim(a)).toEqual({ ok: true })
    const again = await ledger.claim(a)
    expect(again.ok).toBe(false)
    expect(!again.ok && again.existing).toMatchObject({
      key: a.key,
      state: 'verifying',
      amount: '20000',
      resource: 'POST /scan/quick',
    })
    await close()
  })

  test('100 concurrent claims of one payment: exactly one wins', async () => {
    const { ledger, close } = backend.fresh()
    const same = payment('same')
    const claims = await Promise.all(Array.from({ length: 100 }, () => ledger.claim(same)))
    expect(claims.filter((claim) => claim.ok)).toHaveLength(1)
    await close()
  })

  test('transitions are guarded by the state they leave', async () => {
    const { ledger, close } = backend.fresh()
    const t = payment('t')
    await ledger.claim(t)
    expect(await ledger.transition(t.key, 'verifying', 'verified', { payer: 'Payer1' })).toBe(true)
    // A second attempt from a stale state does nothing.
    expect(await ledger.transition(t.key, 'verifying', 'verified')).toBe(false)
    expect(await ledger.transition(t.key, 'verified', 'settling')).toBe(true)
    expect(await ledger.transition(t.key, 'settling', 'settled', { transaction: '5sig' })).toBe(true)
    expect(await ledger.get(t.key)).toMatchObject({ state: 'settled', payer: 'Payer1', transaction: '5sig' })
    // Settled is final: it cannot be claimed again.
    expect((await ledger.claim(t)).ok).toBe(false)
    expect(await ledger.get('nothing-here')).toBeUndefined()
    await close()
  })

  test('a rejected or cancelled payment moved no money and may be presented again', async () => {
    const { ledger, close } = backend.fresh()
    const r = payment('r')
    await ledger.claim(r)
    await ledger.transition(r.key, 'verifying', 'rejected', { reason: 'insufficient_funds' })
    expect(await ledger.claim(r)).toEqual({ ok: true })
    expect(await ledger.get(r.key)).toMatchObject({ state: 'verifying', reason: null })
    await ledger.transition(r.key, 'verifying', 'verified')
    await ledger.transition(r.key, 'verified', 'cancelled', { reason: 'the call failed' })
    expect(await ledger.claim(r)).toEqual({ ok: true })
    await close()
  })

  test('the ledger survives a restart, and lists what was left mid-way', async () => {
    const first = backend.durable()
    const done = payment('done')
    const mid = payment('mid')
    await first.ledger.claim(done)
    await first.ledger.transition(done.key, 'verifying', 'verified')
    await first.ledger.transition(done.key, 'verified', 'settling')
    await first.ledger.transition(done.key, 'settling', 'settled')
    await first.ledger.claim(mid)
    await first.ledger.transition(mid.key, 'verifying', 'verified')
    await first.ledger.transition(mid.key, 'verified', 'settling')
    await first.close()

    const second = backend.durable()
    expect(await second.ledger.get(done.key)).toMatchObject({ state: 'settled' })
    const open = (await second.ledger.unresolved()).map((record) => [record.key, record.state])
    expect(open).toContainEqual([mid.key, 'settling'])
    expect(open).not.toContainEqual([done.key, 'settled'])
    expect((await second.ledger.claim(mid)).ok).toBe(false)
    await second.close()
  })

  test('evidence and the request paid for are kept with the payment; a credit is redeemed by one caller at a time and listed while redeeming', async () => {
    const { ledger, close } = backend.fresh()
    const paid = {
      ...payment('credit'),
      evidence: '{"chain":"svm","payer":"P","signature":"S","blockhash":"B"}',
      requestHash: 'sha256:abc',
    }
    await ledger.claim(paid)
    expect(await ledger.get(paid.key)).toMatchObject({ evidence: paid.evidence, requestHash: 'sha256:abc' })
    const bare = payment('bare')
    await ledger.claim(bare)
    expect(await ledger.get(bare.key)).toMatchObject({ evidence: null, requestHash: null })
    for (const [from, to] of [
      ['verifying', 'verified'],
      ['verified', 'settling'],
      ['settling', 'pending'],
      ['pending', 'credited'],
    ] as const)
      expect(await ledger.transition(paid.key, from, to)).toBe(true)
    // A credited payment is not claimable as new: it is redeemed through its own guarded transition.
    expect(await ledger.claim(paid)).toMatchObject({ ok: false, existing: { state: 'credited' } })
    const redeemers = await Promise.all(
      Array.from({ length: 5 }, () => ledger.transition(paid.key, 'credited', 'redeeming')),
    )
    expect(redeemers.filter(Boolean)).toHaveLength(1)
    expect((await ledger.unresolved()).map((record) => record.key)).toContain(paid.key)
    expect(await ledger.transition(paid.key, 'redeeming', 'settled')).toBe(true)
    expect((await ledger.unresolved()).map((record) => record.key)).not.toContain(paid.key)
    await close()
  })
})

test('a SQLite ledger written before evidence and request_hash existed gains the columns and keeps its payments', async () => {
  const { Database } = await import('bun:sqlite')
  const old = mkdtempSync(join(tmpdir(), 'solsentry-ledger-old-'))
  const db = new Database(join(old, 'solsentry.db'))
  db.run(`CREATE TABLE payments (key TEXT PRIMARY KEY, state TEXT NOT NULL, network TEXT NOT NULL, amount TEXT NOT NULL, resource TEXT NOT NULL,
    request_id TEXT NOT NULL, payer TEXT, tx TEXT, reason TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`)
  db.run(`INSERT INTO payments VALUES ('old', 'settled', 'n', '1', 'POST /scan/quick', 'r', NULL, 'tx', NULL, 1, 1)`)
  db.close()
  const store = openSqliteStore(old)
  expect(await store.ledger.get('old')).toMatchObject({
    state: 'settled',
    transaction: 'tx',
    evidence: null,
    requestHash: null,
  })
  await store.close()
  rmSync(old, { recursive: true, force: true })
})
