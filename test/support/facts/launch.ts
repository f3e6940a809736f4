/**
 * Facts of a launch for the launch signals' table tests (bundled-launch, sniper-activity,
 * launch-pattern): buys some slots after the pool opened, a launch, funding links.
 */
import type { Facts, LaunchFact, SwapRecord } from '../../../src/facts/types.ts'
import type { FactView, Signal } from '../../../src/pipeline/signal.ts'

export const OPENED = 1_000n
export const SUPPLY = 1_000_000n
export const buy = (wallet: string, slotsAfter: number, tokenAmount = 10_000n): SwapRecord => ({
  signature: `${wallet}-${slotsAfter}`,
  slot: OPENED + BigInt(slotsAfter),
  blockTime: null,
  side: 'buy',
  wallet,
  tokenAmount,
  quoteMint: 'q',
  quoteAmount: 1n,
})
export const launch = (
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
export const base = (trades: SwapRecord[], funders: Record<string, string> = {}): Partial<Facts> => ({
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
export const runOn = (signal: Signal<any>, facts: Partial<Facts>) =>
  signal.detect(view(facts), signal.meta.defaults, { mint: 'm', now: 0 })
