/**
 * Numbers for people, formatted once: the service's own prose (summaries, reports, findings), the CLI
 * (client/render.ts, client/cli.ts, through client/format.ts) and the web page use these. Pure functions
 * with no imports and no Node API, so the browser bundle and the client take them as they are.
 *
 *   usd(0.0000154431195186701)  → "$0.0000154"      usd(1234567.891) → "$1,234,567.89"
 *   usd(2_500_000, { compact: true }) → "$2.5M"      num(1234.5) → "1,234.5"
 *   pct(-38.834, { signed: true }) → "-38.83%"       pct(-38.834) → "38.83%"   (a sign only when asked)
 *   tokenAmount('100000000', 9, 'SOL') → "0.1 SOL"   count(1, 'token') → "1 token"
 *
 * A value that was not measured (null, undefined, NaN) reads "not measured", never "?", "$0" or "0%".
 */

/** What a missing value reads as; src/rendering/answer-prose.ts's NOT_MEASURED_TEXT is this constant. */
export const NOT_MEASURED = 'not measured'

/** Options every number takes: `compact` (1.2k, 3.4M, 5.6B) for tables, `missing` for the text of a null. */
export interface NumberOptions {
  compact?: boolean
  /** What null, undefined or NaN reads as. @default "not measured" */
  missing?: string
}

const absent = (n: number | null | undefined): n is null | undefined => n === null || n === undefined || Number.isNaN(n)

const COMPACT = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
] as const

/**
 * A non-negative magnitude: thousands separators and two decimals at most from 1 up; three significant
 * digits under 1 (0.0000154, never 0.00); `compact` shortens from a thousand (12.3k, 4.5M).
 */
function magnitude(size: number, compact: boolean): string {
  if (!Number.isFinite(size)) return '∞'
  if (compact)
    for (const [unit, suffix] of COMPACT)
      if (size >= unit) return `${(size / unit).toLocaleString('en-US', { maximumFractionDigits: 1 })}${suffix}`
  if (size === 0) return '0'
  if (size >= 1) return size.toLocaleString('en-US', { maximumFractionDigits: 2 })
  return size.toLocaleString('en-US', { maximumSignificantDigits: 3 })
}

/** A number: `1,234.5`, `0.00421`, with `compact` `12.3k`; its sign when it is negative. */
export function num(n: number | null | undefined, options: NumberOptions = {}): string {
  if (absent(n)) return options.missing ?? NOT_MEASURED
  return `${n < 0 ? '-' : ''}${magnitude(Math.abs(n), options.compact ?? false)}`
}

/** US dollars: `$1,234.56`, `$0.0000154`, `-$12.50`, with `compact` `$2.5M`. */
export function usd(n: number | null | undefined, options: NumberOptions = {}): string {
  if (absent(n)) return options.missing ?? NOT_MEASURED
  // Cents as money reads them: $12.50 and $0.50, never $12.5 (a compact $2.5M stays as it is).
  const text = magnitude(Math.abs(n), options.compact ?? false).replace(
    /^[\d,]*\.\d$/,
    (oneDecimal) => `${oneDecimal}0`,
  )
  return `${n < 0 ? '-' : ''}$${text}`
}

/**
 * A percentage: two decimals under 100, one under 1000, none above (`38.83%`, `250.5%`, `1,200%`).
 * `signed`: `+12.5%` / `-38.83%`, for a change; otherwise the magnitude alone, for words that already
 * say the direction ("fell 38.83%", "lost 4.2%").
 */
export function pct(n: number | null | undefined, options: NumberOptions & { signed?: boolean } = {}): string {
  if (absent(n)) return options.missing ?? NOT_MEASURED
  const size = Math.abs(n)
  const digits = size < 100 ? 2 : size < 1000 ? 1 : 0
  const text = size.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits })
  // A change that rounds to nothing is no change: no sign on 0%.
  const zero = Number(size.toFixed(digits)) === 0
  const sign = options.signed && !zero ? (n < 0 ? '-' : '+') : ''
  return `${sign}${text}%`
}

/**
 * An amount of a token from its atomic units, exactly (no float): `tokenAmount('100000000', 9, 'SOL')`
 * → `0.1 SOL`, `tokenAmount(1234567891n, 6)` → `1,234.567891`. Trailing zeros are dropped.
 */
export function tokenAmount(
  atomic: string | number | bigint | null | undefined,
  decimals: number,
  symbol?: string,
  options: { missing?: string } = {},
): string {
  if (atomic === null || atomic === undefined || (typeof atomic === 'number' && !Number.isFinite(atomic)))
    return options.missing ?? NOT_MEASURED
  const value = BigInt(typeof atomic === 'number' ? Math.trunc(atomic) : atomic)
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = decimals > 0 ? digits.slice(digits.length - decimals).replace(/0+$/, '') : ''
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const text = `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`
  return symbol ? `${text} ${symbol}` : text
}

/**
 * A person's amount of a token (`"0.1"`, `"1,000"`, `"25"`) in its atomic units; an error message when
 * it is not a positive decimal number or has more decimals than the token (`{ error }`).
 */
export function parseTokenAmount(text: string, decimals: number): { atomic: bigint } | { error: string } {
  const cleaned = text.trim().replaceAll(',', '').replaceAll('_', '')
  const match = /^(\d*)(?:\.(\d*))?$/.exec(cleaned)
  if (!match || cleaned === '' || cleaned === '.')
    return { error: `${JSON.stringify(text)} is not an amount: write it as a number, such as 0.1 or 25` }
  const [, whole = '', fraction = ''] = match
  if (fraction.length > decimals)
    return {
      error: `${text} has more decimals than the token's ${decimals}: its smallest unit is ${tokenAmount(1n, decimals)}`,
    }
  const atomic = BigInt(`${whole || '0'}${fraction.padEnd(decimals, '0')}`)
  if (atomic === 0n) return { error: 'the amount must be more than zero' }
  return { atomic }
}

/** A length of time in one unit people read at a glance: "45 s", "13 min", "7 h", "3 days"; null: not measured. */
export function duration(seconds: number | null | undefined, options: { missing?: string } = {}): string {
  if (absent(seconds)) return options.missing ?? NOT_MEASURED
  if (seconds < 120) return `${num(Math.round(seconds))} s`
  if (seconds < 7200) return `${num(Math.round(seconds / 60))} min`
  if (seconds < 172_800) return `${num(Math.round(seconds / 3600))} h`
  return `${num(Math.round(seconds / 86_400))} days`
}

/** When something is expected, for a sentence: "in under a minute", "in about 13 min", "in about 7 h". */
export function inAbout(seconds: number): string {
  return seconds < 60 ? 'in under a minute' : `in about ${duration(seconds)}`
}

/** `n` and its noun, singular or plural: `count(1, 'token')` → "1 token", `count(3, 'buy')` → "3 buys". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${Math.abs(n) === 1 ? noun : plural}`
}

/** A long address shortened for a line: `DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263` → `DezX…B263`. */
export function shortAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1 ? address : `${address.slice(0, keep)}…${address.slice(-keep)}`
}

/**
 * A count in words, "no" for none: `howMany(0, 'proven wallet')` → "no proven wallets", `howMany(1,
 * 'curve')` → "1 curve" — for a sentence, where "0 proven wallets" reads like a reading.
 */
export function howMany(n: number, noun: string, plural = `${noun}s`): string {
  return n === 0 ? `no ${plural}` : count(n, noun, plural)
}

/**
 * A token amount already in human units (a float, as answers carry it): `amount(2547.551541, 'USDC')` →
 * "2,547.55 USDC", `amount(0.0001234, 'SOL')` → "0.000123 SOL". USDC reads with cents, as money does.
 */
export function amount(n: number | null | undefined, symbol: string, options: NumberOptions = {}): string {
  if (absent(n)) return options.missing ?? NOT_MEASURED
  const text = symbol === 'USDC' ? usd(n, options).replace('$', '') : num(n, options)
  return `${text} ${symbol}`
}

/** A code in words, as people read it: `THIN_LIQUIDITY` → "thin liquidity". */
export const words = (code: string) => code.toLowerCase().replaceAll('_', ' ')

/** Jupiter's rankings a feed reads (`ranking:<name>` in `missing_fields`), in words. */
const RANKINGS: Record<string, string> = {
  toptrending: 'the top trending ranking',
  toptraded: 'the top traded ranking',
  toporganicscore: 'the top organic score ranking',
}

/** What an answer's `missing_fields` entry did not read, in words (`ranking:toporganicscore`: the top organic score ranking). */
export function missingInWords(field: string): string {
  const ranking = field.startsWith('ranking:') ? field.slice('ranking:'.length) : null
  return ranking === null ? words(field) : (RANKINGS[ranking] ?? `the ${ranking} ranking`)
}
