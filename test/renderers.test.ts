import { describe, expect, test } from 'bun:test'
import { renderDeepDive, renderExitCheck, renderMarketIntel, renderQuickScan } from '../client/render.ts'
import { answerText } from '../plugins/mcp/text.ts'
import { compareFactors } from '../src/pipeline/order.ts'
import type { Factor } from '../src/pipeline/signal.ts'
import { SCOPE } from '../plugins/quick-scan/service.ts'
import {
  MEMBER_FACTS,
  type MemberOf,
  type RenderedAnswer,
  SCOPE_TOPICS,
  scopeLine,
  unmeasured,
  unmeasuredMembers,
} from '../src/rendering/answer-prose.ts'
import type { SandboxServer } from '../sandbox/faults.ts'
import { scannerService } from './support/scanner-service.ts'

// What every renderer says of an answer — the CLI, MCP text content, the deep dive's report — on the
// sandbox with each upstream the facts read failing in turn: a member the answer names unmeasured
// reads "not measured" (or is left out), never its placeholder; the findings come deciding first.
const { sandbox, freshApp, mintOf, post } = await scannerService()

const plain = { color: false }
const ROUTES = {
  quick_scan: { path: '/scan/quick', key: 'POST /scan/quick' },
  market_intel: { path: '/market/intel', key: 'POST /market/intel' },
  deep_dive: { path: '/scan/deep', key: 'POST /scan/deep' },
  exit_check: { path: '/exit/check', key: 'POST /exit/check' },
} as const satisfies Record<RenderedAnswer, unknown>

/** An answer as the wire gives it (the renderers are typed; tests read it loosely). */
type Answer = any
const cli = (kind: RenderedAnswer, answer: Answer): string =>
  kind === 'quick_scan'
    ? renderQuickScan(plain, answer)
    : kind === 'market_intel'
      ? renderMarketIntel(plain, answer)
      : kind === 'deep_dive'
        ? renderDeepDive(plain, answer)
        : renderExitCheck(plain, answer)

/**
 * Where each renderer shows each member: patterns whose first group is what it shows for it (none:
 * this renderer does not show the member). Every member of the table must be placed here, so a new
 * one is a decision, not an oversight.
 */
type Shows = { [A in RenderedAnswer]: Record<MemberOf<A>, RegExp[]> }
const QUICK_AUTHORITY = [/^ {2}mint authority +(.+)$/m, /^ {2}freeze authority +(.+)$/m]
const CLI_SHOWS: Shows = {
  quick_scan: {
    symbol: [/^Quick scan {2}\S+(.*)$/m],
    name: [/^Quick scan {2}\S+(.*)$/m],
    mint_authority_revoked: [QUICK_AUTHORITY[0]!],
    freeze_authority_revoked: [QUICK_AUTHORITY[1]!],
    authority_exempt: QUICK_AUTHORITY,
    top_10_holder_pct: [/^ {2}top 10 holders +(.+)$/m, /top 10 wallets (.+?)\.(?: |$)/],
    holders_source: [/^ {2}top 10 holders +(.+)$/m],
    liquidity_check: [/^ {2}liquidity +(.+)$/m, /\. Liquidity ([^;]+); LP [^;]+; top 10/],
    lp_burned: [/^ {2}LP +(.+)$/m],
    lp_model: [/^ {2}LP +(.+)$/m],
    lp_status: [/^ {2}LP +(.+)$/m, /\. Liquidity [^;]+; LP ([^;]+); top 10/],
    liquidity_lock_status: [/^ {2}LP +(.+)$/m],
    launch_anomaly: [],
  },
  market_intel: {
    current_price_usd: [/^ {2}price +(.+?) {2}1 h/m],
    price_change_5m_pct: [],
    price_change_15m_pct: [],
    price_change_1h_pct: [/ {2}1 h (.+?) {2}24 h/, /\((\S+) 1 h,/],
    price_change_24h_pct: [/ {2}24 h (.+)$/m, / 1 h, (\S+) 24 h/],
    pct_from_ath: [/, ([^,]+?) from its high/],
    ath_price_usd: [],
    volume_1h_usd: [/\(([^()]*?) in the last hour\)/],
    volume_24h_usd: [/^ {2}volume 24 h +(.+?) {3}liquidity/m, /Volume (.+?) in 24 h/],
    liquidity_usd: [/ {3}liquidity (.+)$/m, /, liquidity (.+?);/],
    buy_sell_ratio: [/^ {2}pressure .*\((.+)\)$/m, /; (\S+) buys? per sell/, /; buys per sell (not measured),/],
    buy_pressure: [/^ {2}pressure +(.+?) \(/m, /buy pressure (.+?),/],
    sell_pressure: [/^ {2}pressure +(.+?) \(/m, /sell pressure (.+?);/],
    large_txs_last_hour: [/large trades in the last hour: (.+?);/],
    volatility: [/; volatility (.+?)\./],
    token_health: [/^ \w+ +\S+ · (.+?) · data/m, /Health (.+?)\. Signal/],
  },
  // The CLI shows the report's first paragraph: the verdict, no member.
  deep_dive: {
    mint_authority_revoked: [],
    freeze_authority_revoked: [],
    authority_exempt: [],
    top_10_holder_pct: [],
    holders_source: [],
    lp_burned: [],
    lp_model: [],
    lp_status: [],
    launch_pattern: [],
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
  exit_check: {
    expected_return_usdc: [/^ {2}returns +(.+)$/m],
    exit_price_impact_pct: [/^ {2}price impact +(.+)$/m],
    exit_loss_pct: [/^ {2}lost on exit +(.+)$/m],
    route_count: [/^ {2}route legs +(.+)$/m],
    transfer_fee_bps: [/^ {2}transfer fee +(.+)$/m],
    transfer_fee_can_rise: [/^ {2}transfer fee +(.+)$/m],
  },
}
/** The deep dive's `full_risk_report`, member by member. */
const REPORT_SHOWS: Shows['deep_dive'] = {
  mint_authority_revoked: [/Mint authority (.+?), freeze authority/],
  freeze_authority_revoked: [/freeze authority (.+?)(?: \(|\. )/],
  authority_exempt: [/Mint authority (.+?), freeze authority/],
  top_10_holder_pct: [/top 10 wallets hold (.+?)\. /],
  holders_source: [/top 10 wallets hold (.+?)\. /],
  lp_burned: [/LP: (.+?); lock:/],
  lp_model: [/LP: (.+?); lock:/],
  lp_status: [/LP: (.+?); lock:/],
  launch_pattern: [/Launch: (.+?); bundled/],
  is_honeypot: [/Honeypot: (.+?)\. Mint/],
  liquidity_lock_status: [/; lock: (.+?)\. /],
  'liquidity_lock_status.lock_duration_days': [/lock: (?:locked|not locked)( for [^,]+| \(duration not measured\))?,/],
  bundled_launch_detected: [/bundled launch: (.+?);/],
  sniper_activity: [/sniper activity: (.+?);/],
  pump_launchpad_launched: [/launchpad: (.+?)\./],
  wallet_analysis: [/Wallet clustering: (not measured|\d+ of \d+)/],
  dev_wallet_analysis: [/(Developer history: not measured|Developer wallet \S+)/],
  trading_pattern: [/(Trading pattern: not measured|Trading: wash-trading score \d+)/],
  volume_24h: [/Volume 24 h: (.+?); price/],
  price_change_24h_pct: [/price change 24 h: (.+?); momentum/],
  momentum_score: [/momentum score: (.+?); top 10/],
}

/**
 * Reads `text` where `shows` places each member of an answer of kind `kind`: an unmeasured member
 * reads "not measured" (or is left out, or shows nothing); a measured one never reads "not measured".
 * Answers the places it read.
 */
function expectHonest<A extends RenderedAnswer>(
  where: string,
  text: string,
  kind: A,
  answer: Answer,
  shows: Record<MemberOf<A>, RegExp[]>,
): string[] {
  const read: string[] = []
  for (const member of Object.keys(MEMBER_FACTS[kind]) as MemberOf<A>[]) {
    const missing = unmeasured(answer, kind, member)
    for (const pattern of shows[member]) {
      const shown = pattern.exec(text)?.[1]?.trim()
      if (shown === undefined) continue
      read.push(`${member}: ${shown}`)
      const says = `${where}, ${member} (${missing ? 'not measured' : 'measured'}) shown as "${shown}"`
      if (missing) expect(shown === '' || shown.includes('not measured') ? 'honest' : says).toBe('honest')
      else expect(shown.includes('not measured') ? says : 'honest').toBe('honest')
    }
  }
  return read
}

/** The factors in the order of the answers (hard fails, ceilings worst first, severity, impact). */
function expectDecidingFirst(factors: Factor[]): void {
  for (let index = 1; index < factors.length; index++)
    expect(compareFactors(factors[index - 1]!, factors[index]!)).toBeLessThanOrEqual(0)
}

test('every member of the table has a place (or none, said so) in each renderer', () => {
  for (const kind of Object.keys(MEMBER_FACTS) as RenderedAnswer[])
    expect(Object.keys(CLI_SHOWS[kind]).sort()).toEqual(Object.keys(MEMBER_FACTS[kind]).sort())
  expect(Object.keys(REPORT_SHOWS).sort()).toEqual(Object.keys(MEMBER_FACTS.deep_dive).sort())
})

test("the quick scan's scope in one line, from its excludes: every topic has its words", () => {
  for (const topic of SCOPE.excludes) expect(SCOPE_TOPICS[topic]).toBeDefined()
  expect(scopeLine(SCOPE)).toBe(
    'Behaviour (insiders, developer history, wash trading, bundled launch, snipers) and the sell test (honeypot) not examined — the deep dive does; market signals and price action — market intel does.',
  )
  // A topic the words do not know yet is still shown, by its id.
  expect(scopeLine({ excludes: ['wash_trading', 'mev_exposure'] })).toBe(
    'Behaviour (wash trading) not examined — the deep dive does; also not examined: mev exposure.',
  )
  expect(scopeLine({ excludes: [] })).toBe('')
})

/** Each upstream the scanners' facts read, failing (a 500 on every call). */
const FAULTS: [SandboxServer, string][] = [
  ['rpc', 'getAccountInfo'],
  ['rpc', 'getMultipleAccounts'],
  ['rpc', 'getTokenLargestAccounts'],
  ['rpc', 'getProgramAccounts'],
  ['rpc', 'getSignaturesForAddress'],
  ['rpc', 'getTransaction'],
  ['dexscreener', '/'],
  ['jupiter', '/'],
]

describe('under each upstream fault, every renderer says "not measured" for what the answer did not measure', () => {
  // serial-rugger has a live market, an LP, a developer with history: every member has a value to lose.
  const mint = mintOf('serial-rugger')
  for (const [server, route] of FAULTS)
    test(`${server} ${route} failing`, async () => {
      sandbox.faults.set(server, route, { kind: 'server_error' })
      const app = freshApp()
      const unmeasuredByKind: Record<string, string[]> = {}
      for (const kind of Object.keys(ROUTES) as RenderedAnswer[]) {
        const { status, body, errors } = await post(ROUTES[kind].path, mint, app)
        expect(status).toBe(200)
        expect(errors).toEqual([])
        const members = unmeasuredMembers(body, kind)
        unmeasuredByKind[kind] = members
        const shownCli = cli(kind, body)
        expectHonest(`CLI ${kind}`, shownCli, kind, body, CLI_SHOWS[kind])
        // What an unread authority or market must never be shown as.
        if (unmeasured(body, kind, 'mint_authority_revoked' as MemberOf<typeof kind>)) {
          expect(shownCli).not.toMatch(/\bLIVE\b|\brevoked\b/)
          if (kind === 'deep_dive') expect(body.full_risk_report).not.toMatch(/authority (revoked|live)/)
        }
        if (kind === 'market_intel' && unmeasured(body, kind, 'current_price_usd'))
          expect(shownCli).not.toMatch(/\$0(?![.\d])|[+-]0%/)
        if (kind === 'deep_dive') expectHonest('report', body.full_risk_report, 'deep_dive', body, REPORT_SHOWS)
        // MCP text content names the members not measured, and the deciding findings in order.
        const words = answerText(ROUTES[kind].key, body)!
        const named = /^Not measured \(.*?\): (.+)\.$/m.exec(words)?.[1]?.split(', ') ?? []
        expect(named).toEqual(members)
        if ('factors' in body) expectDecidingFirst(body.factors)
      }
      // The fault bites where the facts read it (getProgramAccounts: no scanner fact reads it now).
      if (route !== 'getProgramAccounts') expect(Object.values(unmeasuredByKind).flat().length).toBeGreaterThan(0)
    }, 40_000)
})

describe('the deciding findings first, everywhere', () => {
  test('TRAP (the honeypot scenario): "Honeypot — fails the token" first in factors, key drivers, the CLI, the report and MCP text', async () => {
    const { body } = await post('/scan/deep', mintOf('hostile-token-2022'))
    expectDecidingFirst(body.factors)
    expect(body.factors[0]).toMatchObject({ code: 'HONEYPOT', hard_fail: true })
    expect(body.key_drivers[0].code).toBe('HONEYPOT')
    // Then the lowest ceilings: the permanent delegate and frozen-by-default accounts cap the grade at D.
    expect(body.key_drivers.slice(1, 3).map((driver: { code: string }) => driver.code)).toEqual([
      'PERMANENT_DELEGATE',
      'DEFAULT_FROZEN',
    ])
    const shown = renderDeepDive(plain, body)
    const drivers = shown.slice(shown.indexOf('Key drivers'))
    expect(drivers.split('\n')[1]).toBe('  • Honeypot: holders cannot sell (fails the token)')
    const findings = shown.slice(shown.indexOf('Findings')).split('\n')
    expect(findings[1]).toMatch(/^ {2}CRITICAL +Honeypot: holders cannot sell \(fails the token\)$/)
    expect(body.full_risk_report).toMatch(/Risk findings:\n- \[HONEYPOT\]/)
    expect(answerText('POST /scan/deep', body)).toMatch(/Deciding findings: Honeypot: holders cannot sell \[HONEYPOT/)
  })

  test('quick scan: the ceilings before heavier findings that cap nothing, in the answer and on the CLI', async () => {
    const { body } = await post('/scan/quick', mintOf('hostile-token-2022'))
    expectDecidingFirst(body.factors)
    expect(body.factors.slice(0, 2).map((entry: Factor) => entry.grade_ceiling)).toEqual(['D', 'D'])
    const first = renderQuickScan(plain, body).split('What decided it\n')[1]!.split('\n')[0]
    expect(first).toMatch(/\(caps the grade at D\)$/)
  })
})

describe('what a trader reads first', () => {
  test('market intel of a token no pool trades: NO MARKET first, no price, volume or liquidity shown', async () => {
    const { body } = await post('/market/intel', mintOf('hostile-token-2022'))
    expect(body.factors.map((entry: Factor) => entry.code)).toContain('NO_MARKET')
    const shown = renderMarketIntel(plain, body)
    expect(shown.split('\n')[2]).toMatch(/^ NO MARKET +No pool trades this token/)
    expect(shown).not.toMatch(/\$0|^ {2}price|^ {2}volume/m)
    expect(body.market_summary).toMatch(/^The token: NO_MARKET — no pool trades this token/)
    expect(answerText('POST /market/intel', body)!.split('\n')[0]).toContain('NO_MARKET')
  })

  test('an LP locked, not burned, reads as locked, as its finding says: one story on the CLI', async () => {
    const { body } = await post('/scan/quick', mintOf('locked-lp'))
    expect(body.lp_status).toBe('UNBURNED')
    expect(renderQuickScan(plain, body)).toMatch(/^ {2}LP +LOCKED for 180 more days, not burned \(TRADITIONAL_AMM\)$/m)
    expect(renderQuickScan(plain, body)).not.toContain('UNBURNED')
  })

  test('a quick scan says what it did not examine, in one line: the CLI and MCP text', async () => {
    const { body } = await post('/scan/quick', mintOf('wash-traded'))
    const line = scopeLine(body.scope)
    expect(line).toContain('wash trading')
    expect(renderQuickScan(plain, body).split('\n')).toContain(`  ${line}`)
    expect(answerText('POST /scan/quick', body)!.split('\n')).toContain(line)
  })
})
