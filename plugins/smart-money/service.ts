import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import type { Snapshot } from '../../src/feeds/feed-answer.ts'
import { focusItem, launchpadFeed, type Read, stageOf } from '../../src/launchpad-index/reading.ts'
import { smartFlows, walletRecords } from '../../src/launchpad-index/smart-money.ts'
import {
  SMART_INTERVALS,
  SMART_LIMIT,
  type SmartMoneyBody,
  type SmartMoneyItem,
  type SmartMoneyResult,
} from './schemas.ts'
import { amount, count } from '../../src/rendering/format.ts'

/** Smart money: the index's proven wallets, and the coins they bought in the interval net of their sells. */
export function smartMoney(
  ctx: ServiceContext,
  request: Static<typeof SmartMoneyBody>,
  deadlineAt: number,
): Promise<Static<typeof SmartMoneyResult>> {
  const interval = request.interval ?? '1h'
  const limit = request.limit ?? SMART_LIMIT.default
  return launchpadFeed(ctx, request.token_address, deadlineAt, {
    solPrice: true,
    select({ reads, nowS }) {
      const trades = new Map(reads.map((read) => [read.curve.mint, read.trades]))
      const { proven } = walletRecords(trades)
      const flows = smartFlows(trades, proven, nowS - SMART_INTERVALS[interval])
      const listed = flows.slice(0, limit)
      return { proven, listed, mints: listed.map((flow) => flow.mint) }
    },
    answer({ reads, nowS, index, sol }, { proven, listed }, { grades, focusRead, focusGrade }) {
      const byMint = new Map(reads.map((read) => [read.curve.mint, read]))
      const toItem = (
        read: Read,
        flow: { netFlowSol: number; buys: number; sells: number; wallets: string[] } | undefined,
        rank: number | null,
        grade: Snapshot,
      ): Static<typeof SmartMoneyItem> => ({
        rank,
        token_address: read.curve.mint,
        symbol: read.curve.symbol,
        name: read.curve.name,
        smart_wallets: flow?.wallets.length ?? 0,
        smart_buys: flow?.buys ?? 0,
        smart_sells: flow?.sells ?? 0,
        net_flow_sol: flow?.netFlowSol ?? 0,
        net_flow_usd: sol === null ? null : Math.round((flow?.netFlowSol ?? 0) * sol * 100) / 100,
        bonding_progress_pct: read.reading.progressPct,
        stage: stageOf(read.curve, read.reading),
        quick_scan: grade,
      })
      const items = listed.map((flow, i) => toItem(byMint.get(flow.mint)!, flow, i + 1, grades[i] ?? null))
      const focus = focusItem(items, focusRead, (read) => {
        const flow = smartFlows(new Map([[read.curve.mint, read.trades]]), proven, nowS - SMART_INTERVALS[interval])[0]
        return toItem(read, flow, null, focusGrade)
      })
      const top = items[0]
      return {
        body: { interval, source: 'launchpad_index' as const, proven_wallets: proven.size, index, items, focus },
        summary: () =>
          top
            ? `${count(proven.size, 'proven wallet')}; over ${interval} they bought ${count(items.length, 'coin')} on net, led by ${top.symbol || top.token_address} (${count(top.smart_wallets, 'wallet')}, ${top.net_flow_sol > 0 ? '+' : ''}${amount(top.net_flow_sol, 'SOL')}).`
            : proven.size === 0
              ? `No proven wallets in the index yet: nothing bought on net over ${interval}.`
              : `${count(proven.size, 'proven wallet')}; none bought on net over ${interval}.`,
      }
    },
  })
}
