import { describe, expect, test } from 'bun:test'
import { manifest as momentum } from '../plugins/graduation-momentum/manifest.ts'
import { manifest as launchRadar } from '../plugins/launch-radar/manifest.ts'
import { createApp } from '../src/app.ts'
import { startLaunchIngester } from '../src/launchpad-index/index.ts'
import { SMART_WALLETS, type TickerCoin } from '../sandbox/ticker.ts'
import { launchpadService } from './support/launchpad-service.ts'
import { eventually } from './support/eventually.ts'
import { PRICE_PATH } from './support/swap-api.ts'

// The launch and graduation radars on the sandbox's live launchpad: the ticker creates and trades
// pump.fun coins (stepped here, deterministically), the ingester follows them over logsSubscribe into
// the index, and each answer is checked against the sandbox's own chain (the pool book's trades).
const { sandbox, contextOn, ctx, ingester, post, progressOf } = await launchpadService()

const { ticker } = sandbox
/** Each step moves the chain 20 s on: curves fill over minutes, as live. */
const STEP_S = 20
/** Trades the pool book read on a coin's curve: the chain's own count. */
const chainTrades = (coin: TickerCoin) => sandbox.world.pools.tradesOf(coin.pool.address).length
/** Waits until the index holds every trade the chain made on `coin`. */
const indexed = (coin: TickerCoin) =>
  eventually(
    `${coin.symbol}'s trades indexed`,
    async () => (await ctx.store.launches.trades(coin.mint)).length,
    (count) => count === chainTrades(coin),
  )

describe('POST /launch/radar', () => {
  test('new creations, newest first, each as the chain made it; the bundled launch flagged', async () => {
    for (let i = 0; i < 12; i++) await ticker.step(STEP_S)
    for (const coin of ticker.coins) await indexed(coin)
    const { status, body, errors } = await post('/launch/radar', { stage: 'new_creation' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'FULL', index: { ingesting: true, state: 'live' } })
    const listed = body.items.map((item: { symbol: string }) => item.symbol)
    expect(listed).toEqual([...ticker.coins].reverse().map((coin) => coin.symbol))
    for (const item of body.items) {
      const coin = ticker.coins.find((entry) => entry.mint === item.token_address)!
      expect(item.trades).toBe(chainTrades(coin))
      expect(item.bonding_progress_pct).toBeCloseTo(progressOf(coin), 1)
      expect(item.quick_scan).not.toBeNull()
    }
    const bundled = ticker.coins.find((coin) => coin.bundled)!
    const item = body.items.find((entry: { token_address: string }) => entry.token_address === bundled.mint)
    expect(item).toMatchObject({ bundled_buyers: 4, flags: expect.arrayContaining(['BUNDLED_LAUNCH']) })
    // The safe preset leaves it out.
    const safe = (await post('/launch/radar', { stage: 'new_creation', preset: 'safe' })).body
    expect(safe.items.map((entry: { token_address: string }) => entry.token_address)).not.toContain(bundled.mint)
    expect(safe.filtered_out).toBeGreaterThan(0)
  })

  test('a focus coin is read whatever the filters; a mint the index does not hold is said missing', async () => {
    const coin = ticker.coins[0]!
    const { body } = await post('/launch/radar', { stage: 'near_completion', token_address: coin.mint })
    expect(body.focus).toMatchObject({ token_address: coin.mint, symbol: coin.symbol })
    const unknown = (await post('/launch/radar', { token_address: sandbox.file.usdc_mint })).body
    expect(unknown.focus).toBeNull()
    expect(unknown.missing_fields).toContain('focus')
  })
})

describe('POST /graduation/radar', () => {
  test('a runner shows up before it graduates, with a sane estimate; once complete it leaves the radar', async () => {
    const runner = ticker.coins.find((coin) => coin.runner)!
    for (let i = 0; i < 400 && (progressOf(runner) < 50 || ticker.left(runner) === 0n); i++) await ticker.step(STEP_S)
    expect(ticker.left(runner)).toBeGreaterThan(0n)
    await indexed(runner)
    const { body, errors } = await post('/graduation/radar', { min_progress_pct: 50 })
    expect(errors).toEqual([])
    const item = body.items.find((entry: { token_address: string }) => entry.token_address === runner.mint)
    expect(item).toBeDefined()
    expect(item.bonding_progress_pct).toBeGreaterThanOrEqual(50)
    expect(item.fill_rate_pct_per_min).toBeGreaterThan(0)
    // Sane: positive, and no more than the time the rest would take at the rate measured.
    expect(item.minutes_to_graduation).toBeGreaterThan(0)
    expect(item.minutes_to_graduation).toBeCloseTo((100 - item.bonding_progress_pct) / item.fill_rate_pct_per_min, 0)
    for (let i = 0; i < 400 && ticker.left(runner) > 0n; i++) await ticker.step(STEP_S)
    expect(ticker.left(runner)).toBe(0n)
    await indexed(runner)
    await eventually(
      'the runner complete in the index',
      () => ctx.store.launches.curve(runner.mint),
      (curve) => curve?.complete === true,
    )
    const after = (await post('/graduation/radar', { min_progress_pct: 50 })).body
    expect(after.items.map((entry: { token_address: string }) => entry.token_address)).not.toContain(runner.mint)
  })
})

describe('POST /graduation/momentum', () => {
  test('a filling runner: scored with every point cited, its components answered, its exit and developer read', async () => {
    const filling = () => ticker.coins.find((coin) => coin.runner && ticker.left(coin) > 0n && progressOf(coin) >= 60)
    for (let i = 0; i < 400 && !filling(); i++) await ticker.step(STEP_S)
    const runner = filling()!
    await indexed(runner)
    const { status, body, errors, ms } = await post('/graduation/momentum', { min_progress_pct: 60 })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(ms).toBeLessThan(momentum.routes.momentum.deadlineMs + 1_000)
    const item = body.items.find((entry: { token_address: string }) => entry.token_address === runner.mint)
    expect(item).toBeDefined()
    expect(item.momentum_score).toBe(
      Math.max(
        0,
        item.cited_factors.reduce((sum: number, factor: { points: number }) => sum + factor.points, 0),
      ),
    )
    expect(item.components).toMatchObject({
      exit_check: 'answered',
      developer_history: 'answered',
      quick_scan: 'answered',
    })
    expect(item.sellable).toBe(true)
    // The exit's rating is read: EXIT_OPEN only for a CLEAN one, a PUNITIVE one caps the score.
    expect(['CLEAN', 'COSTLY', 'PUNITIVE']).toContain(item.exit_rating)
    const cited = item.cited_factors.map((factor: { factor: string }) => factor.factor)
    if (cited.includes('EXIT_OPEN')) expect(item.exit_rating).toBe('CLEAN')
    if (item.exit_rating === 'PUNITIVE') expect(item.momentum_score).toBeLessThanOrEqual(25)
    expect(item.developer_previous_rugs).toBe(0)
    expect(['HOT', 'HEATING', 'COOLING', 'FLAT']).toContain(item.label)
    const scores = body.items.map((entry: { momentum_score: number }) => entry.momentum_score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
  }, 120_000)
})

describe('POST /graduation/momentum under faults', () => {
  test('the aggregator down: the exit check is missing, named, adds nothing; the answer comes within its deadline', async () => {
    sandbox.faults.set('jupiter', PRICE_PATH, { kind: 'down' })
    try {
      const { status, body, errors, ms } = await post('/graduation/momentum', { min_progress_pct: 0, limit: 3 })
      expect(status).toBe(200)
      expect(errors).toEqual([])
      expect(ms).toBeLessThan(momentum.routes.momentum.deadlineMs + 1_000)
      expect(body.data_quality).toBe('PARTIAL')
      expect(body.missing_fields).toContain('exit_check')
      for (const item of body.items) {
        expect(item.components.exit_check).toBe('missing')
        expect(item.cited_factors.map((factor: { factor: string }) => factor.factor)).not.toContain('EXIT_OPEN')
      }
    } finally {
      sandbox.faults.clear()
    }
  }, 60_000)
})

describe('POST /scan/smart-money', () => {
  test('the smart wallets prove themselves on three runners; the fourth they buy is at the top', async () => {
    const exited = () => ticker.coins.filter((coin) => coin.runner && coin.smartExited).length
    const fresh = () => ticker.coins.find((coin) => coin.runner && !coin.smartExited && exited() >= 3)
    for (let i = 0; i < 800 && !fresh(); i++) await ticker.step(STEP_S)
    const runner = fresh()!
    expect(runner).toBeDefined()
    for (const coin of ticker.coins) await indexed(coin)
    const { status, body, errors } = await post('/scan/smart-money', { interval: '24h' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.proven_wallets).toBeGreaterThanOrEqual(SMART_WALLETS.length)
    const item = body.items.find((entry: { token_address: string }) => entry.token_address === runner.mint)
    expect(item).toMatchObject({
      rank: 1,
      smart_wallets: SMART_WALLETS.length,
      smart_buys: SMART_WALLETS.length,
      smart_sells: 0,
    })
    // What the chain says they paid: the pool book's buys by the smart wallets.
    const smart = new Set(
      await Promise.all(SMART_WALLETS.map(async (name) => (await sandbox.world.signer(name)).address as string)),
    )
    const paid = sandbox.world.pools
      .tradesOf(runner.pool.address)
      .filter((trade) => smart.has(trade.wallet) && trade.side === 'buy')
      .reduce((sum, trade) => sum + Number(trade.quoteAmount) / 1e9, 0)
    expect(item.net_flow_sol).toBeCloseTo(paid, 3)
    expect(item.quick_scan).not.toBeNull()
  }, 120_000)
})

describe('the ingester', () => {
  test('a restart resumes from its cursor without double counting', async () => {
    await ingester.stop()
    for (let i = 0; i < 10; i++) await ticker.step(STEP_S)
    const again = startLaunchIngester(ctx)!
    try {
      await again.ready
      for (const coin of ticker.coins) await indexed(coin)
    } finally {
      await again.stop()
    }
  })

  test('no ingester and an empty index: LIMITED within the deadline, the index said missing', async () => {
    const empty = createApp(contextOn({ LAUNCHPAD_INGEST: 'false' }))
    const { status, body, ms } = await post('/launch/radar', {}, empty)
    expect(status).toBe(200)
    expect(body).toMatchObject({ data_quality: 'LIMITED', items: [], index: { ingesting: false, state: 'off' } })
    expect(body.missing_fields).toContain('launch_index')
    expect(ms).toBeLessThan(launchRadar.routes.launchRadar.deadlineMs + 500)
  })

  test('bad input: an unknown stage or preset, a limit over 50, progress over 100', async () => {
    expect((await post('/launch/radar', { stage: 'all' })).status).toBe(400)
    expect((await post('/launch/radar', { preset: 'yolo' })).status).toBe(400)
    expect((await post('/launch/radar', { limit: 51 })).status).toBe(400)
    expect((await post('/graduation/radar', { min_progress_pct: 101 })).status).toBe(400)
  })
})
