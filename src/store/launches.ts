/**
 * The launchpad index: the live pump.fun bonding curves, built from the program's events (creations,
 * trades, completions) by the ingester (src/launchpad-index/ingester.ts) and read by the radars. Applying an
 * event twice changes nothing (each is keyed by its transaction and its place in it), so a restart
 * that re-reads events it already holds does not double count.
 */
import type { Database } from '../runtime/sqlite-driver.ts'
import type { PumpEvent } from '../onchain/pump-events.ts'

/** An event as read from a transaction: where it sits, so it is applied once. */
export interface IndexedEvent {
  signature: string
  slot: bigint
  /** Its place among the transaction's pump events. */
  index: number
  event: PumpEvent
}

export interface CurveRow {
  mint: string
  bondingCurve: string | null
  name: string
  symbol: string
  creator: string | null
  /** Unix seconds and slot of the create event; null when the index joined later. */
  createdAt: number | null
  createdSlot: bigint | null
  virtualSolReserves: bigint
  virtualTokenReserves: bigint
  complete: boolean
  completedAt: number | null
  lastTradeAt: number | null
}

export interface TradeRow {
  signature: string
  slot: bigint
  at: number
  user: string
  isBuy: boolean
  solAmount: bigint
  tokenAmount: bigint
  virtualTokenReserves: bigint
}

/** The ingesting instance's state as it publishes it for the others (Redis), with when it last did. */
export interface SharedIngestStatus {
  state: string
  lastEventAt: number | null
  instance: string
  at: number
}

export interface LaunchIndex {
  /** Applies events (idempotent); answers how many were new. */
  apply(events: readonly IndexedEvent[]): Promise<number>
  /** Curves with a trade or a creation at or after `since` (Unix s), newest activity first. */
  curves(options: { since: number; limit: number }): Promise<CurveRow[]>
  curve(mint: string): Promise<CurveRow | null>
  /** A curve's trades, oldest first. */
  trades(mint: string): Promise<TradeRow[]>
  /**
   * How many trades each curve holds (a curve with none is absent). Trades are only ever added, so an
   * unchanged count means unchanged trades: readers keep what they read (plugins/launch-radar/service.ts).
   */
  tradeCounts(mints: readonly string[]): Promise<Map<string, number>>
  /** The newest transaction the ingester has read (where a restart resumes). */
  cursor(): Promise<{ slot: bigint; signature: string } | null>
  setCursor(cursor: { slot: bigint; signature: string }): Promise<void>
  /** The ingester's state, for instances sharing the index that do not ingest. */
  publishStatus(status: SharedIngestStatus): Promise<void>
  sharedStatus(): Promise<SharedIngestStatus | null>
}

interface CurveRecord {
  mint: string
  bonding_curve: string | null
  name: string
  symbol: string
  creator: string | null
  created_at: number | null
  created_slot: string | null
  virtual_sol: string
  virtual_token: string
  complete: number
  completed_at: number | null
  last_trade_at: number | null
}

/** pump.fun's initial virtual reserves: a curve the index first meets through a trade starts from them. */
export const PUMP_INITIAL_VIRTUAL_TOKENS = 1_073_000_000_000_000n
export const PUMP_INITIAL_VIRTUAL_SOL = 30_000_000_000n

const curveOf = (row: CurveRecord): CurveRow => ({
  mint: row.mint,
  bondingCurve: row.bonding_curve,
  name: row.name,
  symbol: row.symbol,
  creator: row.creator,
  createdAt: row.created_at,
  createdSlot: row.created_slot === null ? null : BigInt(row.created_slot),
  virtualSolReserves: BigInt(row.virtual_sol),
  virtualTokenReserves: BigInt(row.virtual_token),
  complete: row.complete === 1,
  completedAt: row.completed_at,
  lastTradeAt: row.last_trade_at,
})

/** The index in the embedded store's SQLite database. */
export function sqliteLaunches(db: Database): LaunchIndex {
  db.run(`CREATE TABLE IF NOT EXISTS launch_curves (
    mint TEXT PRIMARY KEY, bonding_curve TEXT, name TEXT NOT NULL, symbol TEXT NOT NULL, creator TEXT,
    created_at INTEGER, created_slot TEXT, virtual_sol TEXT NOT NULL, virtual_token TEXT NOT NULL,
    reserves_slot TEXT NOT NULL DEFAULT '0', complete INTEGER NOT NULL DEFAULT 0, completed_at INTEGER,
    last_trade_at INTEGER, activity_at INTEGER NOT NULL)`)
  db.run('CREATE INDEX IF NOT EXISTS launch_curves_activity ON launch_curves (activity_at)')
  db.run(`CREATE TABLE IF NOT EXISTS launch_trades (
    signature TEXT NOT NULL, idx INTEGER NOT NULL, mint TEXT NOT NULL, slot TEXT NOT NULL, at INTEGER NOT NULL,
    user TEXT NOT NULL, is_buy INTEGER NOT NULL, sol TEXT NOT NULL, tokens TEXT NOT NULL, virtual_token TEXT NOT NULL,
    PRIMARY KEY (signature, idx))`)
  db.run('CREATE INDEX IF NOT EXISTS launch_trades_mint ON launch_trades (mint, slot)')
  db.run(
    'CREATE TABLE IF NOT EXISTS launch_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), slot TEXT NOT NULL, signature TEXT NOT NULL)',
  )
  db.run(
    'CREATE TABLE IF NOT EXISTS launch_seen (signature TEXT NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (signature, idx))',
  )

  const seen = db.query<unknown, [string, number]>('INSERT OR IGNORE INTO launch_seen (signature, idx) VALUES (?, ?)')
  const ensure = db.query<unknown, [string, string, string, number]>(
    `INSERT OR IGNORE INTO launch_curves (mint, name, symbol, virtual_sol, virtual_token, activity_at)
     VALUES (?, '', '', ?, ?, ?)`,
  )
  const created = db.query<unknown, [string, string, string, string, number | null, string, number, string]>(
    `UPDATE launch_curves SET bonding_curve = ?, name = ?, symbol = ?, creator = ?, created_at = ?, created_slot = ?,
       activity_at = MAX(activity_at, ?) WHERE mint = ? AND created_slot IS NULL`,
  )
  const insertTrade = db.query<
    unknown,
    [string, number, string, string, number, string, number, string, string, string]
  >(
    `INSERT OR IGNORE INTO launch_trades (signature, idx, mint, slot, at, user, is_buy, sol, tokens, virtual_token)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const reserves = db.query<unknown, [string, string, string, number, number, string, string]>(
    `UPDATE launch_curves SET virtual_sol = ?, virtual_token = ?, reserves_slot = ?,
       last_trade_at = MAX(COALESCE(last_trade_at, 0), ?), activity_at = MAX(activity_at, ?)
     WHERE mint = ? AND CAST(reserves_slot AS INTEGER) <= CAST(? AS INTEGER)`,
  )
  const complete = db.query<unknown, [number, number, string]>(
    'UPDATE launch_curves SET complete = 1, completed_at = ?, activity_at = MAX(activity_at, ?) WHERE mint = ?',
  )

  const applyAll = db.transaction((events: readonly IndexedEvent[]) => {
    let applied = 0
    for (const { signature, slot, index, event } of events) {
      if (seen.run(signature, index).changes === 0) continue
      applied++
      const mint = event.mint
      const at = event.timestamp ?? 0
      ensure.run(mint, PUMP_INITIAL_VIRTUAL_SOL.toString(), PUMP_INITIAL_VIRTUAL_TOKENS.toString(), at)
      if (event.kind === 'create')
        created.run(
          event.bondingCurve,
          event.name,
          event.symbol,
          event.creator ?? event.user,
          event.timestamp,
          slot.toString(),
          at,
          mint,
        )
      else if (event.kind === 'trade') {
        insertTrade.run(
          signature,
          index,
          mint,
          slot.toString(),
          event.timestamp,
          event.user,
          event.isBuy ? 1 : 0,
          event.solAmount.toString(),
          event.tokenAmount.toString(),
          event.virtualTokenReserves.toString(),
        )
        reserves.run(
          event.virtualSolReserves.toString(),
          event.virtualTokenReserves.toString(),
          slot.toString(),
          event.timestamp,
          event.timestamp,
          mint,
          slot.toString(),
        )
      } else complete.run(event.timestamp, event.timestamp, mint)
    }
    return applied
  })
  const listCurves = db.query<CurveRecord, [number, number]>(
    'SELECT * FROM launch_curves WHERE activity_at >= ? ORDER BY activity_at DESC LIMIT ?',
  )
  const oneCurve = db.query<CurveRecord, [string]>('SELECT * FROM launch_curves WHERE mint = ?')
  const listTrades = db.query<
    {
      signature: string
      slot: string
      at: number
      user: string
      is_buy: number
      sol: string
      tokens: string
      virtual_token: string
    },
    [string]
  >('SELECT * FROM launch_trades WHERE mint = ? ORDER BY CAST(slot AS INTEGER), rowid')
  const countTrades = db.query<{ mint: string; n: number }, [string]>(
    'SELECT mint, COUNT(*) AS n FROM launch_trades WHERE mint IN (SELECT value FROM json_each(?)) GROUP BY mint',
  )
  const readCursor = db.query<{ slot: string; signature: string }, []>('SELECT slot, signature FROM launch_cursor')
  const writeCursor = db.query<unknown, [string, string]>(
    'INSERT INTO launch_cursor (id, slot, signature) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET slot = excluded.slot, signature = excluded.signature',
  )

  let shared: SharedIngestStatus | null = null
  return {
    async apply(events) {
      return applyAll(events)
    },
    async publishStatus(status) {
      shared = status
    },
    async sharedStatus() {
      return shared
    },
    async curves({ since, limit }) {
      return listCurves.all(since, limit).map(curveOf)
    },
    async curve(mint) {
      const row = oneCurve.get(mint)
      return row ? curveOf(row) : null
    },
    async trades(mint) {
      return listTrades.all(mint).map((row) => ({
        signature: row.signature,
        slot: BigInt(row.slot),
        at: row.at,
        user: row.user,
        isBuy: row.is_buy === 1,
        solAmount: BigInt(row.sol),
        tokenAmount: BigInt(row.tokens),
        virtualTokenReserves: BigInt(row.virtual_token),
      }))
    },
    async tradeCounts(mints) {
      return new Map(countTrades.all(JSON.stringify(mints)).map((row) => [row.mint, row.n]))
    },
    async cursor() {
      const row = readCursor.get()
      return row ? { slot: BigInt(row.slot), signature: row.signature } : null
    },
    async setCursor({ slot, signature }) {
      writeCursor.run(slot.toString(), signature)
    },
  }
}

/** The state of whoever follows the launchpad into the index (src/launchpad-index/ingester.ts). */
export interface IngesterStatus {
  /** `standby`: another instance holds the lease and ingests (Redis); the state then is the leader's when it publishes it. */
  state: 'starting' | 'catching_up' | 'live' | 'reconnecting' | 'stopped' | 'standby'
  /** Events applied since start (new ones; a re-read counts nothing). */
  events: number
  lastEventAt: number | null
  reconnects: number
}

/** What the service holds as its launchpad follower: its state, and how to stop it. */
export interface LaunchFollower {
  readonly status: IngesterStatus
  readonly ready: Promise<void>
  stop(): Promise<void>
}
