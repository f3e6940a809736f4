/**
 * The page's pictures: small SVGs drawn here (no library, no CDN), each in a `<figure>` whose
 * `data-values` holds exactly the numbers it plots (as the JSON answer gives them) and whose table says
 * them in words: the picture is never the only way to read them, and colour never the only signal
 * (insiders are hatched and labelled, exit ratings are named, the dial's letters are written).
 */
import { count, num, pct, usd } from '../client/format.ts'
import { h } from './h.ts'

const SVG = 'http://www.w3.org/2000/svg'

function s(tag: string, attributes: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const node = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value))
  node.append(...children)
  return node
}

let figures = 0

/**
 * A figure: the SVG (an image named by the caption), the caption, and the numbers as a table;
 * `values` (what is plotted, as the answer gives it) go to `data-values` for anyone to read back.
 */
function figure(
  kind: string,
  caption: string,
  svg: SVGElement,
  rows: [string, string][],
  values: unknown,
): HTMLElement {
  const id = `picture-${++figures}`
  svg.setAttribute('role', 'img')
  svg.setAttribute('aria-labelledby', id)
  svg.setAttribute('width', '100%')
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet')
  const node = h(
    'figure',
    { class: `picture picture-${kind}`, 'data-picture': kind },
    svg,
    h('figcaption', { id }, caption),
    h(
      'table',
      { class: 'picture-data' },
      h('caption', {}, 'The numbers'),
      h(
        'tbody',
        {},
        ...rows.map(([label, value]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value))),
      ),
    ),
  )
  node.dataset.values = JSON.stringify(values)
  return node
}

// ---- grade dial ------------------------------------------------------------------------------------

const GRADES = ['A', 'B', 'C', 'D', 'F'] as const
const GRADE_TONES: Record<string, string> = {
  A: 'var(--good)',
  B: 'var(--good)',
  C: 'var(--warn)',
  D: 'var(--bad)',
  F: 'var(--bad)',
}

interface Finding {
  code: string
  title: string
  hard_fail?: boolean
  grade_ceiling?: string | null
}

/**
 * The finding that capped `grade`: a hard fail when the grade is F, else the finding whose ceiling is
 * the grade (the answer's order puts the deciding ones first); null when the score alone decided it.
 */
export function cappingFinding(grade: string, factors: Finding[]): Finding | null {
  if (grade === 'F') {
    const fail = factors.find((item) => item.hard_fail)
    if (fail) return fail
  }
  return factors.find((item) => item.grade_ceiling === grade) ?? null
}

/** A half dial A (left) to F (right), each sector lettered, the needle on `grade`; the capping finding named. */
export function gradeDial(grade: string, factors: Finding[]): HTMLElement {
  const cap = cappingFinding(grade, factors)
  const at = Math.max(0, GRADES.indexOf(grade as (typeof GRADES)[number]))
  const cx = 100
  const cy = 100
  const point = (angle: number, r: number) => [cx - r * Math.cos(angle), cy - r * Math.sin(angle)] as const
  const step = Math.PI / GRADES.length
  const sectors = GRADES.map((letter, index) => {
    const [x1, y1] = point(index * step, 90)
    const [x2, y2] = point((index + 1) * step, 90)
    const [x3, y3] = point((index + 1) * step, 55)
    const [x4, y4] = point(index * step, 55)
    const [lx, ly] = point((index + 0.5) * step, 72)
    const chosen = letter === grade
    return s(
      'g',
      {},
      s('path', {
        d: `M${x1} ${y1} A90 90 0 0 1 ${x2} ${y2} L${x3} ${y3} A55 55 0 0 0 ${x4} ${y4} Z`,
        fill: GRADE_TONES[letter]!,
        'fill-opacity': chosen ? 1 : 0.3,
        stroke: 'var(--card)',
        'stroke-width': 2,
      }),
      s(
        'text',
        {
          x: lx.toFixed(1),
          y: (ly + 5).toFixed(1),
          'text-anchor': 'middle',
          'font-size': chosen ? 18 : 13,
          'font-weight': chosen ? 800 : 400,
          fill: 'currentColor',
        },
        letter,
      ),
    )
  })
  const [nx, ny] = point((at + 0.5) * step, 50)
  const svg = s(
    'svg',
    { viewBox: '0 0 200 110' },
    ...sectors,
    s('line', { x1: cx, y1: cy, x2: nx.toFixed(1), y2: ny.toFixed(1), stroke: 'currentColor', 'stroke-width': 3 }),
    s('circle', { cx, cy, r: 5, fill: 'currentColor' }),
  )
  // No finding capped it at this grade: the score took it there (below any finding's ceiling, named).
  const tightest = factors
    .filter((item) => item.grade_ceiling)
    .sort((a, b) => GRADES.indexOf(b.grade_ceiling as 'A') - GRADES.indexOf(a.grade_ceiling as 'A'))[0]
  const capText = cap
    ? `${cap.title}${cap.hard_fail && grade === 'F' ? ' (fails the token)' : ` (caps the grade at ${grade})`}`
    : tightest
      ? `the score decided, below ${tightest.grade_ceiling}, the cap of “${tightest.title}”`
      : 'no finding capped it: the score decided'
  return figure(
    'grade',
    `Grade ${grade} of A to F — ${capText}`,
    svg,
    [
      ['Grade', grade],
      ['Capped by', cap ? cap.title : 'nothing (the score)'],
    ],
    { grade, capped_by: cap?.code ?? null },
  )
}

// ---- holders ---------------------------------------------------------------------------------------

/**
 * Where the supply sits: the top 10 holders against everyone else, and (from the deep dive) the share of
 * the developer and its linked wallets, hatched and labelled.
 */
export function holdersBar(top10: number, insiders: number | null = null): HTMLElement {
  const inside = insiders ?? 0
  const others = Math.max(0, top10 - inside)
  const rest = Math.max(0, 100 - Math.max(top10, inside))
  // The pattern's id, unique on the page (the next figure's number).
  const hatch = `hatch-${figures + 1}`
  const segments: { label: string; share: number; fill: string }[] = [
    ...(insiders === null
      ? []
      : [{ label: 'Insiders (developer and linked wallets)', share: inside, fill: `url(#${hatch})` }]),
    { label: insiders === null ? 'Top 10 holders' : 'Other top-10 holders', share: others, fill: 'var(--accent)' },
    { label: 'Everyone else', share: rest, fill: 'var(--line)' },
  ]
  let x = 0
  const bars = segments.map((segment) => {
    const width = (segment.share / 100) * 300
    const rect = s('rect', { x: x.toFixed(2), y: 4, width: width.toFixed(2), height: 28, fill: segment.fill })
    rect.append(s('title', {}, `${segment.label}: ${pct(segment.share)}`))
    x += width
    return rect
  })
  const svg = s(
    'svg',
    { viewBox: '0 0 300 62' },
    s(
      'defs',
      {},
      s(
        'pattern',
        { id: hatch, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        s('rect', { width: 6, height: 6, fill: 'var(--bad)' }),
        s('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#fff', 'stroke-width': 2 }),
      ),
    ),
    ...bars,
    s(
      'text',
      { x: 0, y: 52, 'font-size': 12, fill: 'currentColor' },
      insiders === null ? `Top 10: ${pct(top10)}` : `Insiders ${pct(inside)} (hatched) · top 10 ${pct(top10)}`,
    ),
  )
  return figure(
    'holders',
    insiders === null
      ? `The 10 largest holders hold ${pct(top10)} of the supply`
      : `The 10 largest holders hold ${pct(top10)}; the developer and its linked wallets ${pct(inside)}`,
    svg,
    segments.map((segment) => [segment.label, pct(segment.share)]),
    { top_10_holder_pct: top10, insider_control_percent: insiders },
  )
}

// ---- price and volume ------------------------------------------------------------------------------

interface PriceWindow {
  label: string
  change_pct: number | null
}

/** The least a price chart's scale reaches either side of its first price, in %: smaller moves draw small. */
export const PRICE_SCALE_FLOOR_PCT = 10

/** `value` rounded up to a multiple of ten (a scale's end that reads well). */
function roundUpTen(value: number): number {
  return Math.ceil(value / 10) * 10
}

/**
 * The price at each window's start, from the current price and the window's change (price then =
 * now ÷ (1 + change)), oldest first, then now: the points are evenly spaced (24 h, 1 h, 15 min, 5 min,
 * now), not to scale in time; the height is the % change since the first point, on a scale of at least
 * ±PRICE_SCALE_FLOOR_PCT with its 0% line drawn.
 */
export function priceSparkline(
  current: number,
  windows: PriceWindow[],
  volume1h: number,
  volume24h: number,
): HTMLElement {
  const read = windows.filter((window) => window.change_pct !== null && window.change_pct > -100)
  const points = [
    ...read.map((window) => ({
      label: `${window.label} ago`,
      price: current / (1 + (window.change_pct as number) / 100),
      change: window.change_pct,
    })),
    { label: 'now', price: current, change: null },
  ]
  const prices = points.map((p) => p.price)
  // The honest scale: % change since the first point, at least ±PRICE_SCALE_FLOOR_PCT, so a flat token
  // draws flat and a crash draws as one (each chart stretched to its own range made +0.89% look like −38%).
  const moves = prices.map((price) => (price / prices[0]! - 1) * 100)
  const up = roundUpTen(Math.max(PRICE_SCALE_FLOOR_PCT, ...moves))
  const down = Math.min(100, roundUpTen(Math.max(PRICE_SCALE_FLOOR_PCT, ...moves.map((move) => -move))))
  const top = 8
  const bottom = 70
  const x = (index: number) => (points.length === 1 ? 127 : 48 + (index * 162) / (points.length - 1))
  const y = (move: number) => top + ((up - move) / (up + down)) * (bottom - top)
  const line = moves.map((move, index) => `${index ? 'L' : 'M'}${x(index).toFixed(1)} ${y(move).toFixed(1)}`).join(' ')
  const rising = current >= prices[0]!
  // The axis in % change: the 0% line drawn, the ends labelled; an end label too near 0% is left out.
  const ticks = [
    { move: up, label: `+${up}%` },
    { move: 0, label: '0%' },
    { move: -down, label: `−${down}%` },
  ].filter((tick) => tick.move === 0 || Math.abs(y(tick.move) - y(0)) >= 14)
  const axis = [
    s('line', {
      class: 'zero',
      x1: 44,
      x2: 214,
      y1: y(0).toFixed(1),
      y2: y(0).toFixed(1),
      stroke: 'var(--muted)',
      'stroke-dasharray': '2 2',
    }),
    ...ticks.map((tick) =>
      s(
        'text',
        {
          class: 'axis',
          x: 40,
          y: (y(tick.move) + 4).toFixed(1),
          'font-size': 12,
          'text-anchor': 'end',
          fill: 'currentColor',
        },
        tick.label,
      ),
    ),
  ]
  // Volume: the last hour ("last") against the mean hour of the last day ("avg"), as two bars.
  const meanHour = volume24h / 24
  const tallest = Math.max(volume1h, meanHour) || 1
  const bar = (value: number, at: number, fill: string, label: string) => [
    s('rect', {
      x: at,
      y: (70 - (value / tallest) * 60).toFixed(1),
      width: 26,
      height: ((value / tallest) * 60).toFixed(1),
      fill,
    }),
    s('text', { x: at + 13, y: 87, 'font-size': 12, 'text-anchor': 'middle', fill: 'currentColor' }, label),
  ]
  const svg = s(
    'svg',
    { viewBox: '0 0 300 92' },
    ...axis,
    s('path', {
      d: line,
      fill: 'none',
      stroke: rising ? 'var(--good)' : 'var(--bad)',
      'stroke-width': 2.5,
      ...(rising ? {} : { 'stroke-dasharray': '6 3' }),
    }),
    ...moves.map((move, index) =>
      s('circle', { class: 'point', cx: x(index).toFixed(1), cy: y(move).toFixed(1), r: 3, fill: 'currentColor' }),
    ),
    ...points.map((p, index) =>
      s(
        'text',
        { x: x(index).toFixed(1), y: 87, 'font-size': 12, 'text-anchor': 'middle', fill: 'currentColor' },
        // Chart notation (24h, 15m) so neighbours fit at 12 units; the table says them whole.
        p.label.replace(' ago', '').replace(' min', 'm').replace(' h', 'h'),
      ),
    ),
    // Short labels that fit side by side at 12 units (the caption and the table say them whole).
    ...bar(meanHour, 234, 'var(--line)', 'avg'),
    ...bar(volume1h, 268, 'var(--accent)', 'last'),
  )
  const first = points[0]!
  return figure(
    'price',
    `Price ${usd(current)} now${points.length === 1 ? ' (no change measured)' : `, ${rising ? 'up' : 'down'} from ${usd(first.price)} ${first.label}`}; volume ${usd(volume1h)} in the last hour against ${usd(meanHour)} an hour over the day`,
    svg,
    [
      ...points.map((p): [string, string] => [
        `Price ${p.label}`,
        `${usd(p.price)}${p.change === null ? '' : ` (change since: ${pct(p.change, { signed: true })})`}`,
      ]),
      ['Volume, last hour', usd(volume1h)],
      ['Volume, 24 h', usd(volume24h)],
    ],
    {
      current_price_usd: current,
      changes_pct: Object.fromEntries(windows.map((window) => [window.label, window.change_pct])),
      volume_1h_usd: volume1h,
      volume_24h_usd: volume24h,
    },
  )
}

// ---- exit cost against size ------------------------------------------------------------------------

export interface ExitPoint {
  size_usdc: number
  exit_loss_pct: number | null
  exit_rating: string | null
}

const RATING_MARKS: Record<string, string> = { CLEAN: '●', COSTLY: '▲', PUNITIVE: '■', BLOCKED: '✕' }

/** Width of a 12-unit label per character, with room either side: closer labels would overlap. */
const LABEL_CHAR_WIDTH = 7.5

/** The axis labels that fit, left to right: a label that would overlap the last one drawn is left out (its size is in the table). */
function sizeLabels(labels: { x: number; text: string }[]): { x: number; text: string }[] {
  const shown: { x: number; text: string }[] = []
  for (const label of labels) {
    const last = shown.at(-1)
    if (!last || label.x - last.x >= ((last.text.length + label.text.length) / 2) * LABEL_CHAR_WIDTH) shown.push(label)
  }
  return shown
}

/**
 * What a sale loses against its size, from the exit checks made (each a point, on a log scale of size),
 * over the rating bands (CLEAN under 3%, COSTLY to 20%, PUNITIVE beyond), each point marked by its rating.
 */
export function exitCurve(points: ExitPoint[]): HTMLElement {
  const sorted = [...points].sort((a, b) => a.size_usdc - b.size_usdc)
  const measured = sorted.filter((point) => point.exit_loss_pct !== null)
  const sizes = sorted.map((point) => Math.log10(point.size_usdc))
  const lo = Math.min(...sizes)
  const hi = Math.max(...sizes)
  const x = (size: number) => (hi === lo ? 160 : 40 + ((Math.log10(size) - lo) / (hi - lo)) * 240)
  const top = Math.max(25, ...measured.map((point) => point.exit_loss_pct as number))
  const y = (loss: number) => 90 - (Math.min(loss, top) / top) * 80
  const band = (from: number, to: number, fill: string, label: string) => [
    s('rect', {
      x: 40,
      y: y(to).toFixed(1),
      width: 240,
      height: (y(from) - y(to)).toFixed(1),
      fill,
      'fill-opacity': 0.12,
    }),
    s(
      'text',
      { x: 278, y: (y(to) + 12).toFixed(1), 'font-size': 12, 'text-anchor': 'end', fill: 'currentColor' },
      label,
    ),
  ]
  const path = measured
    .map(
      (point, index) =>
        `${index ? 'L' : 'M'}${x(point.size_usdc).toFixed(1)} ${y(point.exit_loss_pct as number).toFixed(1)}`,
    )
    .join(' ')
  const svg = s(
    'svg',
    { viewBox: '0 0 300 112' },
    ...band(0, 3, 'var(--good)', 'CLEAN < 3%'),
    ...band(3, 20, 'var(--warn)', 'COSTLY 3–20%'),
    ...band(20, top, 'var(--bad)', 'PUNITIVE > 20%'),
    s('text', { x: 36, y: 18, 'font-size': 12, 'text-anchor': 'end', fill: 'currentColor' }, pct(top)),
    s('text', { x: 36, y: 94, 'font-size': 12, 'text-anchor': 'end', fill: 'currentColor' }, '0%'),
    s('path', { d: path, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 }),
    ...measured.map((point) =>
      s(
        'text',
        {
          x: x(point.size_usdc).toFixed(1),
          y: (y(point.exit_loss_pct as number) + 4).toFixed(1),
          'font-size': 12,
          'text-anchor': 'middle',
          fill: 'currentColor',
        },
        RATING_MARKS[point.exit_rating ?? ''] ?? '?',
      ),
    ),
    ...sizeLabels(sorted.map((point) => ({ x: x(point.size_usdc), text: `$${num(point.size_usdc)}` }))).map((label) =>
      s(
        'text',
        {
          class: 'axis',
          x: label.x.toFixed(1),
          y: 108,
          'font-size': 12,
          'text-anchor': 'middle',
          fill: 'currentColor',
        },
        label.text,
      ),
    ),
  )
  return figure(
    'exit',
    `Exit cost against size, from ${sorted.length} check${sorted.length === 1 ? '' : 's'}: ${sorted
      .map(
        (point) =>
          `${usd(point.size_usdc)} loses ${point.exit_loss_pct === null ? 'not measured' : pct(point.exit_loss_pct)} (${point.exit_rating ?? 'not rated'})`,
      )
      .join('; ')}`,
    svg,
    sorted.map((point): [string, string] => [
      `Selling ${usd(point.size_usdc)}`,
      `${point.exit_loss_pct === null ? 'not measured' : `${pct(point.exit_loss_pct)} lost`} · ${point.exit_rating ?? 'not rated'}`,
    ]),
    sorted,
  )
}

// ---- convergence -----------------------------------------------------------------------------------

/** A 0–100 bar (a radar's convergence score), its number (whole) written beside it, inside the picture. */
export function scoreBar(score: number, label: string): SVGElement {
  const shown = Math.round(Math.max(0, Math.min(100, score)))
  return s(
    'svg',
    {
      viewBox: '0 0 130 16',
      width: '100%',
      role: 'img',
      'aria-label': `${label}: ${num(shown)} of 100`,
      class: 'score-bar',
    },
    s('rect', { x: 0, y: 3, width: 100, height: 10, fill: 'var(--line)' }),
    s('rect', { x: 0, y: 3, width: shown, height: 10, fill: 'var(--accent)' }),
    s('text', { x: 130, y: 13, 'font-size': 13, 'text-anchor': 'end', fill: 'currentColor' }, num(shown)),
  )
}

// ---- the deep dive's wallets -------------------------------------------------------------------------

export interface WalletLinks {
  developer: string | null
  /** Funded by the developer, or funded it (DEV_LINKED_WALLETS). */
  dev_linked: string[]
  /** Funded by one wallet in one sitting (WALLET_CLUSTER). */
  clustered: string[]
  /** Linked wallets that bought in the slot the pool opened (BUNDLED_LAUNCH). */
  bundle_buyers: string[]
}

const shortened = (address: string) => `${address.slice(0, 4)}…`

/** The most wallets the graph labels with their address (12-unit labels around the ring fit side by side up to this many). */
const WALLET_LABELS_MAX = 8

/**
 * Who is tied to whom, as the deep dive's findings name them: the developer in the middle, the wallets it
 * funded around it (a line to it), the wallets a shared funder paid around that funder, and the
 * bundle buyers ringed twice and lettered B: each kind has its own shape and letter, not only a colour.
 */
export function walletGraph(links: WalletLinks): HTMLElement {
  const wallets = [...new Set([...links.dev_linked, ...links.clustered, ...links.bundle_buyers])]
  const cx = 150
  const cy = 110
  const nodes: SVGElement[] = []
  const edges: SVGElement[] = []
  const funder = { x: 250, y: 40 }
  const hasCluster = links.clustered.some((wallet) => !links.dev_linked.includes(wallet))
  wallets.forEach((wallet, index) => {
    const angle = (2 * Math.PI * index) / wallets.length - Math.PI / 2
    const x = cx + 85 * Math.cos(angle)
    const y = cy + 80 * Math.sin(angle)
    const toDev = links.dev_linked.includes(wallet)
    const bundled = links.bundle_buyers.includes(wallet)
    if (toDev && links.developer)
      edges.push(
        s('line', { x1: cx, y1: cy, x2: x.toFixed(1), y2: y.toFixed(1), stroke: 'var(--bad)', 'stroke-width': 1.5 }),
      )
    if (links.clustered.includes(wallet) && !toDev)
      edges.push(
        s('line', {
          x1: funder.x,
          y1: funder.y,
          x2: x.toFixed(1),
          y2: y.toFixed(1),
          stroke: 'var(--warn)',
          'stroke-width': 1.5,
          'stroke-dasharray': '4 3',
        }),
      )
    const letter = bundled ? 'B' : toDev ? 'D' : 'C'
    nodes.push(
      s(
        'g',
        {},
        s(
          'title',
          {},
          `${wallet}: ${[toDev ? 'funded by the developer' : '', links.clustered.includes(wallet) ? 'shares a funder' : '', bundled ? 'bought in the opening slot' : ''].filter(Boolean).join(', ')}`,
        ),
        ...(bundled
          ? [s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 13, fill: 'none', stroke: 'currentColor' })]
          : []),
        s('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 9, fill: toDev ? 'var(--bad)' : 'var(--warn)' }),
        s(
          'text',
          {
            x: x.toFixed(1),
            y: (y + 4).toFixed(1),
            'font-size': 12,
            'text-anchor': 'middle',
            fill: '#fff',
            'font-weight': 700,
          },
          letter,
        ),
        // Each address under its node while they fit side by side; beyond, the table lists them.
        ...(wallets.length > WALLET_LABELS_MAX
          ? []
          : [
              s(
                'text',
                {
                  x: x.toFixed(1),
                  y: (y + 25).toFixed(1),
                  'font-size': 12,
                  'text-anchor': 'middle',
                  fill: 'currentColor',
                },
                shortened(wallet),
              ),
            ]),
      ),
    )
  })
  // With no wallet to draw, only the developer: a short strip, not a tall empty frame around one square.
  const svg = s(
    'svg',
    { viewBox: wallets.length === 0 ? '0 80 300 60' : '0 0 300 220' },
    ...edges,
    ...(hasCluster
      ? [
          s('rect', { x: funder.x - 10, y: funder.y - 10, width: 20, height: 20, fill: 'var(--warn)' }),
          s(
            'text',
            { x: funder.x, y: funder.y - 14, 'font-size': 12, 'text-anchor': 'middle', fill: 'currentColor' },
            'shared funder',
          ),
        ]
      : []),
    ...(links.developer
      ? [
          s('rect', { x: cx - 14, y: cy - 14, width: 28, height: 28, rx: 4, fill: 'var(--fg)' }),
          s(
            'text',
            { x: cx, y: cy + 4, 'font-size': 12, 'text-anchor': 'middle', fill: 'var(--card)', 'font-weight': 800 },
            'DEV',
          ),
        ]
      : []),
    ...nodes,
  )
  return figure(
    'wallets',
    wallets.length === 0
      ? 'No wallet tied to the developer or to a shared funder among those traced'
      : `${count(links.dev_linked.length, 'wallet')} funded by the developer (D, solid line), ${links.clustered.length} sharing a funder (C, dashed line), ${links.bundle_buyers.length} of them bought in the opening slot (B, ringed)`,
    svg,
    [
      ['Developer', links.developer ?? 'not read'],
      ['Funded by the developer', links.dev_linked.join(', ') || 'none'],
      ['Sharing a funder', links.clustered.join(', ') || 'none'],
      ['Bought in the opening slot', links.bundle_buyers.join(', ') || 'none'],
    ],
    links,
  )
}

// ---- the LP ------------------------------------------------------------------------------------------

export interface LpLock {
  burned_pct: number
  lock_program_pct: number
  locked_pct: number
  lock_duration_days: number
  permanent: boolean
  source: string
}

/**
 * Where the pool's LP sits: burned (gone for good), in lock programs (until the lock releases), and
 * free (its holders can withdraw now), each segment patterned and named; the lock's length beside it.
 */
export function lpBar(lock: LpLock): HTMLElement {
  const free = Math.max(0, 100 - lock.burned_pct - lock.lock_program_pct)
  const id = `lp-${figures + 1}`
  const segments = [
    { label: 'Burned', share: lock.burned_pct, fill: 'var(--good)' },
    {
      label: lock.source === 'bonding_curve' ? 'In the bonding curve' : 'In lock programs',
      share: lock.lock_program_pct,
      fill: `url(#${id})`,
    },
    { label: 'Free to withdraw', share: free, fill: 'var(--bad)' },
  ]
  let x = 0
  const bars = segments.map((segment) => {
    const width = (segment.share / 100) * 300
    const rect = s('rect', { x: x.toFixed(2), y: 4, width: width.toFixed(2), height: 24, fill: segment.fill })
    rect.append(s('title', {}, `${segment.label}: ${pct(segment.share)}`))
    x += width
    return rect
  })
  const until = lock.permanent
    ? 'locked for good'
    : lock.locked_pct > 0 && lock.lock_duration_days > 0
      ? `locked for ${num(lock.lock_duration_days)} more days`
      : 'not locked'
  const svg = s(
    'svg',
    { viewBox: '0 0 300 50' },
    s(
      'defs',
      {},
      s(
        'pattern',
        { id, width: 6, height: 6, patternUnits: 'userSpaceOnUse' },
        s('rect', { width: 6, height: 6, fill: 'var(--warn)' }),
        s('circle', { cx: 3, cy: 3, r: 1.2, fill: '#fff' }),
      ),
    ),
    ...bars,
    s('text', { x: 0, y: 46, 'font-size': 12, fill: 'currentColor' }, `LP ${pct(lock.locked_pct)} locked · ${until}`),
  )
  return figure(
    'lp',
    `The pool's LP: ${segments.map((segment) => `${segment.label.toLowerCase()} ${pct(segment.share)}`).join(', ')}; ${until}`,
    svg,
    [...segments.map((segment): [string, string] => [segment.label, pct(segment.share)]), ['Lock', until]],
    {
      burned_pct: lock.burned_pct,
      lock_program_pct: lock.lock_program_pct,
      locked_pct: lock.locked_pct,
      lock_duration_days: lock.lock_duration_days,
      permanent: lock.permanent,
    },
  )
}

/** The wallets the deep dive's findings name, by how they are tied (their evidence), for the graph. */
export function walletLinks(dive: {
  dev_wallet_analysis?: { address: string }
  factors: { code: string; evidence: Record<string, unknown> }[]
}): WalletLinks {
  const listed = (code: string, member: string) => {
    const value = dive.factors.find((item) => item.code === code)?.evidence[member]
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
  }
  return {
    developer: dive.dev_wallet_analysis?.address ?? null,
    dev_linked: listed('DEV_LINKED_WALLETS', 'dev_linked_wallets'),
    clustered: listed('WALLET_CLUSTER', 'clustered_wallets'),
    bundle_buyers: listed('BUNDLED_LAUNCH', 'linked_buyers'),
  }
}

// ---- the LP's locks over time -------------------------------------------------------------------------

/** The LP finding's evidence (signals/lp-status): the burned share, the locks, when each releases. */
export interface LpEvidence {
  burned_pct: number
  locked_pct?: number
  permanent_locked_pct?: number
  /** Each time lock: the share it holds and the days until it releases (null: not dated), from the answer's time. */
  unlocks?: { inDays: number | null; pct: number; program: string }[]
}

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * When the LP can be pulled: the share held against time, from the answer's moment to past the last
 * unlock — the burned share a band to the end (permanent, never released), permanent locks above it,
 * each time lock a step down on the date it releases (dated on the axis), today marked. Locks whose
 * date was not read are named in the table, not drawn as if they held for ever.
 */
export function lpTimeline(evidence: LpEvidence, answeredAt: number, now = Date.now()): HTMLElement {
  const burned = evidence.burned_pct
  const permanent = evidence.permanent_locked_pct ?? 0
  const dated = (evidence.unlocks ?? [])
    .filter((unlock) => unlock.inDays !== null)
    .map((unlock) => ({
      date: isoDay(answeredAt + (unlock.inDays as number) * DAY_MS),
      at: answeredAt + (unlock.inDays as number) * DAY_MS,
      in_days: unlock.inDays as number,
      pct: unlock.pct,
      program: unlock.program,
    }))
    .sort((a, b) => a.at - b.at)
  const undated = (evidence.unlocks ?? []).filter((unlock) => unlock.inDays === null)
  const start = Math.min(answeredAt, now)
  const last = dated.length ? dated[dated.length - 1]!.at : answeredAt + 30 * DAY_MS
  const end = start + Math.max(last - start, 7 * DAY_MS) * 1.15
  const left = 40
  const right = 292
  const x = (ms: number) => left + ((ms - start) / (end - start)) * (right - left)
  const y = (share: number) => 70 - (Math.min(100, Math.max(0, share)) / 100) * 60
  // The share held at each moment: burned and permanent always, each dated lock until its date.
  const timeLocked = dated.reduce((sum, unlock) => sum + unlock.pct, 0)
  let held = burned + permanent + timeLocked
  let path = `M${left} ${y(held).toFixed(1)}`
  for (const unlock of dated) {
    path += ` H${x(unlock.at).toFixed(1)}`
    held -= unlock.pct
    path += ` V${y(held).toFixed(1)}`
  }
  path += ` H${right}`
  const band = (from: number, to: number, fill: string, label: string) =>
    to - from <= 0
      ? []
      : [
          s('rect', {
            x: left,
            y: y(to).toFixed(1),
            width: right - left,
            height: (y(from) - y(to)).toFixed(1),
            fill,
            'fill-opacity': 0.35,
          }),
          s(
            'text',
            {
              x: right - 2,
              y: Math.min(y(from) - 2, y(to) + 12).toFixed(1),
              'font-size': 12,
              'text-anchor': 'end',
              fill: 'currentColor',
            },
            label,
          ),
        ]
  const svg = s(
    'svg',
    { viewBox: '0 0 300 118' },
    s('line', { x1: left, y1: 70, x2: right, y2: 70, stroke: 'currentColor', 'stroke-width': 1 }),
    s('text', { x: left - 4, y: 14, 'font-size': 12, 'text-anchor': 'end', fill: 'currentColor' }, '100%'),
    s('text', { x: left - 4, y: 74, 'font-size': 12, 'text-anchor': 'end', fill: 'currentColor' }, '0%'),
    ...band(0, burned, 'var(--good)', `burned ${pct(burned)} · permanent`),
    ...band(burned, burned + permanent, 'var(--good)', `locked for good ${pct(permanent)}`),
    // The share held, shaded under its step line (a time lock's part above the permanent bands).
    s('path', { d: `${path} V70 H${left} Z`, fill: 'var(--accent)', 'fill-opacity': 0.15, stroke: 'none' }),
    s('path', { d: path, fill: 'none', stroke: 'var(--accent)', 'stroke-width': 2.5 }),
    // Today, marked on the axis.
    s('line', {
      x1: x(now).toFixed(1),
      y1: 6,
      x2: x(now).toFixed(1),
      y2: 74,
      stroke: 'var(--bad)',
      'stroke-width': 1.5,
      'stroke-dasharray': '3 2',
    }),
    s(
      'text',
      { x: x(now).toFixed(1), y: 86, 'font-size': 12, 'text-anchor': 'start', fill: 'currentColor' },
      `now ${isoDay(now)}`,
    ),
    ...dated.flatMap((unlock, index) => [
      s('circle', { cx: x(unlock.at).toFixed(1), cy: 70, r: 3, fill: 'var(--bad)' }),
      s(
        'text',
        {
          x: x(unlock.at).toFixed(1),
          y: 100 + (index % 2) * 14,
          'font-size': 12,
          // A date near the left edge reads rightwards from its point, else leftwards: never cut off.
          'text-anchor': x(unlock.at) < 150 ? 'start' : 'end',
          fill: 'currentColor',
        },
        `${unlock.date} −${pct(unlock.pct)}`,
      ),
    ]),
  )
  const after = burned + permanent
  const undatedPct = undated.reduce((sum, unlock) => sum + unlock.pct, 0)
  const free = Math.max(0, 100 - after - timeLocked - undatedPct)
  const forGood = `burned ${pct(burned)}${permanent ? `, permanent locks ${pct(permanent)}` : ''}`
  const parts = [
    after > 0
      ? `${pct(after)} of the LP can never be pulled (${forGood})`
      : 'None of the LP is burned or locked for good',
    ...dated.map((unlock) => `${pct(unlock.pct)} unlocks ${unlock.date}`),
    ...(undatedPct > 0 ? [`${pct(undatedPct)} in locks whose date was not read`] : []),
    ...(free > 0 ? [`${pct(free)} can be withdrawn now`] : []),
  ]
  const caption = parts.join('; ')
  return figure(
    'lp-timeline',
    caption,
    svg,
    [
      ['Burned (permanent)', pct(burned)],
      ...(permanent ? [['Locked for good', pct(permanent)] as [string, string]] : []),
      ...dated.map((unlock): [string, string] => [
        `Unlocks ${unlock.date}`,
        `${pct(unlock.pct)} (${unlock.program.replaceAll('_', ' ')})`,
      ]),
      ...(free > 0 ? [['Free to withdraw now', pct(free)] as [string, string]] : []),
      ...undated.map((unlock): [string, string] => [
        'Release date not read',
        `${pct(unlock.pct)} (${unlock.program.replaceAll('_', ' ')})`,
      ]),
    ],
    {
      burned_pct: burned,
      permanent_locked_pct: permanent,
      unlocks: dated.map(({ date, in_days, pct: share, program }) => ({ date, in_days, pct: share, program })),
      undated_pct: undated.reduce((sum, unlock) => sum + unlock.pct, 0),
    },
  )
}
