import { describe, expect, test } from 'bun:test'
import { manifest } from '../plugins/signal-radar/manifest.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'

// POST /signal/radar on the sandbox: candidates from its Jupiter stand-in's rankings (computed from the
// trades its chain holds; it has no organic score, so that ranking is refused and listed missing).
const { sandbox, app, validate, freshApp, mintOf } = await scannerService()

async function radar(body: Record<string, unknown>, service = app) {
  const started = Date.now()
  const response = await service.handle(scanRequest('/signal/radar', body))
  const answer = (await response.json()) as any
  return {
    status: response.status,
    body: answer,
    ms: Date.now() - started,
    errors: validate('POST', '/signal/radar', response.status, answer),
  }
}

type Reading = { signal: string; fired: boolean; weight: number }

describe('POST /signal/radar', () => {
  test('over 24 h: tokens with at least two signals fired, ranked by convergence, scored by their weights', async () => {
    const { status, body, errors } = await radar({ interval: '24h' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    // The stand-in has no organic score: that ranking is refused, and said to be missing.
    expect(body).toMatchObject({ data_quality: 'PARTIAL', missing_fields: ['ranking:toporganicscore'], min_signals: 2 })
    expect(body.items.length).toBeGreaterThan(1)
    const scores = body.items.map((item: { convergence_score: number }) => item.convergence_score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    for (const item of body.items) {
      const fired = item.signal_breakdown.filter((reading: Reading) => reading.fired)
      expect(fired.length).toBe(item.signals_fired)
      expect(item.signals_fired).toBeGreaterThanOrEqual(2)
      expect(item.convergence_score).toBe(fired.reduce((sum: number, reading: Reading) => sum + reading.weight, 0))
      expect(item.quick_scan).not.toBeNull()
    }
    const symbols = body.items.map((item: { symbol: string }) => item.symbol)
    expect(symbols).not.toContain('USDC')
    expect(symbols).not.toContain('SOL')
  })

  test('min_signals raises the bar: every signal at once lists nothing on the sandbox', async () => {
    const one = (await radar({ interval: '6h', min_signals: 1 })).body
    const three = (await radar({ interval: '6h', min_signals: 3 })).body
    expect(three.items.length).toBeLessThan(one.items.length)
    for (const item of three.items) expect(item.signals_fired).toBeGreaterThanOrEqual(3)
    expect((await radar({ interval: '6h', min_signals: 7 })).body.items).toEqual([])
  })

  test('a focus token off the radar is read anyway: rank null, its breakdown and grade', async () => {
    const dead = mintOf('dead-token')
    const { body } = await radar({ interval: '1h', token_address: dead })
    expect(body.focus).toMatchObject({ rank: null, token_address: dead, signals_fired: 0, convergence_score: 0 })
    expect(body.focus.signal_breakdown).toHaveLength(7)
    expect(body.focus.quick_scan).not.toBeNull()
  })

  test('the aggregator down: LIMITED within the deadline, the feed missing, nothing listed', async () => {
    sandbox.faults.set('jupiter', '/tokens/v2/', { kind: 'down' })
    const { status, body, ms } = await radar({}, freshApp())
    expect(status).toBe(200)
    expect(body).toMatchObject({ data_quality: 'LIMITED', missing_fields: ['feed'], items: [], candidates: 0 })
    expect(ms).toBeLessThan(manifest.routes.radar.deadlineMs.answerAt + 500)
  })

  test('bad input: min_signals out of 1..7, a limit over 25, a bad focus mint', async () => {
    expect((await radar({ min_signals: 0 })).status).toBe(400)
    expect((await radar({ limit: 26 })).status).toBe(400)
    expect((await radar({ token_address: 'not-a-mint' })).body).toMatchObject({ code: 'INVALID_ADDRESS' })
  })
})
