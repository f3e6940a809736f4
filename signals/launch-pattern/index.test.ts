import { describe, expect, test } from 'bun:test'
import type { Facts, LaunchFact, SwapRecord } from '../../src/facts/types.ts'
import type { FactView, Signal } from '../../src/pipeline/signal.ts'
import bundledLaunch from '../bundled-launch/index.ts'
import sniperActivity from '../sniper-activity/index.ts'
import launchPattern from './index.ts'

const OPENED = 1_000n
const SUPPLY = 1_000_000n
const buy = (wallet: string, slotsAfter: number, tokenAmount = 10_000n): SwapRecord => ({
  signature: `${wallet}-${slotsAfter}`,
  slot: OPENED + BigInt(slotsAfter),
  blockTime: null,
  side: 'buy',
  wallet,
  tokenAmount,
  quoteMint: 'q',
  quoteAmount: 1n,
})
const launch = (
  firstTrades: SwapRecord[],
  mainPool: string | null = 'pool',
  poolOpenedSlot: bigint | null = OPENED,
): LaunchFact => ({
  creationSignature: 's',
  creator: 'dev',
  createdSlot: 900n,
  createdAt: null,
  mainPool,
  poolOpenedSlot,
  firstTrades,
  firstTradesComplete: true,
})
const poolFacts = { pools: { pools: [] }, market: { pairs: [] }, launchpad: { pumpFun: null } }
const base = (trades: SwapRecord[], funders: Record<string, string> = {}): Partial<Facts> => ({
  launch: launch(trades),
  mint: {
    program: 'spl-token',
    supply: SUPPLY,
    decimals: 6,
    mintAuthority: null,
    freezeAuthority: null,
    extensions: {} as never,
  },
  funding: { wallets: Object.entries(funders).map(([wallet, funder]) => ({ wallet, funder, amount: 1n, slot: 1n })) },
  ...poolFacts,
})
const view = (facts: Partial<Facts>): FactView => ({ get: (name) => facts[name] as never })
const run = (signal: Signal<any>, facts: Partial<Facts>) =>
  signal.detect(view(facts), signal.meta.defaults, { mint: 'm', now: 0 })

describe('bundled-launch', () => {
  const bundle = [buy('a', 0), buy('b', 0), buy('c', 0)]
  test('three developer-funded wallets in the opening slot: a bundle', () => {
    const outcome = run(bundledLaunch, base(bundle, { a: 'dev', b: 'dev', c: 'dev' }))
    expect(outcome.fields).toEqual({ bundled_launch_detected: true })
    expect(outcome.factors[0]).toMatchObject({
      code: 'BUNDLED_LAUNCH',
      evidence: { linked_buyers: ['a', 'b', 'c'], supply_bought_pct: 3 },
    })
  })
  test('same-slot buyers funded independently: reported, not a bundle', () => {
    expect(run(bundledLaunch, base(bundle, { a: 'x', b: 'y', c: 'z' }))).toMatchObject({
      fields: { bundled_launch_detected: false },
      factors: [{ code: 'SAME_SLOT_BUYERS' }],
    })
  })
  test("the developer's own opening buy and buyers a slot later are not a bundle", () => {
    expect(
      run(bundledLaunch, base([buy('dev', 0), buy('a', 1), buy('b', 1), buy('c', 1)], { a: 'dev', b: 'dev', c: 'dev' }))
        .fields,
    ).toEqual({ bundled_launch_detected: false })
  })
  test('a bundle cannot be confirmed without funding: unknown', () => {
    expect(run(bundledLaunch, { ...base(bundle), funding: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['funding'],
      fields: {},
    })
  })
  test('no pool because the pools could not be read is unknown, not "never traded"', () => {
    expect(run(bundledLaunch, { ...base([]), launch: launch([], null, null), pools: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['pools'],
    })
    expect(run(bundledLaunch, { ...base([]), launch: launch([], null, null) })).toMatchObject({
      status: 'ok',
      fields: { bundled_launch_detected: false },
    })
  })
})

describe('sniper-activity', () => {
  const snipers = (count: number, tokenAmount = 1_000n) =>
    Array.from({ length: count }, (_, i) => buy(`s${i}`, 1 + (i % 3), tokenAmount))
  const cases: [string, SwapRecord[], string][] = [
    ['eight wallets in the three slots after opening: HIGH', snipers(8), 'HIGH'],
    ['a fifth of the supply by two wallets: HIGH', snipers(2, 100_000n), 'HIGH'],
    ['three wallets: MEDIUM', snipers(3), 'MEDIUM'],
    ['two small buys: LOW', snipers(2), 'LOW'],
    [
      'buyers in the opening slot (bundle) or after the window do not count',
      [buy('a', 0), buy('b', 0), buy('c', 0), buy('d', 4), buy('e', 5), buy('f', 6)],
      'LOW',
    ],
    ["the developer's own buys do not count", [buy('dev', 1), buy('dev', 2), buy('dev', 3)], 'LOW'],
  ]
  for (const [name, trades, level] of cases)
    test(name, () => expect(run(sniperActivity, base(trades)).fields).toEqual({ sniper_activity: level }))
  test('opening unknown (history too long): unknown, no level', () => {
    expect(run(sniperActivity, { ...base([]), launch: launch([], 'pool', null) })).toMatchObject({
      status: 'unknown',
      fields: {},
    })
  })
})

describe('launch-pattern', () => {
  test('a developer-funded wallet buying in the launch window: STEALTH_LAUNCH', () => {
    expect(run(launchPattern, base([buy('a', 2)], { a: 'dev' })).fields).toEqual({ launch_pattern: 'STEALTH_LAUNCH' })
  })
  test('the developer buying over a tenth of the supply at launch: STEALTH_LAUNCH', () => {
    expect(run(launchPattern, base([buy('dev', 0, 150_000n)])).fields).toEqual({ launch_pattern: 'STEALTH_LAUNCH' })
  })
  test('unrelated first buyers and a small developer buy: FAIR_LAUNCH', () => {
    expect(
      run(launchPattern, base([buy('dev', 0, 30_000n), buy('a', 1), buy('b', 2)], { a: 'x', b: 'y' })).fields,
    ).toEqual({ launch_pattern: 'FAIR_LAUNCH' })
  })
  test('never traded, or facts missing: UNKNOWN', () => {
    expect(run(launchPattern, { ...base([]), launch: launch([], null, null) }).fields).toEqual({
      launch_pattern: 'UNKNOWN',
    })
    expect(run(launchPattern, { ...base([]), funding: undefined })).toMatchObject({
      status: 'unknown',
      fields: { launch_pattern: 'UNKNOWN' },
    })
  })
})
