import { describe, expect, test } from 'bun:test'
import type { AlertExit } from '../trade/service.ts'
import { boundedExit } from './alert-exit.ts'

const request = {
  mint: 'Mint1111111111111111111111111111111111111111',
  user_public_key: 'Holder11111111111111111111111111111111111111',
}
const nothingHeld: AlertExit = {
  status: 'NOTHING_HELD',
  code: 'NOTHING_HELD',
  reason: 'holds none',
  job_id: null,
  exit_rating: null,
}

describe('an alert’s exit is bounded: never a throw, never held past its time', () => {
  test('a build that answers: its answer, as built', async () => {
    expect(await boundedExit(async () => nothingHeld, request, 1_000)).toEqual(nothingHeld)
  })

  test('a build that never answers: UNAVAILABLE, EXIT_TIMEOUT, saying where to ask for one', async () => {
    const exit = await boundedExit(() => new Promise<AlertExit>(() => {}), request, 20)
    expect(exit).toMatchObject({ status: 'UNAVAILABLE', code: 'EXIT_TIMEOUT', job_id: null, exit_rating: null })
    expect(exit.status !== 'READY' && exit.reason).toContain('POST /trade/quote')
  })

  test('a build that throws: UNAVAILABLE, EXIT_FAILED, with its message', async () => {
    const exit = await boundedExit(async () => Promise.reject(new Error('aggregator down')), request, 1_000)
    expect(exit).toMatchObject({ status: 'UNAVAILABLE', code: 'EXIT_FAILED' })
    expect(exit.status !== 'READY' && exit.reason).toContain('aggregator down')
  })
})
