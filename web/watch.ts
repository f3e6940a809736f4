/**
 * The position guard on the page (issue 34, docs/watch.md): on a token's card, "Watch this token" for a
 * number of hours, paid once up front as every answer is (the 402 asks hours × the unit price), then a
 * panel of that watch's alerts as they are detected — the watch's event stream, opened by an
 * EventSource with the short-lived token GET /watch/:id gives the paying wallet, signed in. The paid
 * answer (its watch id) is held as the page holds every answer, so a reload shows the panel again and
 * resumes the stream where it was, nothing paid again.
 */
import { h } from './h.ts'

// biome-ignore lint/suspicious/noExplicitAny: the answers as the page reads them (their shapes are in /openapi.json; the page test checks what it reads)
type Json = Record<string, any>

/** What the watch needs of the page (web/app.ts gives it: its payments, its sign-in, its cards). */
export interface WatchHooks {
  /** Pays for `route` with `body` once, as the page's other answers (held in this tab; `fresh`: a new one). */
  pay(route: string, body: Json, label: string, options?: { fresh?: boolean }): Promise<Json>
  /** Runs `action` with `button` disabled, telling a failure in the status line. */
  busyWhile(button: HTMLButtonElement, action: () => Promise<void>): Promise<void>
  /** Shows `card` in place of the one of its id (with `mint`: not when another mint is on screen). */
  show(card: HTMLElement, options?: { mint?: string; focus?: boolean }): void
  /** A `SIGN-IN-WITH-X` header for this service's `path`, signed by the wallet in "Pay with" (a wallet may ask). */
  signIn(path: string): Promise<string>
  /** The Solana address of the wallet in "Pay with", or null (an EVM wallet, no wallet): the watch's exit is built for it. */
  solanaAddressOrNull(): Promise<string | null>
  /** True when "Pay with" is a connected Solana wallet (not the demo wallet): it can sign an exit itself. */
  walletSigns(): boolean
  /** The base64 transaction signed by the connected Solana wallet. */
  signTransaction(transactionB64: string): Promise<string>
  setStatus(text: string, kind: 'busy' | 'done' | 'error'): void
  prices: Record<string, string>
}

export const WATCH_ROUTE = 'POST /watch'
/** The hours offered: the route's bounds (1 to 168, plugins/watch/schemas.ts MAX_WATCH_HOURS) and two steps between. */
const HOURS = [1, 6, 24, 168] as const
const DEFAULT_HOURS = 24
/** Watches this tab saw end (stopped, expired): asking to watch with the same hours again buys a new one. */
const ENDED_KEY = 'solsentry:watches-ended'
/** Refresh the stream token this long before it expires (it is valid 5 minutes). */
const TOKEN_MARGIN_MS = 60_000
/**
 * The slippage the exits of a watch bought here accept: 3%, wider than a trade's default (0.5%), since an
 * exit is signed in a hurry while the pool is being drained, and a refused sale is worse than a costly one.
 */
const EXIT_SLIPPAGE_BPS = 300
/** Reconnections tried in a row after the stream was refused, before the panel offers a button. */
const MAX_REOPENS = 5

/** The price per hour the manifest publishes (`0.01 per hour`): its amount, or null when the route is not mounted. */
function hourPrice(prices: Record<string, string>): string | null {
  return prices[WATCH_ROUTE]?.split(' ')[0] ?? null
}

/** `hours` × `unit` in USD, as a decimal without float noise (0.01 × 6 = 0.06). */
function times(unit: string, hours: number): string {
  const [whole = '0', fraction = ''] = unit.split('.')
  const scale = 10 ** fraction.length
  return String(((Number(whole) * scale + Number(fraction || '0')) * hours) / scale)
}

const hoursText = (hours: number) => (hours === 1 ? '1 hour' : hours === 168 ? '1 week (168 hours)' : `${hours} hours`)

const short = (value: string) => (value.length > 12 ? `${value.slice(0, 4)}…${value.slice(-4)}` : value)

function readEnded(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(ENDED_KEY) ?? '[]')
  } catch {
    return []
  }
}

function noteEnded(watchId: string): void {
  const ended = readEnded()
  if (ended.includes(watchId)) return
  try {
    sessionStorage.setItem(ENDED_KEY, JSON.stringify([...ended, watchId].slice(-100)))
  } catch {
    // No storage: the next Watch click in this page buys a new watch anyway (the held answer is fresh).
  }
}

/** "Watch this token · 0.01 USD/h" with its hours choice, on a token's card; nothing when the route is not mounted. */
export function watchControl(hooks: WatchHooks, mint: string): HTMLElement[] {
  const unit = hourPrice(hooks.prices)
  if (unit === null) return []
  const selectId = `watch-hours-${Math.random().toString(36).slice(2, 8)}`
  const select = h(
    'select',
    { id: selectId, class: 'watch-hours' },
    ...HOURS.map((hours) => {
      const option = new Option(`${hoursText(hours)} · ${times(unit, hours)} USD`, String(hours))
      option.selected = hours === DEFAULT_HOURS
      return option
    }),
  ) as HTMLSelectElement
  const button = h(
    'button',
    { type: 'button', class: 'watch-button', 'data-view': 'watch' },
    `Watch this token · ${unit} USD/h`,
  ) as HTMLButtonElement
  button.addEventListener('click', () =>
    hooks.busyWhile(button, () => startWatching(hooks, mint, Number(select.value))),
  )
  return [
    h(
      'div',
      { class: 'watch-control' },
      h('label', { for: selectId }, 'Watch for'),
      select,
      button,
      h(
        'p',
        { class: 'hint' },
        'Alerts here as they happen (liquidity pulled, supply minted, holders frozen, a rename…), paid once for the hours chosen.',
      ),
    ),
  ]
}

/** Buys (or shows again) the watch of `mint` for `hours`, then its panel. */
async function startWatching(hooks: WatchHooks, mint: string, hours: number): Promise<void> {
  const owner = await hooks.solanaAddressOrNull()
  const body: Json = {
    token_address: mint,
    hours,
    ...(owner ? { exit: { user_public_key: owner, slippage_bps: EXIT_SLIPPAGE_BPS } } : {}),
  }
  const label = `Watch ${short(mint)} for ${hoursText(hours)}`
  let answer = await hooks.pay(WATCH_ROUTE, body, label)
  // Held from earlier but stopped or over since: a new watch, paid anew.
  if (readEnded().includes(answer.watch_id)) answer = await hooks.pay(WATCH_ROUTE, body, label, { fresh: true })
  showWatch(hooks, answer, mint, { focus: true })
}

/** The open panels' streams, by watch id: one stream per watch in the page. */
const live = new Map<string, WatchStream>()

/**
 * The panel of the watch `created` (POST /watch's answer) for `mint`: its alerts so far (GET /watch/:id,
 * signed in), then each new one live, a Stop button. Drawn again after a reload from the held answer.
 */
export function showWatch(hooks: WatchHooks, created: Json, mint: string, { focus = false } = {}): void {
  const id = created.watch_id as string
  const alerts = h('ol', { class: 'findings watch-alerts', id: 'watch-alerts', 'aria-live': 'polite' })
  const empty = h('li', { class: 'watch-empty' }, 'No alert yet: the token is being watched.')
  alerts.append(empty)
  const state = h('p', { class: 'watch-state', id: 'watch-state' }, 'Signing in to follow the watch…')
  const stop = h(
    'button',
    { type: 'button', id: 'watch-stop' },
    'Stop watching (the hours left are not refunded)',
  ) as HTMLButtonElement
  // Shown when following failed: signs in again (with the wallet now in "Pay with") and follows.
  const retry = h(
    'button',
    { type: 'button', id: 'watch-retry', hidden: '' },
    'Sign in and follow (with the wallet that paid)',
  ) as HTMLButtonElement
  const until = new Date(created.period.until)
  const card = h(
    'section',
    { class: 'card', id: 'watch-card', 'data-watch': id },
    h('header', {}, h('span', { class: 'badge watch-badge' }, 'WATCH'), h('h2', {}, `Watching ${short(mint)}`)),
    h(
      'p',
      {},
      `Paid until ${until.toLocaleString()} · watch `,
      h('code', {}, id),
      ` · ${(created.events as string[]).length} kinds of event`,
    ),
    state,
    h('h3', {}, 'Alerts'),
    alerts,
    h('div', { class: 'deeper' }, retry, stop),
  )
  hooks.show(card, { mint, focus })
  if (!document.getElementById('watch-card')?.isSameNode(card)) return
  // One panel on the page: the stream of the one it replaced stops.
  for (const open of live.values()) open.close()
  live.clear()
  const stream = new WatchStream(hooks, id, {
    alert: (event, seq) => {
      // The panel left the page (another token scanned): its stream stops.
      if (!card.isConnected) return stream.close()
      empty.remove()
      if (alerts.querySelector(`[data-seq="${seq}"]`)) return
      alerts.append(alertItem(hooks, event, seq))
    },
    shown: () => card.isConnected,
    failed: (text) => {
      state.textContent = text
      state.dataset.ended = 'false'
      retry.hidden = false
    },
    state: (text, ended) => {
      retry.hidden = true
      state.textContent = text
      state.dataset.ended = String(ended)
      if (ended) {
        noteEnded(id)
        // Nothing left to stop (busyWhile enables the button again once its click is done: hidden instead).
        stop.hidden = true
      }
    },
  })
  live.set(id, stream)
  retry.addEventListener('click', () => hooks.busyWhile(retry, () => stream.start()))
  stop.addEventListener('click', () =>
    hooks.busyWhile(stop, async () => {
      const path = `/watch/${id}`
      hooks.setStatus('Stopping the watch: signing in…', 'busy')
      const header = await hooks.signIn(path)
      // Closed first: the stream's own end (the service ends it on cancelling) is not what the panel says.
      stream.close()
      const response = await fetch(path, { method: 'DELETE', headers: { 'sign-in-with-x': header } })
      const answer = await response.json().catch(() => ({}))
      if (!response.ok) {
        void stream.start()
        throw new Error(`${answer.code ?? response.status}: ${answer.message ?? 'the watch was not stopped'}`)
      }
      hooks.setStatus(`Watch ${id} stopped — no refund of the hours left`, 'done')
      stream.ended(`Stopped — the hours left are not refunded. ${answer.message ?? ''}`.trim())
    }),
  )
  void stream.start()
}

/** One alert as the panel lists it: severity, its sentence, when, the transaction, the exit if one came with it. */
function alertItem(hooks: WatchHooks, event: Json, seq: number): HTMLElement {
  const severity = String(event.severity ?? 'info')
  const when = event.detected_at ? new Date(event.detected_at).toLocaleTimeString() : ''
  const transaction = event.signature
    ? h('span', {}, ' · transaction ', h('code', { title: event.signature }, short(event.signature)))
    : ' · seen on a re-read (transaction unknown)'
  return h(
    'li',
    { class: `sev-${severity} watch-alert`, 'data-seq': String(seq), 'data-kind': String(event.kind) },
    h('span', { class: 'severity' }, severity),
    h('strong', {}, String(event.sentence ?? event.kind)),
    h('p', {}, h('time', { datetime: String(event.detected_at ?? '') }, when), transaction, ` · slot ${event.slot}`),
    ...(event.exit ? [exitLine(hooks, event.exit)] : []),
  )
}

/** The exit that came with a high or critical alert: a button to sign it when the wallet can, else what to do. */
function exitLine(hooks: WatchHooks, exit: Json): HTMLElement {
  if (exit.status !== 'READY')
    return h(
      'p',
      { class: 'watch-exit' },
      `Exit: ${String(exit.status).toLowerCase().replaceAll('_', ' ')}${exit.reason ? ` — ${exit.reason}` : ''}`,
    )
  const rating = exit.exit_rating ? ` (exit ${exit.exit_rating})` : ''
  if (!hooks.walletSigns())
    return h(
      'p',
      { class: 'watch-exit' },
      `Exit ready${rating}: job `,
      h('code', {}, exit.job_id),
      ' — sign its transaction with the watched wallet and POST /trade/execute.',
    )
  const button = h('button', { type: 'button', class: 'watch-sign-exit' }, `Sign exit${rating}`) as HTMLButtonElement
  button.addEventListener('click', () =>
    hooks.busyWhile(button, async () => {
      const signed = await hooks.signTransaction(exit.transaction)
      const executed = await hooks.pay(
        'POST /trade/execute',
        { job_id: exit.job_id, signed_transaction_b64: signed },
        'Exit',
      )
      button.replaceWith(
        h(
          'span',
          {},
          `Exit sent: ${executed.status ?? 'done'}${executed.signature ? ` · ${short(executed.signature)}` : ''}`,
        ),
      )
    }),
  )
  return h('p', { class: 'watch-exit' }, button)
}

/**
 * A watch's alerts for the panel: the ones so far (GET /watch/:id, signed in), then its event stream in an
 * EventSource opened with the stream token. The EventSource reconnects by itself (sending Last-Event-ID);
 * a reconnection refused (the token expired) is opened again with a fresh token after the last alert
 * seen. The token is refreshed before it runs out while the demo wallet signs in (no prompt); a
 * connected wallet is asked to sign in only when a reconnection needs it.
 */
class WatchStream {
  #source: EventSource | undefined
  #lastSeq = 0
  #token: { token: string; expires_at: string } | undefined
  #streamPath = ''
  #refresh: ReturnType<typeof setTimeout> | undefined
  #reopens = 0
  #closed = false

  constructor(
    private readonly hooks: WatchHooks,
    private readonly id: string,
    private readonly on: {
      alert(event: Json, seq: number): void
      state(text: string, ended: boolean): void
      /** Reading or following the watch failed (another wallet signed in, the service unreachable): say so, offer to retry. */
      failed(text: string): void
      /** Whether the panel is still on the page: a stream whose panel left stops. */
      shown(): boolean
    },
  ) {}

  /** Reads the watch (its alerts so far), then follows its stream while it is active (again after a failure). */
  async start(): Promise<void> {
    this.#reopens = 0
    this.#closed = false
    try {
      const watch = await this.#read()
      if (watch.state !== 'active') return this.ended(`This watch is ${watch.state}: nothing more is watched.`)
      this.#open()
    } catch (error) {
      this.on.failed(`Not following the alerts: ${(error as Error).message}`)
    }
  }

  /** GET /watch/:id signed in: its alerts so far shown, its stream token kept (and refreshed before it expires). */
  async #read(): Promise<Json> {
    const path = `/watch/${this.id}`
    const response = await fetch(path, { headers: { 'sign-in-with-x': await this.hooks.signIn(path) } })
    const watch = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(`${watch.code ?? response.status}: ${watch.message ?? 'the watch was not read'}`)
    for (const stored of watch.events as { seq: number; event: Json }[]) this.#alert(stored.event, stored.seq)
    this.#token = watch.stream_token
    // Same origin as the page (its Content-Security-Policy): the stream's path, not the service's public URL.
    this.#streamPath = new URL(watch.stream_url, location.origin).pathname
    clearTimeout(this.#refresh)
    if (!this.hooks.walletSigns() && watch.state === 'active') {
      const wait = Date.parse(watch.stream_token.expires_at) - Date.now() - TOKEN_MARGIN_MS
      this.#refresh = setTimeout(
        () => {
          if (this.on.shown()) void this.#read().catch(() => undefined)
          else this.close()
        },
        Math.max(wait, 5_000),
      )
    }
    return watch
  }

  #alert(event: Json, seq: number): void {
    if (seq <= this.#lastSeq) return
    this.#lastSeq = seq
    this.on.alert(event, seq)
  }

  #open(): void {
    if (this.#closed || !this.#token) return
    this.#source?.close()
    const after = this.#lastSeq > 0 ? `&last_event_id=${this.#lastSeq}` : ''
    const source = new EventSource(`${this.#streamPath}?token=${encodeURIComponent(this.#token.token)}${after}`)
    this.#source = source
    source.addEventListener('open', () => {
      this.#reopens = 0
      this.on.state('Watching: alerts appear here as they are detected.', false)
    })
    source.addEventListener('alert', (message) => {
      const { data, lastEventId } = message as MessageEvent<string>
      this.#alert(JSON.parse(data), Number(lastEventId))
    })
    source.addEventListener('end', (message) => {
      source.close()
      const reason = (JSON.parse((message as MessageEvent<string>).data) as Json).reason as string
      // The service shutting down: the watch goes on, the stream is opened again (elsewhere).
      if (/shutting down|reconnect/.test(reason)) return this.#reopen()
      this.ended(`The watch has ended: ${reason}.`)
    })
    source.addEventListener('error', () => {
      // Still CONNECTING: the EventSource reconnects by itself, with Last-Event-ID. CLOSED: it was refused.
      if (source.readyState === EventSource.CLOSED) this.#reopen()
      else this.on.state('Reconnecting to the alerts…', false)
    })
  }

  /** Opens the stream again after a refusal: a fresh token when it expired (signing in), a few times, then a button. */
  #reopen(): void {
    if (this.#closed) return
    if (!this.on.shown()) {
      this.close()
      return
    }
    if (++this.#reopens > MAX_REOPENS) {
      this.on.failed('The alerts stream is not answering.')
      return
    }
    const expired = !this.#token || Date.parse(this.#token.expires_at) - Date.now() < 10_000
    this.on.state('Reconnecting to the alerts…', false)
    setTimeout(
      () =>
        void (async () => {
          try {
            if (expired || this.#reopens > 1) {
              const watch = await this.#read()
              if (watch.state !== 'active') return this.ended(`This watch is ${watch.state}: nothing more is watched.`)
            }
            this.#open()
          } catch (error) {
            this.on.failed(`Not following the alerts: ${(error as Error).message}`)
          }
        })(),
      1000 * this.#reopens,
    )
  }

  ended(text: string): void {
    this.close()
    this.on.state(text, true)
  }

  close(): void {
    this.#closed = true
    clearTimeout(this.#refresh)
    this.#source?.close()
  }
}
