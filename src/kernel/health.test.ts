import { describe, expect, test } from 'bun:test'
import { eventually } from '../../test/support/eventually.ts'
import { type ComponentState, HealthBoard, type OverallState, type ProbeResult } from './health.ts'

/** A board of `components` (name → what it observes and what its probe finds), read fresh each time. */
function board(components: Record<string, { observe?: ComponentState; probe?: ProbeResult; local?: boolean }>) {
  const health = new HealthBoard(0)
  for (const [name, { observe, probe, local }] of Object.entries(components))
    health.register(name, {
      ...(observe ? { observe: () => observe } : {}),
      ...(probe ? { probe: async () => probe } : {}),
      local,
    })
  return health
}

const OK: ProbeResult = { state: 'ok', detail: 'answered' }
const DOWN: ProbeResult = { state: 'down', detail: 'network' }

describe('the health board', () => {
  test('a dependency is unknown until probed, then what its probe found', async () => {
    const health = board({ store: { observe: 'ok', local: true }, rpc: { observe: 'unknown', probe: OK } })
    expect(await health.read()).toEqual({ status: 'unknown', components: { store: 'ok', rpc: 'unknown' }, details: {} })
    await health.probe('rpc')
    expect(await health.read()).toEqual({
      status: 'ok',
      components: { store: 'ok', rpc: 'ok' },
      details: { rpc: 'answered' },
    })
  })

  test('the worse of the last probe and live traffic; a probe that throws or hangs is down', async () => {
    const health = new HealthBoard(0)
    health.register('tripped', { observe: () => 'down', probe: async () => OK })
    health.register('throws', {
      probe: async () => {
        throw new Error('boom')
      },
    })
    await Promise.all([health.probe('tripped'), health.probe('throws')])
    const reading = await health.read()
    expect(reading.components).toEqual({ tripped: 'down', throws: 'down' })
    expect(reading.details.throws).toBe('boom')
  })

  const cases: [string, Parameters<typeof board>[0], OverallState][] = [
    [
      'every remote dependency down',
      { store: { observe: 'ok', local: true }, a: { probe: DOWN }, b: { probe: DOWN } },
      'down',
    ],
    ['the store down', { store: { observe: 'down', local: true }, a: { probe: OK } }, 'down'],
    ['one of two down', { a: { probe: OK }, b: { probe: DOWN } }, 'degraded'],
    ['one degraded', { a: { probe: OK }, b: { probe: { state: 'degraded', detail: 'HTTP 401' } } }, 'degraded'],
    ['an unprobed dependency not yet seen', { a: { probe: OK }, live: { observe: 'unknown' } }, 'ok'],
    ['all down but one never seen', { a: { probe: DOWN }, live: { observe: 'unknown' } }, 'down'],
  ]
  for (const [name, components, status] of cases)
    test(`overall: ${name} → ${status}`, async () => {
      const health = board(components)
      for (const component of health.names) await health.probe(component)
      expect((await health.read()).status).toBe(status)
    })

  test('start probes at once and again each interval; stop ends it', async () => {
    const health = new HealthBoard(0)
    let calls = 0
    health.register('counted', {
      probe: async () => {
        calls++
        return OK
      },
    })
    health.start(20)
    await eventually(
      'probes',
      () => calls,
      (count) => count >= 3,
    )
    health.stop()
    const seen = calls
    expect(seen).toBeGreaterThanOrEqual(3)
    // Nothing more is probed once stopped: three intervals pass without a call.
    await Bun.sleep(60)
    expect(calls).toBe(seen)
  })
})
