import { describe, expect, test } from 'bun:test'
import { createApp } from '../src/app.ts'
import { launchpadService } from './support/launchpad-service.ts'
import { PRICE_PATH } from './support/swap-api.ts'

// POST /trade/suggest on the sandbox: the signal radar over its Jupiter stand-in's rankings, the launch
// radar over its live launchpad (stepped here; the ingester follows it), the battery on its chain.
const { sandbox, contextOn, post, runnerNearCompletion } = await launchpadService()
const runner = await runnerNearCompletion()
const blue = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const buyer = await sandbox.world.signer('demo-buyer')

const suggest = (body: Record<string, unknown>) => post('/trade/suggest', body)
const BUY_LIKE = new Set(['BUY', 'SMALL_BUY'])

describe('POST /trade/suggest', () => {
  test('the signal radar over 24 h: the blue chip, checked by every scanner, BUY with cited factors', async () => {
    const { status, body, errors } = await suggest({ source: 'signal', interval: '24h' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.selection.candidate).toMatchObject({ token_address: blue, source: 'signal', quick_grade: 'A' })
    expect(body.selection.shortlist[0]).toMatchObject({ token_address: blue, outcome: 'SELECTED' })
    expect(body.recommendation).toMatchObject({ action: 'BUY', hard_gates: [] })
    expect(body.battery).toMatchObject({
      quick_scan: { grade: 'A' },
      deep_dive: { grade: 'A', recommendation: 'CONSIDER', previous_rugs: false },
      exit_check: { sellable: true },
    })
    const points = body.recommendation.cited_factors.reduce((sum: number, factor: any) => sum + factor.points, 0)
    expect(body.recommendation.conviction).toBe(Math.max(0, Math.min(100, 50 + points)))
  })

  test('the appetite sizes it: conservative < balanced < aggressive, each within its share of the budget', async () => {
    const sizes = []
    for (const [risk_appetite, share] of [
      ['conservative', 0.25],
      ['balanced', 0.5],
      ['aggressive', 1],
    ] as const) {
      const { body } = await suggest({ source: 'signal', interval: '24h', risk_appetite, budget_usd: 200 })
      expect(body.recommendation.suggested_size_usd).toBeLessThanOrEqual(200 * share)
      sizes.push(body.recommendation.suggested_size_usd)
      expect(body.recommendation.trade_plan.max_price_impact_pct).toBe(
        { conservative: 1, balanced: 2, aggressive: 5 }[risk_appetite],
      )
    }
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b))
    expect(new Set(sizes).size).toBe(3)
  })

  test('its trade plan feeds /trade/quote as is (plus the wallet): QUOTED, within the plan’s price impact', async () => {
    const { body } = await suggest({ source: 'signal', interval: '24h', budget_usd: 40 })
    const plan = body.recommendation.trade_plan
    const quoted = await post('/trade/quote', { ...plan.quote_request, user_public_key: buyer.address })
    expect(quoted.status).toBe(200)
    expect(quoted.body.status).toBe('QUOTED')
    expect(quoted.body.quote.output_mint).toBe(blue)
    expect(quoted.body.quote.in_amount).toBe(plan.quote_request.amount_in)
    expect(quoted.body.quote.price_impact_pct).toBeLessThanOrEqual(plan.max_price_impact_pct)
  })

  test('never a buy on a token the scanners grade D/F, cannot sell (or only at a PUNITIVE loss), or a serial rugger made — across appetites and sources', async () => {
    for (const risk_appetite of ['conservative', 'balanced', 'aggressive'])
      for (const source of ['signal', 'launch', 'both'])
        for (const interval of ['1h', '24h']) {
          const { status, body, errors } = await suggest({ risk_appetite, source, interval })
          expect(status).toBe(200)
          expect(errors).toEqual([])
          for (const entry of body.selection.shortlist)
            if (entry.outcome !== 'NOT_CHECKED') expect(['D', 'F']).not.toContain(entry.quick_grade)
          if (!BUY_LIKE.has(body.recommendation.action)) {
            expect(body.recommendation.suggested_size_usd).toBe(0)
            expect(body.recommendation.trade_plan).toBeNull()
            continue
          }
          const { quick_scan, deep_dive, exit_check } = body.battery
          expect(['D', 'F']).not.toContain(quick_scan.grade)
          expect(['D', 'F']).not.toContain(deep_dive.grade)
          expect(exit_check.sellable).toBe(true)
          // A position is sized only with a way out that is not PUNITIVE (or BLOCKED).
          expect(['CLEAN', 'COSTLY']).toContain(exit_check.exit_rating)
          expect(deep_dive.previous_rugs).not.toBe(true)
          expect(body.recommendation.hard_gates).toEqual([])
        }
  }, 60_000)

  test('the launch radar (aggressive): curves near completion are candidates; whatever is chosen passes the gates or is AVOID', async () => {
    const { body } = await suggest({ source: 'launch', risk_appetite: 'aggressive' })
    expect(body.missing_fields).not.toContain('launch_radar')
    expect(body.selection.considered).toBeGreaterThan(0)
    const entries = body.selection.shortlist.map((entry: any) => entry.token_address)
    const filtered = Object.values(body.selection.filtered_out).reduce((sum: number, count: any) => sum + count, 0)
    expect(entries.includes(runner.mint) || filtered > 0).toBe(true)
    if (body.recommendation.hard_gates.length > 0) expect(body.recommendation.action).toBe('AVOID')
    // A launchpad coin gets half the appetite's share of the budget (no pool to size against).
    expect(body.recommendation.suggested_size_usd).toBeLessThanOrEqual(100 * 0.5)
  })

  test('conservative appetites skip the launchpad; nothing passing the filters is NO_CANDIDATE, said why', async () => {
    const { body } = await suggest({ source: 'launch', risk_appetite: 'conservative' })
    expect(body.recommendation).toMatchObject({ action: 'NO_CANDIDATE', suggested_size_usd: 0, trade_plan: null })
    expect(body.selection).toMatchObject({ candidate: null, considered: 0 })
    expect(body.battery).toBeNull()
  })

  test('the exit cannot be checked (the aggregator down): no buy without a way out', async () => {
    const service = createApp(contextOn())
    sandbox.faults.set('jupiter', PRICE_PATH, { kind: 'down' })
    try {
      const { status, body } = await post('/trade/suggest', { source: 'signal', interval: '24h' }, service)
      expect(status).toBe(200)
      expect(BUY_LIKE.has(body.recommendation.action)).toBe(false)
      expect(body.recommendation.trade_plan).toBeNull()
    } finally {
      sandbox.faults.clear()
    }
  })

  test.each([[{ risk_appetite: 'yolo' }], [{ source: 'twitter' }], [{ budget_usd: 0 }], [{ interval: '2h' }]])(
    '%p: 400 INVALID_REQUEST',
    async (body) => {
      const { status, body: answer } = await suggest(body)
      expect(status).toBe(400)
      expect(answer).toMatchObject({ error: true, code: 'INVALID_REQUEST' })
    },
  )

  test('off without JUPITER_URL: not served, /health says why', async () => {
    const off = contextOn({ JUPITER_URL: '' })
    const service = createApp(off)
    expect((await post('/trade/suggest', {}, service)).status).toBe(404)
    const health = (await (await service.handle(new Request('http://local/health'))).json()) as any
    expect(health.routes_off.some((entry: any) => entry.routes.includes('POST /trade/suggest'))).toBe(true)
  })
})
