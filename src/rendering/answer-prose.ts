/**
 * What every renderer of an answer reads to put it in words — the CLI (client/render.ts), the web card
 * (web/app.ts), MCP text content (plugins/mcp) and the deep dive's report prose: which members a
 * `missing_fields` entry leaves unmeasured, and the quick scan's scope in one line. It imports only the
 * formatter beside it (no imports either): the client and the web page carry both as they are.
 */
import { NOT_MEASURED } from './format.ts'

/** What a renderer shows for a member that was not measured (docs/data-quality.md): the formatter's words. */
export const NOT_MEASURED_TEXT = NOT_MEASURED

/**
 * The answers whose members a renderer shows, by their `missing_fields`: each member names the facts
 * without which it is not measured (it then holds null or its documented neutral value). A member whose
 * own name (or, nested, its last part) is in `missing_fields` is not measured either, and so is one the
 * answer leaves out (the deep dive drops what it could not measure: those list no facts here, their
 * absence says it). Nested members are dotted. docs/data-quality.md, "Neutral values".
 */
export const MEMBER_FACTS = {
  quick_scan: {
    symbol: ['metadata'],
    name: ['metadata'],
    mint_authority_revoked: ['mint'],
    freeze_authority_revoked: ['mint'],
    authority_exempt: ['mint', 'issuer'],
    top_10_holder_pct: ['holders'],
    holders_source: ['holders'],
    liquidity_check: ['market'],
    lp_burned: ['pools'],
    lp_model: ['pools'],
    lp_status: ['pools'],
    liquidity_lock_status: ['pools', 'lp_locks'],
    launch_anomaly: ['market'],
  },
  market_intel: {
    current_price_usd: ['market'],
    price_change_5m_pct: ['market'],
    price_change_15m_pct: ['trades'],
    price_change_1h_pct: ['market'],
    price_change_24h_pct: ['market'],
    pct_from_ath: ['trades'],
    ath_price_usd: ['trades'],
    volume_1h_usd: ['market'],
    volume_24h_usd: ['market'],
    liquidity_usd: ['market'],
    buy_sell_ratio: ['market'],
    buy_pressure: ['market'],
    sell_pressure: ['market'],
    large_txs_last_hour: ['trades'],
    volatility: ['market'],
    token_health: ['market'],
  },
  deep_dive: {
    mint_authority_revoked: ['mint'],
    freeze_authority_revoked: ['mint'],
    authority_exempt: ['mint', 'issuer'],
    top_10_holder_pct: ['holders'],
    holders_source: ['holders'],
    lp_burned: ['pools'],
    lp_model: ['pools'],
    lp_status: ['pools'],
    launch_pattern: ['launch'],
    is_honeypot: [],
    liquidity_lock_status: [],
    'liquidity_lock_status.lock_duration_days': [],
    bundled_launch_detected: [],
    sniper_activity: [],
    pump_launchpad_launched: [],
    wallet_analysis: [],
    dev_wallet_analysis: [],
    trading_pattern: [],
    volume_24h: [],
    price_change_24h_pct: [],
    momentum_score: [],
  },
  // `sellable` is null when unmeasured (UNKNOWN), and false when the mint alone blocks the sale.
  exit_check: {
    expected_return_usdc: ['sell_quote'],
    exit_price_impact_pct: ['sell_quote'],
    exit_loss_pct: ['sell_quote'],
    route_count: ['sell_quote'],
    transfer_fee_bps: ['mint'],
    transfer_fee_can_rise: ['mint'],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>

export type RenderedAnswer = keyof typeof MEMBER_FACTS
export type MemberOf<A extends RenderedAnswer> = keyof (typeof MEMBER_FACTS)[A] & string

/** Whether `member` of an answer of kind `kind` was not measured, by the answer's `missing_fields`. */
export function unmeasured<A extends RenderedAnswer>(
  answer: { missing_fields: readonly string[] },
  kind: A,
  member: MemberOf<A>,
): boolean {
  const facts: readonly string[] = (MEMBER_FACTS[kind] as Record<string, readonly string[]>)[member] ?? []
  const path = member.split('.')
  const value = path.reduce<unknown>(
    (object, key) =>
      object !== null && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined,
    answer,
  )
  return (
    value === undefined ||
    answer.missing_fields.some((name) => name === member || name === path.at(-1) || facts.includes(name))
  )
}

/** The members of an answer of kind `kind` that were not measured, in the table's order. */
export function unmeasuredMembers<A extends RenderedAnswer>(
  answer: { missing_fields: readonly string[] },
  kind: A,
): MemberOf<A>[] {
  return (Object.keys(MEMBER_FACTS[kind]) as MemberOf<A>[]).filter((member) => unmeasured(answer, kind, member))
}

/** `text`, or "not measured" when `member` was not measured. */
export function measuredOr<A extends RenderedAnswer>(
  answer: { missing_fields: readonly string[] },
  kind: A,
  member: MemberOf<A>,
  text: () => string,
): string {
  return unmeasured(answer, kind, member) ? NOT_MEASURED_TEXT : text()
}

/**
 * The words for each topic a scanner's `scope.excludes` can list, and which scanner examines it
 * instead. A topic missing here is still shown, by its id.
 */
export const SCOPE_TOPICS: Record<string, { words: string; behaviour?: true; examinedBy: string }> = {
  wallet_clustering: { words: 'insiders', behaviour: true, examinedBy: 'the deep dive' },
  sniper_activity: { words: 'snipers', behaviour: true, examinedBy: 'the deep dive' },
  bundled_launch: { words: 'bundled launch', behaviour: true, examinedBy: 'the deep dive' },
  wash_trading: { words: 'wash trading', behaviour: true, examinedBy: 'the deep dive' },
  developer_history: { words: 'developer history', behaviour: true, examinedBy: 'the deep dive' },
  honeypot_simulation: { words: 'the sell test (honeypot)', examinedBy: 'the deep dive' },
  market_signals: { words: 'market signals', examinedBy: 'market intel' },
  price_action: { words: 'price action', examinedBy: 'market intel' },
}

/**
 * The answer's `scope.excludes` in one line, what a reader must not take the grade for: "Behaviour
 * (insiders, developer history, …) and the sell test (honeypot) not examined — the deep dive does;
 * market signals and price action — market intel does." Empty when nothing is excluded.
 */
export function scopeLine(scope: { excludes: readonly string[] }): string {
  const and = (words: readonly string[]) =>
    words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
  const groups = new Map<string, { behaviour: string[]; other: string[] }>()
  for (const id of scope.excludes) {
    const topic = SCOPE_TOPICS[id] ?? { words: id.replaceAll('_', ' '), examinedBy: '' }
    const group = groups.get(topic.examinedBy) ?? { behaviour: [], other: [] }
    group[topic.behaviour ? 'behaviour' : 'other'].push(topic.words)
    groups.set(topic.examinedBy, group)
  }
  // Behaviour first (what a structural grade is most often taken to cover), topics of no known scanner last.
  const ordered = [...groups].sort(
    ([one, a], [other, b]) =>
      Number(b.behaviour.length > 0) - Number(a.behaviour.length > 0) || Number(!one) - Number(!other),
  )
  const clauses = ordered.map(([scanner, { behaviour, other }], index) => {
    const words = and([...(behaviour.length > 0 ? [`behaviour (${behaviour.join(', ')})`] : []), ...other])
    if (!scanner) return `${index === 0 ? '' : 'also '}not examined: ${words}`
    return `${words}${index === 0 ? ' not examined' : ''} — ${scanner} does`
  })
  const line = clauses.join('; ')
  return line ? `${line.charAt(0).toUpperCase()}${line.slice(1)}.` : ''
}

/**
 * The LP line as people read it: the spec's `lp_status` has no LOCKED, so an LP that is not burned but
 * sits in lock programs reads UNBURNED — beside its own lock finding that would tell two stories. This
 * tells one, from the same lock status the finding comes from.
 */
export function lpText(scan: {
  lp_status: string
  lp_model: string
  liquidity_lock_status?: {
    locked: boolean | null
    permanent?: boolean | null
    lock_duration_days: number | null
  } | null
}): string {
  const lock = scan.liquidity_lock_status
  if (scan.lp_status !== 'UNBURNED' || lock?.locked !== true) return `${scan.lp_status} (${scan.lp_model})`
  const until = lock.permanent
    ? 'for good'
    : lock.lock_duration_days === null
      ? `until a date ${NOT_MEASURED_TEXT}`
      : `for ${Math.round(lock.lock_duration_days)} more days`
  return `LOCKED ${until}, not burned (${scan.lp_model})`
}
