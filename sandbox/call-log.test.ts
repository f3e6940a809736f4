import { describe, expect, test } from 'bun:test'
import { criticalPath, describePath, type UpstreamCall } from './call-log.ts'
import { FaultPlan } from './faults.ts'

const call = (route: string, receivedAt: number, answeredAt: number): UpstreamCall => ({
  server: 'rpc',
  route,
  receivedAt,
  answeredAt,
})

describe('criticalPath: the longest chain of calls each sent after the previous one was answered', () => {
  test('calls that overlap count once; a call sent after an answer adds one', () => {
    const calls = [
      call('a', 0, 100),
      call('b', 1, 101),
      call('c', 2, 102),
      call('d', 103, 203),
      call('e', 104, 204),
      call('f', 205, 305),
    ]
    expect(criticalPath(calls).map((entry) => entry.route)).toEqual(['a', 'd', 'f'])
  })

  test('the longest chain wins, whatever order the calls were recorded in', () => {
    const calls = [call('late', 150, 250), call('x', 0, 50), call('y', 60, 110), call('z', 120, 170)]
    expect(criticalPath(calls).map((entry) => entry.route)).toEqual(['x', 'y', 'z'])
    expect(describePath(criticalPath(calls))).toBe('rpc x → rpc y → rpc z')
  })

  test('no calls, no round trips', () => {
    expect(criticalPath([])).toEqual([])
  })
})

describe('FaultPlan.recordCalls', () => {
  test('keeps what servers answer while open, and nothing after stop()', () => {
    const plan = new FaultPlan()
    plan.answered('rpc', 'getSlot', 0)
    const recording = plan.recordCalls()
    plan.answered('dexscreener', '/token-pairs/v1/solana/x', performance.now())
    const calls = recording.stop()
    plan.answered('rpc', 'getSlot', performance.now())
    expect(calls.map((entry) => entry.server)).toEqual(['dexscreener'])
    expect(calls[0]!.answeredAt).toBeGreaterThanOrEqual(calls[0]!.receivedAt)
  })
})
