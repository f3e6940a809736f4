import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqliteStore } from './sqlite.ts'

const dir = mkdtempSync(join(tmpdir(), 'solsentry-ledger-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const payment = (key: string) => ({ key, network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', amount: '20000', resource: 'POST /scan/quick', requestId: `req-${key}` })

describe('payment ledger (SQLite)', () => {
  test('a payment is claimed once; a second claim answers the record that holds it', async () => {
    const { ledger, close } = openSqliteStore(':memory:')
    expect(await ledger.claim(payment('a'))).toEqual({ ok: true })
    const again = await ledger.claim(payment('a'))
    expect(again.ok).toBe(false)
    expect(!again.ok && again.existing).toMatchObject({ key: 'a', state: 'verifying', amount: '20000', resource: 'POST /scan/quick' })
    await close()
  })

  test('100 concurrent claims of one payment: exactly one wins', async () => {
    const { ledger, close } = openSqliteStore(':memory:')
    const claims = await Promise.all(Array.from({ length: 100 }, () => ledger.claim(payment('same'))))
    expect(claims.filter((claim) => claim.ok)).toHaveLength(1)
    await close()
  })

  test('transitions are guarded by the state they leave', async () => {
    const { ledger, close } = openSqliteStore(':memory:')
    await ledger.claim(payment('t'))
    expect(await ledger.transition('t', 'verifying', 'verified', { payer: 'Payer1' })).toBe(true)
    // A second settle attempt from a stale state does nothing.
    expect(await ledger.transition('t', 'verifying', 'verified')).toBe(false)
    expect(await ledger.transition('t', 'verified', 'settling')).toBe(true)
    expect(await ledger.transition('t', 'settling', 'settled', { transaction: '5sig' })).toBe(true)
    expect(await ledger.get('t')).toMatchObject({ state: 'settled', payer: 'Payer1', transaction: '5sig' })
    // Settled is final: it cannot be claimed again.
    expect((await ledger.claim(payment('t'))).ok).toBe(false)
    await close()
  })

  test('a rejected or cancelled payment moved no money and may be presented again', async () => {
    const { ledger, close } = openSqliteStore(':memory:')
    await ledger.claim(payment('r'))
    await ledger.transition('r', 'verifying', 'rejected', { reason: 'insufficient_funds' })
    expect(await ledger.claim(payment('r'))).toEqual({ ok: true })
    expect(await ledger.get('r')).toMatchObject({ state: 'verifying', reason: null })
    await ledger.transition('r', 'verifying', 'verified')
    await ledger.transition('r', 'verified', 'cancelled', { reason: 'the call failed' })
    expect(await ledger.claim(payment('r'))).toEqual({ ok: true })
    await close()
  })

  test('the ledger survives a restart, and lists what was left mid-way', async () => {
    const first = openSqliteStore(dir)
    await first.ledger.claim(payment('done'))
    await first.ledger.transition('done', 'verifying', 'verified')
    await first.ledger.transition('done', 'verified', 'settling')
    await first.ledger.transition('done', 'settling', 'settled')
    await first.ledger.claim(payment('mid'))
    await first.ledger.transition('mid', 'verifying', 'verified')
    await first.ledger.transition('mid', 'verified', 'settling')
    await first.close()

    const second = openSqliteStore(dir)
    expect(await second.ledger.get('done')).toMatchObject({ state: 'settled' })
    expect((await second.ledger.unresolved()).map((record) => [record.key, record.state])).toEqual([['mid', 'settling']])
    expect((await second.ledger.claim(payment('mid'))).ok).toBe(false)
    await second.close()
  })
})
