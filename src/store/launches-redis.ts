/**
 * The launchpad index in Redis (with REDIS_URL): the same index as the SQLite one (src/store/launches.ts),
 * shared by every instance; one of them ingests (src/launchpad-index/lease.ts holds the lease), all read.
 * Keys: `launch:seen:<signature>:<index>` (an event applied; kept two days), `launch:curve:<mint>` (a
 * hash), `launch:trades:<mint>` (a sorted set by slot; members carry a sequence so a slot's trades keep
 * their order), `launch:activity` (mints by their last activity), `launch:cursor`, `launch:status` (the
 * ingester's state, for the instances that do not ingest).
 */
import type { Redis } from './redis.ts'
import {
  type CurveRow,
  type IndexedEvent,
  type LaunchIndex,
  PUMP_INITIAL_VIRTUAL_SOL,
  PUMP_INITIAL_VIRTUAL_TOKENS,
  type SharedIngestStatus,
  type TradeRow,
} from './launches.ts'

const PREFIX = 'launch:'
const SEEN_TTL_S = 2 * 24 * 3_600

const curveOf = (mint: string, hash: Record<string, string>): CurveRow => ({
  mint,
  bondingCurve: hash.bonding_curve || null,
  name: hash.name ?? '',
  symbol: hash.symbol ?? '',
  creator: hash.creator || null,
  createdAt: hash.created_at ? Number(hash.created_at) : null,
  createdSlot: hash.created_slot ? BigInt(hash.created_slot) : null,
  virtualSolReserves: BigInt(hash.virtual_sol ?? PUMP_INITIAL_VIRTUAL_SOL),
  virtualTokenReserves: BigInt(hash.virtual_token ?? PUMP_INITIAL_VIRTUAL_TOKENS),
  complete: hash.complete === '1',
  completedAt: hash.completed_at ? Number(hash.completed_at) : null,
  lastTradeAt: hash.last_trade_at ? Number(hash.last_trade_at) : null,
})

export function redisLaunches(client: Redis): LaunchIndex {
  const send = (command: string, args: string[]) => client.send(command, args)
  const hash = async (mint: string) =>
    ((await send('HGETALL', [`${PREFIX}curve:${mint}`])) as Record<string, string> | null) ?? {}
  const touch = (mint: string, at: number) => send('ZADD', [`${PREFIX}activity`, 'GT', String(at), mint])

  return {
    async apply(events: readonly IndexedEvent[]) {
      let applied = 0
      for (const { signature, slot, index, event } of events) {
        const fresh = await send('SET', [`${PREFIX}seen:${signature}:${index}`, '1', 'NX', 'EX', String(SEEN_TTL_S)])
        if (fresh !== 'OK') continue
        applied++
        const key = `${PREFIX}curve:${event.mint}`
        const at = event.timestamp ?? 0
        await send('HSETNX', [key, 'virtual_sol', PUMP_INITIAL_VIRTUAL_SOL.toString()])
        await send('HSETNX', [key, 'virtual_token', PUMP_INITIAL_VIRTUAL_TOKENS.toString()])
        await send('ZADD', [`${PREFIX}activity`, 'NX', String(at), event.mint])
        if (event.kind === 'create') {
          if ((await send('HEXISTS', [key, 'created_slot'])) === 1) continue
          await send('HSET', [
            key,
            'bonding_curve',
            event.bondingCurve,
            'name',
            event.name,
            'symbol',
            event.symbol,
            'creator',
            event.creator ?? event.user,
            'created_at',
            String(event.timestamp ?? ''),
            'created_slot',
            slot.toString(),
          ])
          await touch(event.mint, at)
        } else if (event.kind === 'trade') {
          const sequence = (await send('INCR', [`${PREFIX}sequence`])) as number
          const member = `${String(sequence).padStart(12, '0')}|${JSON.stringify({
            signature,
            slot: slot.toString(),
            at: event.timestamp,
            user: event.user,
            isBuy: event.isBuy,
            sol: event.solAmount.toString(),
            tokens: event.tokenAmount.toString(),
            vt: event.virtualTokenReserves.toString(),
          })}`
          await send('ZADD', [`${PREFIX}trades:${event.mint}`, slot.toString(), member])
          const current = (await hash(event.mint)).reserves_slot
          if (current === undefined || BigInt(current) <= slot)
            await send('HSET', [
              key,
              'virtual_sol',
              event.virtualSolReserves.toString(),
              'virtual_token',
              event.virtualTokenReserves.toString(),
              'reserves_slot',
              slot.toString(),
            ])
          const last = Number((await hash(event.mint)).last_trade_at ?? 0)
          if (event.timestamp > last) await send('HSET', [key, 'last_trade_at', String(event.timestamp)])
          await touch(event.mint, at)
        } else {
          await send('HSET', [key, 'complete', '1', 'completed_at', String(event.timestamp)])
          await touch(event.mint, at)
        }
      }
      return applied
    },
    async curves({ since, limit }) {
      const mints = (await send('ZRANGE', [
        `${PREFIX}activity`,
        '+inf',
        String(since),
        'BYSCORE',
        'REV',
        'LIMIT',
        '0',
        String(limit),
      ])) as string[]
      return Promise.all(mints.map(async (mint) => curveOf(mint, await hash(mint))))
    },
    async curve(mint) {
      const found = await hash(mint)
      return Object.keys(found).length === 0 ? null : curveOf(mint, found)
    },
    async tradeCounts(mints) {
      const counts = await Promise.all(mints.map((mint) => send('ZCARD', [`${PREFIX}trades:${mint}`])))
      return new Map(mints.flatMap((mint, i) => (Number(counts[i]) > 0 ? [[mint, Number(counts[i])]] : [])))
    },
    async trades(mint): Promise<TradeRow[]> {
      const members = (await send('ZRANGE', [`${PREFIX}trades:${mint}`, '0', '-1'])) as string[]
      return members.map((member) => {
        const row = JSON.parse(member.slice(member.indexOf('|') + 1)) as Record<string, string | number | boolean>
        return {
          signature: String(row.signature),
          slot: BigInt(String(row.slot)),
          at: Number(row.at),
          user: String(row.user),
          isBuy: row.isBuy === true,
          solAmount: BigInt(String(row.sol)),
          tokenAmount: BigInt(String(row.tokens)),
          virtualTokenReserves: BigInt(String(row.vt)),
        }
      })
    },
    async cursor() {
      const text = (await send('GET', [`${PREFIX}cursor`])) as string | null
      if (!text) return null
      const { slot, signature } = JSON.parse(text) as { slot: string; signature: string }
      return { slot: BigInt(slot), signature }
    },
    async setCursor({ slot, signature }) {
      await send('SET', [`${PREFIX}cursor`, JSON.stringify({ slot: slot.toString(), signature })])
    },
    async publishStatus(status) {
      await send('SET', [`${PREFIX}status`, JSON.stringify(status)])
    },
    async sharedStatus() {
      const text = (await send('GET', [`${PREFIX}status`])) as string | null
      return text ? (JSON.parse(text) as SharedIngestStatus) : null
    },
  }
}
