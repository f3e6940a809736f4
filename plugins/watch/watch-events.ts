/**
 * The position guard's events (docs/watch.md): what a watch can be told, each with a severity, the
 * evidence (slot, transaction signature, values before and after) and a plain sentence. One table: the
 * route's schema, the docs and the tests read it.
 */
import { createHash } from 'node:crypto'
import type { AlertExit } from '../trade/service.ts'

export const EVENT_KINDS = [
  'liquidity_removed',
  'lp_unlocked',
  'lp_lock_expiring',
  'lp_moved',
  'mint_used',
  'mint_authority_changed',
  'freeze_used',
  'freeze_authority_changed',
  'transfer_fee_raised',
  'transfer_hook_changed',
  'permanent_delegate_used',
  'default_state_changed',
  'paused',
  'metadata_renamed',
  'insider_selling',
  'sell_route_failing',
  'grade_fell',
] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** The kinds this engine detects: all of them (`sell_route_failing` and `grade_fell` need its probes). */
export const DETECTED_KINDS: readonly EventKind[] = EVENT_KINDS

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const
export type EventSeverity = (typeof SEVERITIES)[number]

/** A value as an event carries it: amounts as decimal strings (they exceed a JSON number). */
export type EventValue = string | number | boolean | null
export type EventValues = Record<string, EventValue>

/** What a diff finds, before the engine names it (watch, subject, slot, signature). */
export interface DetectedEvent {
  kind: EventKind
  severity: EventSeverity
  /**
   * What this event is about within the subject (a pool, an insider's account, a lock), so one change
   * read twice — by the live stream and again by the catch-up — gets one event id.
   */
  key: string
  before: EventValues
  after: EventValues
  sentence: string
  /** Set for events whose evidence is a window rather than one transaction: the window's first slot. */
  windowFrom?: number
  /** Extra fields some kinds carry (metadata_renamed: `impersonates`). */
  impersonates?: { mint: string; symbol: string; name: string }
}

/** An event as stored, streamed and sent (the webhook's body). */
export interface WatchEvent {
  event_id: string
  watch_id: string
  kind: EventKind
  severity: EventSeverity
  subject: { kind: 'token' | 'wallet'; address: string }
  slot: number
  signature: string | null
  before: EventValues
  after: EventValues
  sentence: string
  detected_at: string
  impersonates?: { mint: string; symbol: string; name: string }
  /**
   * With `exit` on the watch, high and critical events carry the holder's exit ready to sign (or why none
   * was built), built once at detection: plugins/watch/alert-exit.ts.
   */
  exit?: AlertExit
}

/**
 * The event's id: the same change seen twice (live, then by the catch-up) gets the same id, so the store
 * keeps it once and a receiver de-duplicates by it. What identifies a change: its watch, kind and key,
 * and the transaction that made it — or, for a window's total or a time-based event, the window's first
 * slot or the key alone.
 */
export function eventIdOf(watchId: string, detected: DetectedEvent, signature: string | null, slot: number): string {
  const evidence =
    detected.windowFrom !== undefined
      ? `window:${detected.windowFrom}`
      : detected.kind === 'lp_lock_expiring' || detected.kind === 'lp_unlocked'
        ? 'time'
        : (signature ?? `slot:${slot}`)
  return createHash('sha256')
    .update(`${watchId}|${detected.kind}|${detected.key}|${evidence}`)
    .digest('base64url')
    .slice(0, 22)
}
