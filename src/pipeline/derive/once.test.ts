import { describe, expect, test } from 'bun:test'
import { BUILTIN_SIGNALS } from '../../../signals/index.ts'
import type { FactName, Facts, MintFact, TradesFact } from '../../facts/types.ts'
import type { TokenContext } from '../../facts/token-context.ts'
import { issuerEntry, market, MINT, NOW, pair, swap, trades } from '../../../test/support/facts/index.ts'
import { MARKET_INTEL_POLICY } from '../policies.ts'
import { SignalRegistry } from '../registry.ts'
import { runScan } from '../scan.ts'
import type { FactView } from '../signal.ts'
import { tokenExemption } from './exemption.ts'
import { marketPairs } from './market-pairs.ts'
import { derivedOnce } from './once.ts'
import { marketInputs, tradeTape } from './trade-tape.ts'

const registry = new SignalRegistry(BUILTIN_SIGNALS)
/** The exemption reads only the mint's authorities. */
const REVOKED = { mintAuthority: null, freezeAuthority: null } as MintFact

/** A trades fact that counts how often its swaps are read: what deriving the tape costs. */
function countedTrades(): { fact: TradesFact; reads: () => number } {
  const base = trades([swap(60, 'buy', 2), swap(120, 'sell', 1), swap(7_200, 'buy', 3)])
  let reads = 0
  const fact = { ...base }
  Object.defineProperty(fact, 'swaps', {
    get() {
      reads++
      return base.swaps
    },
  })
  return { fact, reads: () => reads }
}

/** A view over `facts`, counting each fact read. */
function countingView(facts: Partial<Facts>): { view: FactView; gets: Map<FactName, number> } {
  const gets = new Map<FactName, number>()
  const view: FactView = {
    get: <K extends FactName>(name: K) => {
      gets.set(name, (gets.get(name) ?? 0) + 1)
      return facts[name] as Facts[K] | undefined
    },
  }
  return { view, gets }
}

/** A context over fixed facts (runScan reads only these members). */
function contextOf(facts: Partial<Facts>): TokenContext {
  return {
    mint: MINT,
    gather: async () => {},
    fact: async (name: FactName) => facts[name],
    missing: () => [],
  } as unknown as TokenContext
}

describe('derived facts, once per scan', () => {
  test('derivedOnce computes once per view and key', () => {
    const { view } = countingView({})
    let runs = 0
    const derive = () => ++runs
    expect(derivedOnce(view, 'a', derive)).toBe(1)
    expect(derivedOnce(view, 'a', derive)).toBe(1)
    expect(derivedOnce(view, 'b', derive)).toBe(2)
    expect(derivedOnce(countingView({}).view, 'a', derive)).toBe(3)
  })

  test('the trade tape: every reader of one view gets the one tape, its trades read once', () => {
    const { fact, reads } = countedTrades()
    const { view, gets } = countingView({ market: market(pair()), trades: fact })
    const tape = tradeTape(view, MINT)
    expect(tape?.trades).toHaveLength(3)
    // What the market signals ask for, one after another, on one scan.
    for (let i = 0; i < 4; i++) expect(marketInputs(view, MINT).tape).toBe(tape)
    expect(tradeTape(view, MINT)).toBe(tape)
    expect(gets.get('trades')).toBe(1)
    expect(reads()).toBe(1)
  })

  test('pairs and the exemption are derived once per view', () => {
    const { view, gets } = countingView({ market: market(pair()), issuer: issuerEntry(), mint: REVOKED })
    const pairs = marketPairs(view, MINT)
    expect(pairs).toHaveLength(1)
    expect(marketPairs(view, MINT)).toBe(pairs)
    expect(gets.get('market')).toBe(1)
    const exemption = tokenExemption(view)
    expect(tokenExemption(view)).toBe(exemption)
    expect(gets.get('issuer')).toBe(1)
    expect(marketPairs(countingView({}).view, MINT)).toEqual([])
  })

  test('a market intel scan derives the tape once, for all its signals; the next scan derives its own', async () => {
    const { fact, reads } = countedTrades()
    const facts = { market: market(pair()), trades: fact }
    const tapeReaders = registry
      .forScanner('market_intel')
      .filter((signal) => signal.meta.facts.includes('trades'))
      .map((signal) => signal.meta.id)
    expect(tapeReaders.length).toBeGreaterThanOrEqual(4)
    const scan = await runScan(contextOf(facts), registry, MARKET_INTEL_POLICY, NOW)
    expect(scan.fields.large_txs_last_hour).toBeDefined()
    expect(reads()).toBe(1)
    await runScan(contextOf(facts), registry, MARKET_INTEL_POLICY, NOW)
    expect(reads()).toBe(2)
  })
})
