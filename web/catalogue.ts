/**
 * The rest of the catalogue on the page, beside the three scanners (web/app.ts): for a mint the exit
 * check (a size, its rating, the cost against size) and the news pulse; for a wallet its intel; for the
 * market the trending feed and the signal radar, whose tokens link to their own page (`/t/<mint>`).
 * Each button says its route's price from the manifests (the page's config), never a written one.
 */
import { count, missingInWords, num, pct, tokenAmount, usd, words } from '../client/format.ts'
import { NOT_MEASURED_TEXT, unmeasured } from '../src/rendering/answer-prose.ts'
import { h } from './h.ts'
import { type ExitPoint, exitCurve, scoreBar } from './pictures.ts'

// biome-ignore lint/suspicious/noExplicitAny: the answers as the page reads them (their shapes are in /openapi.json; the page test checks what it reads)
type Json = Record<string, any>

/** What the catalogue's views need from the page (web/app.ts gives them: its payOnce, paidButton, busyWhile and showCard). */
export interface PageHooks {
  /**
   * Pays for `route` (`METHOD /path`) with `body` once: an answer already paid for the same route and
   * body in this tab is shown again without paying, a call under way is joined; throws with the error's
   * code and message (a failed call is not held). With `fresh` (a Refresh button) it pays for a new
   * answer, which is held in place of the old one.
   */
  pay(route: string, body: Record<string, unknown>, label: string, options?: { fresh?: boolean }): Promise<Json>
  /** Makes one free call (never held: a quote is good for a minute); throws as `pay` does. */
  ask(route: string, body: Record<string, unknown>, label: string): Promise<Json>
  /**
   * A button for a paid call, its price in its label: disabled while `action` runs (a double click runs
   * it once); a failure is told in the status line.
   */
  paidButton(label: string, route: string, view: string, action: () => Promise<void>): HTMLButtonElement
  /** Runs `action` with `button` disabled, telling a failure in the status line. */
  busyWhile(button: HTMLButtonElement, action: () => Promise<void>): Promise<void>
  /**
   * Shows `card` (one per id: it replaces the one of the same id in place), scrolled into view and
   * focused (`focus: false`: neither); with `mint`, not when the person has since scanned another mint.
   */
  show(card: HTMLElement, options?: { mint?: string; focus?: boolean }): void
  prices: Record<string, string>
  /** The Solana address of the wallet picked in "Pay with" (connecting it), for a trade quote; throws for an EVM wallet. */
  solanaAddress(): Promise<string>
  /** The Solana RPC the page may read (WEB_SOLANA_RPC_URL), or null. */
  solanaRpcUrl: string | null
}

const row = (label: string, value: string, tone = '') =>
  h('div', { class: 'row' }, h('span', { class: 'label' }, label), h('span', { class: `value ${tone}` }, value))

const shortAddress = (value: string) => (value.length > 12 ? `${value.slice(0, 4)}…${value.slice(-4)}` : value)

/** A link to a token's own page. */
export const tokenLink = (mint: string, text: string) =>
  h('a', { href: `/t/${mint}`, class: 'token-link', title: mint }, text)

// ---- for a mint ------------------------------------------------------------------------------------

/** The exit checks made on this page, by mint: each is a point of the cost-against-size curve. */
const exitPoints = new Map<string, ExitPoint[]>()

const SIZE = { min: 0.01, max: 1_000_000, default: 10 }

/**
 * The slider's stops: round dollar amounts, six a decade (1, 1.5, 2, 3, 5, 7.5 × 10ⁿ) from $1 to
 * $1,000,000 — 37 positions, so an arrow key moves to the next round size (a continuous log scale in
 * steps of 0.01 took some 600 presses to cross).
 */
const SIZE_STOPS = [0, 1, 2, 3, 4, 5].flatMap((decade) =>
  [1, 1.5, 2, 3, 5, 7.5].map((mantissa) => mantissa * 10 ** decade),
)
SIZE_STOPS.push(SIZE.max)

/** The index of the stop nearest `value` on the log scale. */
function nearestStop(value: number): number {
  let best = 0
  for (const [index, stop] of SIZE_STOPS.entries())
    if (Math.abs(Math.log(stop / value)) < Math.abs(Math.log(SIZE_STOPS[best]! / value))) best = index
  return best
}

/**
 * The exit check's controls (a size in USDC, typed or slid over round sizes from $1 to $1,000,000, the
 * slider saying its dollar amount to a screen reader) and the news pulse's and brief's buttons, for `mint`.
 */
export function mintActions(hooks: PageHooks, mint: string): HTMLElement {
  const sizeId = `exit-size-${Math.random().toString(36).slice(2, 8)}`
  const size = h('input', {
    id: sizeId,
    class: 'exit-size',
    type: 'number',
    min: String(SIZE.min),
    max: String(SIZE.max),
    step: 'any',
    value: String(SIZE.default),
    inputmode: 'decimal',
  }) as HTMLInputElement
  const slider = h('input', {
    class: 'exit-slider',
    type: 'range',
    min: '0',
    max: String(SIZE_STOPS.length - 1),
    step: '1',
    value: String(nearestStop(SIZE.default)),
    'aria-valuetext': usd(SIZE.default),
    'aria-label': 'Sell size in USDC, in round steps from $1 to $1,000,000',
  }) as HTMLInputElement
  slider.addEventListener('input', () => {
    const value = SIZE_STOPS[Number(slider.value)]!
    size.value = String(value)
    slider.setAttribute('aria-valuetext', usd(value))
  })
  size.addEventListener('input', () => {
    const value = Number(size.value)
    if (!(value > 0)) return
    slider.value = String(nearestStop(value))
    slider.setAttribute('aria-valuetext', usd(value))
  })
  const exit = hooks.paidButton('Exit check', 'POST /exit/check', 'exit', async () => {
    const size_usdc = Number(size.value)
    if (!(size_usdc >= SIZE.min && size_usdc <= SIZE.max)) {
      size.setAttribute('aria-invalid', 'true')
      throw new Error(`the sell size must be ${SIZE.min} to ${num(SIZE.max)} USDC`)
    }
    size.removeAttribute('aria-invalid')
    // Keyed by its body, size included: the same size is shown again, a new size is paid for.
    const answer = await hooks.pay('POST /exit/check', { token_address: mint, size_usdc }, 'Exit check')
    hooks.show(exitCard(answer, exitPoint(mint, answer)), { mint })
  })
  const news = hooks.paidButton('News pulse', 'POST /news/pulse', 'news', async () => {
    hooks.show(newsWithRefresh(hooks, await hooks.pay('POST /news/pulse', { symbol: mint }, 'News pulse'), mint), {
      mint,
    })
  })
  const brief = hooks.paidButton('News brief', 'POST /news/brief', 'brief', async () => {
    hooks.show(briefCard(await hooks.pay('POST /news/brief', { symbol: mint }, 'News brief')), { mint })
  })
  return h(
    'div',
    { class: 'mint-actions' },
    h('div', { class: 'exit-controls' }, h('label', { for: sizeId }, 'Sell size (USDC)'), size, slider, exit),
    news,
    // Only where the service writes briefs (a model configured: else the route is off and has no price).
    ...(hooks.prices['POST /news/brief'] === undefined ? [] : [brief]),
  )
}

/** Adds an exit check's answer to the curve of `mint` (one point per size: a new check of a size replaces the old one). */
function exitPoint(mint: string, answer: Json): ExitPoint[] {
  const kept = (exitPoints.get(mint) ?? []).filter((point) => point.size_usdc !== answer.size_usdc)
  kept.push({ size_usdc: answer.size_usdc, exit_loss_pct: answer.exit_loss_pct, exit_rating: answer.exit_rating })
  exitPoints.set(mint, kept)
  return kept
}

/**
 * A held feed's "Refresh · <price>" button, in `card`'s header: it pays for a new answer (the held one is
 * replaced), disabled while that runs, as every paid button.
 */
function withRefresh(
  hooks: PageHooks,
  card: HTMLElement,
  refresh: { route: string; body: Record<string, unknown>; label: string; view: string; mint?: string },
  render: (answer: Json) => HTMLElement,
): HTMLElement {
  const button = hooks.paidButton('Refresh', refresh.route, `refresh-${refresh.view}`, async () => {
    const answer = await hooks.pay(refresh.route, refresh.body, refresh.label, { fresh: true })
    hooks.show(withRefresh(hooks, render(answer), refresh, render), refresh.mint ? { mint: refresh.mint } : {})
  })
  button.id = `refresh-${refresh.view}`
  button.classList.add('refresh')
  card.querySelector('header')?.append(button)
  return card
}

function newsWithRefresh(hooks: PageHooks, answer: Json, mint: string): HTMLElement {
  return withRefresh(
    hooks,
    newsCard(answer),
    { route: 'POST /news/pulse', body: { symbol: mint }, label: 'News pulse', view: 'news', mint },
    newsCard,
  )
}

/** The market's feeds: a button each, their cards held and refreshed. */
const FEEDS: { route: string; label: string; view: string; id: string; render: (answer: Json) => HTMLElement }[] = [
  { route: 'POST /scan/trending', label: 'Trending', view: 'trending', id: 'go-trending', render: trendingCard },
  { route: 'POST /signal/radar', label: 'Signal radar', view: 'radar', id: 'go-radar', render: radarCard },
  {
    route: 'POST /launch/radar',
    label: 'Launch radar',
    view: 'launches',
    id: 'go-launches',
    render: (answer) => launchCard(answer, 'launch'),
  },
  {
    route: 'POST /graduation/radar',
    label: 'Graduation radar',
    view: 'graduating',
    id: 'go-graduating',
    render: (answer) => launchCard(answer, 'graduation'),
  },
]

const feedCard = (hooks: PageHooks, feed: (typeof FEEDS)[number], answer: Json) =>
  withRefresh(
    hooks,
    feed.render(answer),
    { route: feed.route, body: {}, label: feed.label, view: feed.view },
    feed.render,
  )

/** An answer held in this tab (sessionStorage), as web/app.ts gives it back after a reload. */
export interface HeldAnswer {
  route: string
  body: Json
  answer: Json
}

/**
 * After a reload: the cards of the catalogue's answers held in this tab, oldest first, drawn again
 * without a request or a payment — the exit checks (the curve of every size checked), the news, the
 * brief of `mint`; the intel of `wallet` (else the last wallet read); the market's feeds; the last
 * trade idea. A card of the same kind paid later takes the place of an earlier one, as on the page.
 */
export function restoreHeld(hooks: PageHooks, held: HeldAnswer[], mint: string | null, wallet: string | null): void {
  const quiet = { focus: false }
  for (const { route, body, answer } of held) {
    if (route === 'POST /exit/check' && mint && body.token_address === mint)
      hooks.show(exitCard(answer, exitPoint(mint, answer)), { mint, ...quiet })
    else if (route === 'POST /news/pulse' && mint && body.symbol === mint)
      hooks.show(newsWithRefresh(hooks, answer, mint), { mint, ...quiet })
    else if (route === 'POST /news/brief' && mint && body.symbol === mint)
      hooks.show(briefCard(answer), { mint, ...quiet })
    else if (route === 'POST /wallet/intel' && (!wallet || body.wallet_address === wallet))
      hooks.show(walletCard(answer), quiet)
    else if (route === 'POST /trade/suggest') hooks.show(suggestCard(answer, hooks), quiet)
    else {
      const feed = FEEDS.find((entry) => entry.route === route)
      if (feed) hooks.show(feedCard(hooks, feed, answer), quiet)
    }
  }
}

const EXIT_TONES: Record<string, string> = { CLEAN: 'good', COSTLY: 'unknown', PUNITIVE: 'bad', BLOCKED: 'bad' }

export function exitCard(exit: Json, points: ExitPoint[]): HTMLElement {
  const rating = (exit.exit_rating as string | null) ?? 'NOT RATED'
  return h(
    'section',
    { class: 'card', id: 'exit-card', 'data-rating': rating },
    h(
      'header',
      {},
      h('span', { class: `badge exit-${rating.replace(' ', '_')}`, id: 'exit-rating' }, rating),
      h('h2', {}, `Exit check · ${usd(exit.size_usdc)}`),
    ),
    row(
      'Sellable',
      exit.sellable === null ? NOT_MEASURED_TEXT : exit.sellable ? 'yes' : 'NO',
      exit.sellable === null ? 'unknown' : exit.sellable ? 'good' : 'bad',
    ),
    row('You get back', exit.expected_return_usdc === null ? NOT_MEASURED_TEXT : usd(exit.expected_return_usdc)),
    row(
      'Lost on the round trip',
      exit.exit_loss_pct === null ? NOT_MEASURED_TEXT : pct(exit.exit_loss_pct),
      EXIT_TONES[rating] ?? '',
    ),
    row(
      'Price impact of the sale',
      exit.exit_price_impact_pct === null ? NOT_MEASURED_TEXT : pct(exit.exit_price_impact_pct),
    ),
    row('Route', exit.route_count === 0 ? 'none' : `${exit.route_count} leg${exit.route_count === 1 ? '' : 's'}`),
    // The mint not read: its fee is a placeholder 0, not "no fee".
    ...(unmeasured(exit as { missing_fields: string[] }, 'exit_check', 'transfer_fee_bps')
      ? [row('Transfer fee', NOT_MEASURED_TEXT, 'unknown')]
      : exit.transfer_fee_bps > 0 || exit.transfer_fee_can_rise
        ? [
            row(
              'Transfer fee',
              `${pct(exit.transfer_fee_bps / 100)}${exit.transfer_fee_can_rise ? ', can rise' : ''}`,
              'bad',
            ),
          ]
        : []),
    ...(exit.blockers.length
      ? [
          h('h3', {}, 'What stands in the way'),
          h(
            'ul',
            { class: 'findings' },
            ...(exit.blockers as Json[]).map((blocker) =>
              h(
                'li',
                { class: blocker.blocks ? 'sev-critical' : 'sev-medium' },
                h('span', { class: 'severity' }, blocker.blocks ? 'blocks' : 'risk'),
                h('strong', {}, blocker.code),
                h('p', {}, blocker.detail),
              ),
            ),
          ),
        ]
      : []),
    exitCurve(points),
    h('p', { class: 'hint' }, 'Check another size to draw more of the curve (each check is paid).'),
    h('p', { class: 'summary' }, exit.summary),
  )
}

const SIGNAL_TONES: Record<string, string> = {
  BULLISH: 'BULLISH',
  BEARISH: 'BEARISH',
  MIXED: 'NEUTRAL',
  NEUTRAL: 'NEUTRAL',
}

export function newsCard(news: Json): HTMLElement {
  const subject = news.subject as Json
  const about = subject.scope === 'market' ? 'the market' : (subject.symbol ?? shortAddress(subject.query))
  const total = Math.max(1, news.posts as number)
  const lean = h(
    'div',
    { class: 'lean', role: 'img', 'aria-label': `${news.bull} bullish, ${news.bear} bearish, ${news.neutral} neutral` },
    ...(
      [
        ['bull', news.bull, 'bullish'],
        ['bear', news.bear, 'bearish'],
        ['neutral', news.neutral, 'neutral'],
      ] as [string, number, string][]
    )
      .filter(([, count]) => count > 0)
      .map(([kind, count, word]) =>
        h('span', { class: `lean-${kind}`, style: `flex-grow: ${count / total}` }, `${num(count)} ${word}`),
      ),
  )
  return h(
    'section',
    { class: 'card', id: 'news-card' },
    h(
      'header',
      {},
      h('span', { class: `badge signal-${SIGNAL_TONES[news.signal] ?? 'NEUTRAL'}`, id: 'news-signal' }, news.signal),
      h('h2', {}, `News pulse · ${about}, last ${num(news.window.hours)} h`),
    ),
    row('Posts read', num(news.posts)),
    ...(news.posts > 0 ? [lean] : []),
    ...((news.top_terms as Json[]).length
      ? [row('Top terms', (news.top_terms as Json[]).map((term) => `${term.term} (${num(term.count)})`).join(', '))]
      : []),
    ...((news.missing_fields as string[]).length
      ? [row('Sources unavailable', (news.missing_fields as string[]).join(', '), 'unknown')]
      : []),
    h('p', { class: 'summary' }, news.summary),
  )
}

/** The written brief: its headline, its text and each claim with the posts it rests on (linked where they have a link). */
export function briefCard(answer: Json): HTMLElement {
  const posts = new Map((answer.posts as Json[]).map((post) => [post.ref as string, post]))
  const cite = (ref: string) => {
    const post = posts.get(ref)
    return post?.link
      ? h('a', { href: post.link, rel: 'noopener noreferrer', target: '_blank' }, ref)
      : h('span', {}, ref)
  }
  const pulse = answer.pulse as Json
  return h(
    'section',
    { class: 'card', id: 'brief-card' },
    h(
      'header',
      {},
      h('span', { class: `badge signal-${SIGNAL_TONES[pulse.signal] ?? 'NEUTRAL'}` }, pulse.signal),
      h('h2', {}, answer.brief.headline),
    ),
    h('p', {}, answer.brief.text),
    ...((answer.brief.claims as Json[]).length
      ? [
          h('h3', {}, 'Claims, with their posts'),
          h(
            'ul',
            { class: 'reasons' },
            ...(answer.brief.claims as Json[]).map((claim) =>
              h(
                'li',
                {},
                `${claim.text} `,
                ...(claim.post_refs as string[]).flatMap((ref, index) => [index ? ', ' : '[', cite(ref)]),
                (claim.post_refs as string[]).length ? ']' : '',
              ),
            ),
          ),
        ]
      : []),
    row('Posts read', `${num(pulse.posts)} (${num(pulse.bull)} bullish, ${num(pulse.bear)} bearish)`),
    h('p', { class: 'hint' }, `Written by ${answer.model.name} from the posts it cites.`),
    h('p', { class: 'summary' }, answer.summary),
  )
}

// ---- for a wallet ----------------------------------------------------------------------------------

/** The verdict's badge colour (its word is written on it: colour is not the only signal). */
const VERDICT_TONES: Record<string, string> = {
  RUGGER: 'action-AVOID',
  LOSING_TRADER: 'action-AVOID',
  SNIPER: 'action-WATCH',
  BOT: 'action-WATCH',
  UNPROVEN: 'action-DYOR',
  BREAKEVEN_TRADER: 'action-DYOR',
  PROFITABLE_TRADER: 'action-CONSIDER',
}

export async function walletIntel(hooks: PageHooks, address: string): Promise<void> {
  hooks.show(walletCard(await hooks.pay('POST /wallet/intel', { wallet_address: address }, 'Wallet intel')))
}

const duration = (seconds: number | null) => {
  if (seconds === null) return NOT_MEASURED_TEXT
  if (seconds < 120) return `${num(Math.round(seconds))} s`
  if (seconds < 7200) return `${num(Math.round(seconds / 60))} min`
  if (seconds < 172_800) return `${num(Math.round(seconds / 3600))} h`
  return `${num(Math.round(seconds / 86_400))} days`
}

export function walletCard(wallet: Json): HTMLElement {
  const coverage = wallet.coverage as Json
  const funding = wallet.funding_origin as Json
  const worth = wallet.copy_trade_worthiness as Json
  return h(
    'section',
    { class: 'card', id: 'wallet-card' },
    h(
      'header',
      {},
      h(
        'span',
        { class: `badge verdict ${VERDICT_TONES[wallet.verdict] ?? ''}`, id: 'wallet-verdict' },
        wallet.verdict,
      ),
      h('div', {}, h('h2', {}, 'Wallet intel'), h('code', {}, wallet.wallet_address)),
    ),
    row('Style', String(wallet.behaviour_style).toLowerCase().replaceAll('_', ' ')),
    row(
      'Trades',
      `${num(wallet.total_trades)} (${count(wallet.buys, 'buy')}, ${count(wallet.sells, 'sell')}) in ${count(wallet.tokens_traded, 'token')}`,
    ),
    row('Positions', `${num(wallet.closed_positions)} closed, ${num(wallet.open_positions)} open`),
    row('Win rate', wallet.win_rate_pct === null ? 'none closed' : pct(wallet.win_rate_pct)),
    row(
      'Realized profit',
      wallet.realized_pnl_usd === null
        ? NOT_MEASURED_TEXT
        : wallet.closed_positions === 0 && wallet.realized_pnl_usd === 0
          ? 'none (no position closed)'
          : `${usd(wallet.realized_pnl_usd)}${wallet.realized_pnl_pct === null ? '' : ` (${pct(wallet.realized_pnl_pct, { signed: true })})`}`,
      // Green for a profit, red for a loss; nothing made or lost is neither.
      wallet.realized_pnl_usd === null
        ? 'unknown'
        : wallet.realized_pnl_usd > 0
          ? 'good'
          : wallet.realized_pnl_usd < 0
            ? 'bad'
            : '',
    ),
    row('Hold time', `median ${duration(wallet.median_hold_time_s)}, mean ${duration(wallet.avg_hold_time_s)}`),
    row(
      'Funded by',
      funding.funder === null
        ? 'not read (history incomplete)'
        : `${funding.exchange ?? shortAddress(funding.funder)}${funding.amount_sol === null ? '' : ` · ${num(funding.amount_sol)} SOL`}`,
    ),
    row(
      'Tokens created',
      `${num(wallet.tokens_created)}${wallet.rugs ? ` · ${num(wallet.rugs)} rugged` : ''}`,
      wallet.rugs ? 'bad' : '',
    ),
    row('Snipes', `${num(wallet.launches_sniped)} of ${num(wallet.launches_assessed)} launches bought`),
    row('Copy-trade worthiness', `${worth.label}${worth.score === null ? '' : ` (${num(worth.score)} of 100)`}`),
    row(
      'History read',
      `${num(coverage.transactions_read)} transactions${coverage.history_complete ? ', all of it' : ', the newest only'}`,
      coverage.history_complete ? '' : 'unknown',
    ),
    ...((worth.reasons as string[]).length
      ? [h('ul', { class: 'reasons' }, ...(worth.reasons as string[]).map((reason) => h('li', {}, reason)))]
      : []),
    h('p', { class: 'summary' }, wallet.summary),
  )
}

// ---- for the market --------------------------------------------------------------------------------

/** The market's buttons: trending, the signal radar, the launchpad radars and a trade idea. */
export function marketActions(hooks: PageHooks): HTMLElement[] {
  const buttons = FEEDS.map((feed) => {
    const button = hooks.paidButton(feed.label, feed.route, feed.view, async () => {
      hooks.show(feedCard(hooks, feed, await hooks.pay(feed.route, {}, feed.label)))
    })
    button.id = feed.id
    return [button, feed.route] as [HTMLElement, string]
  })
  const suggest = suggestControls(hooks)
  // Only the routes this service mounts (a route off for want of a source has no price in the config).
  const offered: [HTMLElement, string][] = [...buttons, [suggest, 'POST /trade/suggest']]
  return offered.filter(([, route]) => hooks.prices[route] !== undefined).map(([node]) => node)
}

const grade = (item: Json) => {
  const letter = item.quick_scan?.grade as string | null | undefined
  return letter
    ? h('span', { class: `mini-grade grade-${letter}` }, letter)
    : h('span', { class: 'unknown' }, 'not graded')
}

/**
 * A list as a table; each cell carries its column's name (`data-label`), which a phone shows above the
 * cell's value when the rows are stacked as cards (nothing hidden: the grade included).
 */
const table = (id: string, head: string[], rows: HTMLElement[]) => {
  for (const row of rows)
    for (const [index, cell] of [...row.children].entries()) cell.setAttribute('data-label', head[index] ?? '')
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'list', id },
      h('thead', {}, h('tr', {}, ...head.map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, ...rows),
    ),
  )
}

const name = (item: Json) => tokenLink(item.token_address, item.symbol || shortAddress(item.token_address))

/** A code in words, as the page says it (`THIN_LIQUIDITY`: thin liquidity). */

/** The trending feed's orders (its `sort`, plugins/trending/schemas.ts), as a title says them. */
const TRENDING_SORTS: Record<string, string> = {
  trending: 'by trend',
  volume: 'by volume',
  organic: 'by organic activity',
}

export function trendingCard(feed: Json): HTMLElement {
  const items = feed.items as Json[]
  return h(
    'section',
    { class: 'card', id: 'trending-card' },
    h(
      'header',
      {},
      h('h2', {}, `Trending · ${TRENDING_SORTS[feed.sort] ?? `by ${words(feed.sort)}`}, last ${feed.interval}`),
    ),
    items.length === 0
      ? h('p', {}, 'Nothing trending passed the filters.')
      : table(
          'trending-list',
          ['#', 'Token', 'Price', 'Change', 'Liquidity', 'Volume', 'Grade'],
          items.map((item) =>
            h(
              'tr',
              { 'data-mint': item.token_address },
              h('td', {}, item.rank === null ? '—' : num(item.rank)),
              h('td', {}, name(item)),
              h('td', { class: 'number' }, usd(item.price_usd)),
              h(
                'td',
                { class: `number ${item.price_change_pct > 0 ? 'good' : item.price_change_pct < 0 ? 'bad' : ''}` },
                pct(item.price_change_pct, { signed: true }),
              ),
              h('td', { class: 'number' }, usd(item.liquidity_usd)),
              h('td', { class: 'number' }, usd(item.volume_usd)),
              h('td', {}, grade(item)),
            ),
          ),
        ),
    h(
      'p',
      { class: 'hint' },
      'A token opens its own page, where each answer about it is one click (and its price) away.',
    ),
  )
}

export function radarCard(radar: Json): HTMLElement {
  const items = radar.items as Json[]
  return h(
    'section',
    { class: 'card', id: 'radar-card' },
    h('header', {}, h('h2', {}, `Signal radar · last ${radar.interval}, ${num(radar.min_signals)}+ signals`)),
    ...((radar.missing_fields as string[] | undefined)?.length
      ? [
          h(
            'p',
            { class: 'caveat', id: 'radar-missing' },
            `Not read, so not on this list: ${(radar.missing_fields as string[]).map(missingInWords).join(', ')}.`,
          ),
        ]
      : []),
    items.length === 0
      ? h('p', {}, `No token of ${num(radar.candidates)} read had ${num(radar.min_signals)} signals firing.`)
      : table(
          'radar-list',
          ['#', 'Token', 'Convergence', 'Signals fired', 'Flags', 'Grade'],
          items.map((item) =>
            h(
              'tr',
              { 'data-mint': item.token_address, 'data-score': String(item.convergence_score) },
              h('td', {}, item.rank === null ? '—' : num(item.rank)),
              h('td', {}, name(item)),
              h('td', { class: 'score' }, scoreBar(item.convergence_score, 'Convergence')),
              h(
                'td',
                {},
                (item.signal_breakdown as Json[])
                  .filter((reading) => reading.fired)
                  .map((reading) => String(reading.signal).toLowerCase().replaceAll('_', ' '))
                  .join(', ') || 'none',
              ),
              h(
                'td',
                { class: item.flags.length ? 'bad' : '' },
                (item.flags as string[]).map((flag) => flag.toLowerCase().replaceAll('_', ' ')).join(', ') || '—',
              ),
              h('td', {}, grade(item)),
            ),
          ),
        ),
  )
}

/** The launch radar's or the graduation radar's curves: each token's bonding progress as a bar. */
export function launchCard(feed: Json, kind: 'launch' | 'graduation'): HTMLElement {
  const items = feed.items as Json[]
  const id = kind === 'launch' ? 'launch' : 'graduation'
  return h(
    'section',
    { class: 'card', id: `${id}-card` },
    h('header', {}, h('h2', {}, kind === 'launch' ? 'Launch radar · pump.fun' : 'Graduation radar · pump.fun')),
    items.length === 0
      ? h('p', {}, 'No curve on the radar now.')
      : table(
          `${id}-list`,
          ['#', 'Token', 'Bonding', 'Market cap', 'Traders', 'Flags', 'Grade'],
          items.map((item) =>
            h(
              'tr',
              { 'data-mint': item.token_address, 'data-progress': String(item.bonding_progress_pct) },
              h('td', {}, item.rank === null ? '—' : num(item.rank)),
              h('td', {}, name(item)),
              h('td', { class: 'score' }, scoreBar(item.bonding_progress_pct, 'Bonding progress, percent')),
              h(
                'td',
                { class: 'number' },
                item.market_cap_usd === null ? `${num(item.market_cap_sol)} SOL` : usd(item.market_cap_usd),
              ),
              h('td', { class: 'number' }, num(item.unique_traders)),
              h('td', { class: item.flags.length ? 'bad' : '' }, (item.flags as string[]).map(words).join(', ') || '—'),
              h('td', {}, grade(item)),
            ),
          ),
        ),
  )
}

// ---- a trade idea ----------------------------------------------------------------------------------

/** The trade suggestion's controls: a risk appetite, a budget, and its button. */
function suggestControls(hooks: PageHooks): HTMLElement {
  const appetite = h(
    'select',
    { id: 'suggest-appetite' },
    ...['conservative', 'balanced', 'aggressive'].map((value) =>
      h('option', value === 'balanced' ? { value, selected: '' } : { value }, value),
    ),
  ) as HTMLSelectElement
  const budget = h('input', {
    id: 'suggest-budget',
    type: 'number',
    min: '1',
    step: 'any',
    value: '100',
    inputmode: 'decimal',
    class: 'exit-size',
  }) as HTMLInputElement
  const interval = h(
    'select',
    { id: 'suggest-interval' },
    ...['5m', '1h', '6h', '24h'].map((value) =>
      h('option', value === '1h' ? { value, selected: '' } : { value }, `last ${value}`),
    ),
  ) as HTMLSelectElement
  const go = hooks.paidButton('Trade idea', 'POST /trade/suggest', 'suggest', async () => {
    const answer = await hooks.pay(
      'POST /trade/suggest',
      { risk_appetite: appetite.value, interval: interval.value, budget_usd: Number(budget.value) },
      'Trade idea',
    )
    hooks.show(suggestCard(answer, hooks))
  })
  go.id = 'go-suggest'
  return h(
    'div',
    { class: 'exit-controls suggest-controls' },
    h('span', { class: 'field' }, h('label', { for: 'suggest-appetite' }, 'Risk appetite'), appetite),
    h('span', { class: 'field' }, h('label', { for: 'suggest-interval' }, 'Radar window'), interval),
    h('span', { class: 'field' }, h('label', { for: 'suggest-budget' }, 'Budget (USD)'), budget),
    go,
  )
}

/** One trade idea: the action, its conviction as a bar, the candidate (linked), the points that moved it and the plan. */
export function suggestCard(answer: Json, hooks: PageHooks): HTMLElement {
  const recommendation = answer.recommendation as Json
  const candidate = answer.selection.candidate as Json | null
  const plan = recommendation.trade_plan as Json | null
  if (candidate?.symbol) symbolOf.set(candidate.token_address, candidate.symbol)
  const tone: Record<string, string> = {
    BUY: 'action-CONSIDER',
    SMALL_BUY: 'action-CONSIDER',
    WATCH: 'action-WATCH',
    AVOID: 'action-AVOID',
    NO_CANDIDATE: 'action-DYOR',
  }
  return h(
    'section',
    { class: 'card', id: 'suggest-card', 'data-conviction': String(recommendation.conviction) },
    h(
      'header',
      {},
      h('span', { class: `badge ${tone[recommendation.action] ?? ''}`, id: 'suggest-action' }, recommendation.action),
      h(
        'div',
        {},
        h('h2', {}, 'Trade idea'),
        candidate
          ? tokenLink(candidate.token_address, `${candidate.symbol || candidate.name} · ${candidate.name}`)
          : '',
      ),
    ),
    h(
      'div',
      { class: 'row' },
      h('span', { class: 'label' }, 'Conviction'),
      h('span', { class: 'value score' }, scoreBar(recommendation.conviction, 'Conviction')),
    ),
    row('Put in', `${usd(recommendation.suggested_size_usd)} of ${usd(answer.budget_usd)} (${answer.risk_appetite})`),
    ...((recommendation.hard_gates as string[]).length
      ? [row('Hard gates', (recommendation.hard_gates as string[]).map(words).join(', '), 'bad')]
      : []),
    h('p', {}, recommendation.reason),
    ...((recommendation.cited_factors as Json[]).length
      ? [
          h('h3', {}, 'What moved the conviction'),
          h(
            'ul',
            { class: 'findings', id: 'suggest-factors' },
            ...(recommendation.cited_factors as Json[]).map((factor) =>
              h(
                'li',
                { class: factor.points < 0 ? 'sev-high' : 'sev-info', 'data-points': String(factor.points) },
                h('span', { class: 'severity' }, `${factor.points > 0 ? '+' : ''}${num(factor.points)}`),
                h('strong', {}, words(factor.factor)),
                h('p', {}, factor.detail),
              ),
            ),
          ),
        ]
      : []),
    ...(plan
      ? [
          h('h3', {}, 'The plan'),
          row('Slippage', pct(plan.slippage_bps / 100)),
          row('Walk away above a price impact of', pct(plan.max_price_impact_pct)),
          row(
            'Round trip costs now',
            plan.round_trip_exit_cost_pct === null ? NOT_MEASURED_TEXT : pct(plan.round_trip_exit_cost_pct),
          ),
          row('Stop loss', plan.stop_loss_hint),
          quoteButton(hooks, plan.quote_request),
          h(
            'p',
            { class: 'hint' },
            'The quote is free: the plan’s quote_request for the wallet picked in "Pay with", risk-gated by the service. Nothing is signed or sent here.',
          ),
        ]
      : []),
    h('p', { class: 'summary' }, answer.summary),
  )
}

/** Quotes the plan for the wallet picked in "Pay with" (POST /trade/quote is free): what goes in, what comes out, the gate. */
function quoteButton(hooks: PageHooks, request: Json): HTMLElement {
  const go = h('button', { type: 'button', id: 'go-quote' }, 'Quote it for my wallet · free') as HTMLButtonElement
  go.addEventListener('click', () =>
    hooks.busyWhile(go, async () => {
      const user_public_key = await hooks.solanaAddress()
      const [quote, pairs] = await Promise.all([
        hooks.ask('POST /trade/quote', { ...request, user_public_key }, 'Quote'),
        fetch('/trade/pairs')
          .then((response) => (response.ok ? response.json() : { pairs: [] }))
          .catch(() => ({ pairs: [] })),
      ])
      const known = (pairs as Json).pairs as Json[]
      // A token off the verified list: its decimals from the mint itself, where the page may read the chain.
      for (const mint of [quote.quote.input_mint, quote.quote.output_mint] as string[])
        if (!known.some((pair) => pair.mint === mint)) {
          const decimals = await mintDecimals(hooks.solanaRpcUrl, mint)
          const symbol = mint === request.output_mint ? (symbolOf.get(mint) ?? null) : null
          if (decimals !== null) known.push({ mint, decimals, symbol: symbol ?? shortAddress(mint) })
        }
      hooks.show(quoteCard(quote, known))
    }),
  )
  return go
}

/** Symbols the page has seen (a trade idea's candidate), by mint. */
const symbolOf = new Map<string, string>()

/** A mint's decimals from the Solana RPC the page may read (getTokenSupply); null without one or on any failure. */
async function mintDecimals(rpcUrl: string | null, mint: string): Promise<number | null> {
  if (!rpcUrl) return null
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenSupply', params: [mint] }),
    })
    const decimals = ((await response.json()) as Json).result?.value?.decimals
    return Number.isInteger(decimals) ? decimals : null
  } catch {
    return null
  }
}

/** A quote in whole tokens (decimals from /trade/pairs or the mint itself; atomic units when neither could be read). */
export function quoteCard(answer: Json, pairs: Json[]): HTMLElement {
  const quote = answer.quote as Json
  const gate = answer.risk_gate as Json
  const amount = (atomic: string, mint: string) => {
    const pair = pairs.find((entry) => entry.mint === mint)
    return pair
      ? tokenAmount(atomic, pair.decimals, pair.symbol)
      : `${tokenAmount(atomic, 0)} atomic units of ${shortAddress(mint)}`
  }
  const tones: Record<string, string> = { PASS: 'action-CONSIDER', WARN: 'action-WATCH', BLOCK: 'action-AVOID' }
  return h(
    'section',
    { class: 'card', id: 'quote-card', 'data-in': quote.in_amount, 'data-out': quote.out_amount },
    h(
      'header',
      {},
      h('span', { class: `badge ${tones[gate.verdict] ?? ''}`, id: 'quote-gate' }, gate.verdict),
      h('h2', {}, 'Quote'),
    ),
    row('You pay', amount(quote.in_amount, quote.input_mint)),
    row('You get about', amount(quote.out_amount, quote.output_mint)),
    row('At least', amount(quote.min_out_amount, quote.output_mint)),
    row('Price impact', pct(quote.price_impact_pct)),
    row('Slippage allowed', pct(quote.slippage_bps / 100)),
    row('Risk gate', `${gate.verdict}${gate.grade ? ` (grade ${gate.grade})` : ''}`),
    ...(gate.reasons as Json[]).map((reason) => row(words(reason.code), reason.detail, 'unknown')),
    row('Valid until', quote.expires_at ? new Date(quote.expires_at).toLocaleTimeString() : 'a minute or so'),
    h(
      'p',
      { class: 'hint' },
      `Job ${answer.job_id}: sign its transaction with your wallet and POST /trade/execute to trade.`,
    ),
  )
}
