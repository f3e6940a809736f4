/**
 * Builders of market and trade facts for the market-intel signals' tests: a token (`MINT`) trading
 * against wrapped SOL in one pool (`POOL`) unless told otherwise.
 */
import { tokenListFact } from '../../../src/facts/token-list.ts'
import type { IssuerEntry } from '../../../src/onchain/issuers.ts'
import type {
  FactName,
  Facts,
  MarketFact,
  PoolFact,
  SwapRecord,
  TokenListFact,
  TradesFact,
} from '../../../src/facts/types.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../../../src/onchain/programs.ts'
import type { DetectContext, FactView, Signal } from '../../../src/pipeline/signal.ts'
import type { DexPair } from '../../../src/sources/dexscreener.ts'

export const MINT = 'Tok1111111111111111111111111111111111111111'
export const POOL = 'Poo11111111111111111111111111111111111111111'
export const SOL = WRAPPED_SOL_MINT_ADDRESS as string
export const NOW = 1_800_000_000
export const HOUR = 3_600
export const DAY = 24 * HOUR

/** A DexScreener pair of MINT against SOL ($150), priced at `priceUsd`; every window overridable. */
export function pair(overrides: Partial<DexPair> & { priceUsd?: string | null } = {}): DexPair {
  const priceUsd = overrides.priceUsd === undefined ? '0.0015' : overrides.priceUsd
  return {
    chainId: 'solana',
    dexId: 'raydium',
    pairAddress: POOL,
    baseToken: { address: MINT, name: 'Token', symbol: 'TOK' },
    quoteToken: { address: SOL, name: 'Wrapped SOL', symbol: 'SOL' },
    priceNative: priceUsd === null ? '0.00001' : String(Number(priceUsd) / 150),
    priceUsd,
    txns: {
      m5: { buys: 0, sells: 0 },
      h1: { buys: 2, sells: 1 },
      h6: { buys: 6, sells: 4 },
      h24: { buys: 20, sells: 10 },
    },
    volume: { m5: 0, h1: 900, h6: 6_000, h24: 25_000 },
    priceChange: { m5: 0, h1: 1, h6: 2, h24: 3 },
    liquidity: { usd: 200_000, base: 66_666_666, quote: 666.67 },
    pairCreatedAt: (NOW - 30 * DAY) * 1000,
    ...overrides,
  }
}

/**
 * A swap of MINT (6 decimals) for SOL (9 decimals) `agoS` seconds before NOW, at `priceSol` SOL per
 * token, worth `sol` SOL.
 */
export function swap(
  agoS: number,
  side: 'buy' | 'sell',
  sol: number,
  priceSol = 0.00001,
  wallet = `wallet-${agoS}`,
): SwapRecord {
  return {
    signature: `sig-${agoS}-${side}-${wallet}`,
    slot: BigInt(NOW - agoS),
    blockTime: NOW - agoS,
    side,
    wallet,
    tokenAmount: BigInt(Math.round((sol / priceSol) * 1e6)),
    quoteMint: SOL,
    quoteAmount: BigInt(Math.round(sol * 1e9)),
  }
}

/** A trades fact of POOL, newest first as the fact lists them. */
export function trades(swaps: SwapRecord[], coveredSince: number | null = null): TradesFact {
  return {
    pool: POOL,
    swaps: [...swaps].sort((a, b) => b.blockTime! - a.blockTime!),
    coveredSince,
    complete24h: coveredSince === null || coveredSince <= NOW - DAY,
  }
}

export function market(...pairs: DexPair[]): MarketFact {
  return { pairs }
}

export function poolFact(overrides: Partial<PoolFact> = {}): PoolFact {
  return {
    address: POOL,
    program: 'program',
    venue: 'Raydium AMM v4',
    model: 'TRADITIONAL_AMM',
    baseMint: MINT,
    quoteMint: SOL,
    baseVault: 'vault-a',
    quoteVault: 'vault-b',
    baseReserve: 66_666_666_000_000n,
    quoteReserve: 666_670_000_000n,
    lp: null,
    liquidityUsd: 200_000,
    ...overrides,
  }
}

/** Runs a signal with its defaults over the given facts (absent = missing) at NOW. */
export function run(signal: Signal, facts: Partial<Facts>, context: Partial<DetectContext> = {}) {
  const view: FactView = { get: <K extends FactName>(name: K) => facts[name] as Facts[K] | undefined }
  return signal.detect(view, signal.meta.defaults, { mint: MINT, now: NOW, ...context })
}

/** The codes of an outcome's findings. */
export const codesOf = (outcome: { factors: { code: string }[] }) => outcome.factors.map((entry) => entry.code)

/** The fields an outcome lists as not measured. */
export const unmeasuredOf = (outcome: { factors: { code: string; evidence: Record<string, unknown> }[] }) =>
  outcome.factors.filter((entry) => entry.code === 'NOT_MEASURED').flatMap((entry) => entry.evidence.fields as string[])

/** A token-list entry: listed (unless said), with no audit figures published. */
export function tokenList(verified: boolean, tags: string[], listed = true): TokenListFact {
  return { ...tokenListFact(null), listed, verified, tags }
}

/** A registry entry for the test mint: a fiat stablecoin whose authorities are HOLDER's, unless said. */
export function issuerEntry(overrides: Partial<IssuerEntry> = {}): IssuerEntry {
  return {
    mint: MINT,
    symbol: 'USDX',
    name: 'Test Dollar',
    issuer: 'Test Issuer',
    kind: 'fiat_stablecoin',
    sources: [{ ref: 'https://issuer.example/mints', states: 'the mint', retrieved: '2026-11-24' }],
    ...overrides,
  }
}
