import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { SCHEMA_VERSION } from '../../src/kernel/version.ts'
import type { TokenContext } from '../../src/facts/token-context.ts'
import { createdMints, liquidityPull } from '../../src/facts/dev-history.ts'
import { funderOf } from '../../src/facts/funding.ts'
import { type ParsedTransaction, type SignatureEntry, signatures, transactions } from '../../src/facts/history.ts'
import { withFacts } from '../../src/facts/index.ts'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { DEEP_DIVE_POLICY } from '../../src/pipeline/policies.ts'
import { policyOption } from '../../src/pipeline/scan.ts'
import type { WalletIntelResult } from './schemas.ts'
import { figuresOf, styleOf, verdictOf, worthinessOf } from './profile.ts'
import { positionsOf, type WalletTrade, walletTrades } from './wallet-trades.ts'
import { count, pct, usd } from '../../src/rendering/format.ts'

type Answer = Static<typeof WalletIntelResult>

const iso = (unixS: number | null | undefined) =>
  typeof unixS === 'number' ? new Date(unixS * 1000).toISOString() : null

/**
 * Wallet intelligence (docs/catalogue.md §Wallet intel): the wallet's newest transactions (as many as
 * the RPC provider's limits allow before the deadline), its trades and positions, its first funder when
 * the whole history was read, and — for the sniper rule — the launches of the tokens it bought last.
 * `facts` is a read context over the wallet (its token facts are not used).
 */
export function walletIntel(ctx: ServiceContext, wallet: string, deadlineAt: number): Promise<Answer> {
  return withFacts(wallet, ctx.sources, deadlineAt, (facts) => intelOf(ctx, facts, wallet, deadlineAt), {
    logger: ctx.logger,
  })
}

/** The answer from the wallet's read context (`facts`, open for the whole read). */
async function intelOf(ctx: ServiceContext, facts: TokenContext, wallet: string, deadlineAt: number): Promise<Answer> {
  const missing = new Set<string>()
  const depth = facts.historyDepth
  const usdMints = new Set([USDC_MINT_ADDRESS as string, ctx.config.SOLANA_PAYMENT_ASSET ?? USDC_MINT_ADDRESS])
  const [entries, solUsd] = await Promise.all([
    facts.untilDeadline(signatures(facts, wallet, depth.walletTransactions + 1)).catch(() => {
      missing.add('history')
      return [] as SignatureEntry[]
    }),
    solPrice(facts).catch(() => {
      missing.add('sol_usd')
      return null
    }),
  ])
  const complete = !missing.has('history') && entries.length <= depth.walletTransactions
  const read = entries.slice(0, depth.walletTransactions)
  const parsed = await facts
    .untilDeadline(
      transactions(
        facts,
        read.filter((entry) => !entry.failed).map((entry) => entry.signature),
      ),
    )
    .catch(() => {
      if (read.length > 0) missing.add('transactions')
      return [] as ParsedTransaction[]
    })
  const trades = walletTrades(wallet, parsed, usdMints)
  const positions = positionsOf(trades, solUsd)
  const figures = figuresOf(trades, positions)
  const launches = await launchesOf(ctx, trades, depth.walletLaunches, deadlineAt, missing)
  const style = styleOf({ trades, figures, launches })
  // Tokens it created, and those whose liquidity it pulled (the deep dive's developer rules).
  const created = new Set(parsed.flatMap((transaction) => createdMints(transaction, wallet)).map((entry) => entry.mint))
  const rugs = new Set(
    parsed
      .flatMap((transaction) => liquidityPull(transaction, wallet))
      .map((pull) => pull.mint)
      .filter((mint) => created.has(mint)),
  ).size
  const worthiness = worthinessOf(figures, style, rugs)
  const verdict = verdictOf(figures, style, rugs)
  // The first funding is the oldest transaction, known only when the whole history was read.
  const oldest = complete ? parsed.find((transaction) => transaction.signature === read.at(-1)?.signature) : undefined
  const funding = funderOf(oldest, wallet)
  const times = read.map((entry) => entry.blockTime).filter((time): time is number => time !== null)
  return {
    schema_version: SCHEMA_VERSION,
    data_quality:
      missing.has('history') || missing.has('transactions') ? 'LIMITED' : missing.size > 0 ? 'PARTIAL' : 'FULL',
    missing_fields: [...missing],
    wallet_address: wallet,
    coverage: {
      transactions_read: parsed.length,
      history_complete: complete,
      from: iso(times.length ? Math.min(...times) : null),
      to: iso(times.length ? Math.max(...times) : null),
      sol_usd: solUsd,
    },
    ...figures,
    funding_origin: {
      funder: funding.funder,
      amount_sol: funding.funder ? Number(funding.amount) / 1e9 : null,
      at: funding.funder ? iso(oldest?.blockTime) : null,
      exchange: funding.funder ? (ctx.sources.exchanges?.exchangeOf(funding.funder) ?? null) : null,
    },
    tokens_created: created.size,
    rugs,
    behaviour_style: style,
    launches_assessed: launches.assessed,
    launches_sniped: launches.sniped,
    copy_trade_worthiness: worthiness,
    verdict,
    summary: summarise(wallet, figures, style, verdict, complete, parsed.length, rugs),
  }
}

/** Today's SOL price in USD from the token list (Jupiter), or null without it. */
async function solPrice(facts: TokenContext): Promise<number | null> {
  const jupiter = facts.sources.jupiter
  if (!jupiter) throw new Error('no JUPITER_URL: no SOL price')
  const usd = await facts.untilDeadline(jupiter.solUsd(facts.meter))
  if (usd === null) throw new Error('the token list gives no SOL price')
  return usd
}

/**
 * For the tokens the wallet bought last (up to `count`), whether its first buy came within the sniper
 * window of the pool opening: each token's launch fact (shared with the scanners' caches).
 */
async function launchesOf(
  ctx: ServiceContext,
  trades: readonly WalletTrade[],
  count: number,
  deadlineAt: number,
  missing: Set<string>,
): Promise<{ assessed: number; sniped: number }> {
  const firstBuys = new Map<string, bigint>()
  for (const trade of trades)
    if (trade.side === 'buy' && !firstBuys.has(trade.mint)) firstBuys.set(trade.mint, trade.slot)
  const recent = [...firstBuys.keys()].slice(-count)
  // The deep dive's sniper window: a buy within this many slots of the pool opening is a snipe.
  const snipeSlots = BigInt(policyOption(ctx.signals.get('sniper-activity'), DEEP_DIVE_POLICY, 'windowSlots'))
  const outcomes = await Promise.all(
    recent.map((mint) =>
      withFacts(
        mint,
        ctx.sources,
        deadlineAt,
        async (token) => {
          const launch = await token.fact('launch')
          if (!launch || launch.poolOpenedSlot === null) return undefined
          return firstBuys.get(mint)! <= launch.poolOpenedSlot + snipeSlots
        },
        { logger: ctx.logger },
      ),
    ),
  )
  const known = outcomes.filter((outcome): outcome is boolean => outcome !== undefined)
  if (known.length < recent.length) missing.add('launches')
  return { assessed: known.length, sniped: known.filter(Boolean).length }
}

function summarise(
  wallet: string,
  figures: ReturnType<typeof figuresOf>,
  style: string,
  verdict: string,
  complete: boolean,
  read: number,
  rugs: number,
): string {
  const scope = complete
    ? `its whole history (${count(read, 'transaction')})`
    : `its last ${count(read, 'transaction')}`
  const pulled = rugs > 0 ? ` It pulled the liquidity of ${count(rugs, 'token')} it created.` : ''
  if (figures.total_trades === 0) return `${wallet}: no trade in ${scope}.${pulled}`
  const record =
    figures.closed_positions > 0
      ? `${count(figures.closed_positions, 'round trip')}, ${pct(figures.win_rate_pct)} won, ${figures.realized_pnl_usd === null ? 'result unknown in USD' : `${figures.realized_pnl_usd > 0 ? '+' : ''}${usd(figures.realized_pnl_usd)} realized`}`
      : 'no round trip closed'
  return `${wallet}: ${count(figures.total_trades, 'trade')} in ${scope}; ${record}. Style ${style.replace('_', '-')}, verdict ${verdict.toLowerCase().replaceAll('_', ' ')}.${pulled}`
}
