import { describe, expect, test } from 'bun:test'
import type { LaunchpadFact } from '../../src/facts/types.ts'
import launchpad from './index.ts'

const detect = (fact: LaunchpadFact | undefined) =>
  launchpad.detect({ get: () => fact as never }, {}, { mint: 'm', now: 0 })
const curve = (complete: boolean) => ({
  pumpFun: {
    bondingCurve: 'c',
    complete,
    realQuoteReserves: 0n,
    creator: 'dev',
    graduatedPool: complete ? 'amm' : null,
  },
})

describe('launchpad', () => {
  test('a pump.fun curve account, on it or graduated: launched on the launchpad', () => {
    expect(detect(curve(false))).toMatchObject({
      fields: { pump_launchpad_launched: true },
      factors: [{ code: 'PUMP_FUN_BONDING_CURVE' }],
    })
    expect(detect(curve(true))).toMatchObject({
      fields: { pump_launchpad_launched: true },
      factors: [{ code: 'PUMP_FUN_GRADUATED' }],
    })
  })
  test('no curve account: not a launchpad token (a DEX name is never evidence)', () => {
    expect(detect({ pumpFun: null })).toMatchObject({ status: 'ok', fields: { pump_launchpad_launched: false } })
  })
  test('launchpad state unread: unknown, no field', () => {
    expect(detect(undefined)).toMatchObject({ status: 'unknown', fields: {} })
  })
})
