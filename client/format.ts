/**
 * Numbers as people read them, one formatter for the web page and the CLI (imports nothing: the page's
 * bundle and the CLI both take it whole).
 *
 * - `usd(0.0000154431195186701)` → `$0.0000154` (3 significant digits under a dollar), `usd(1234.5)` → `$1,234.50`
 * - `num(1234567.891)` → `1,234,567.89`, `num(0.000123456)` → `0.000123`
 * - `pct(-38.83)` → `-38.8%`, `pct(5)` → `+5.0%` (the sign once, in the number), `pct(45.2, { sign: false })` → `45.2%`
 * - `tokenAmount('1500000', 6, 'USDC')` → `1.5 USDC` (atomic units to whole tokens, never through a float)
 *
 * Not a number (null, undefined, NaN, ±Infinity) reads `—`: the callers say *not measured* where that applies.
 */

const NONE = '—'
const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const cents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const upTo2 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })
const sig3 = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 })
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** A USD amount: cents from a dollar up, 3 significant digits below (a tiny price keeps its digits). */
export function usd(n: number | null | undefined): string {
  if (!finite(n)) return NONE
  const size = Math.abs(n)
  const text = size === 0 ? '0' : size >= 1 ? cents.format(size) : sig3.format(size)
  return `${n < 0 && text !== '0' ? '-' : ''}$${text}`
}

/** A count or a quantity: thousands separators, 2 decimals at most from 1 up, 3 significant digits below. */
export function num(n: number | null | undefined): string {
  if (!finite(n)) return NONE
  if (Number.isInteger(n)) return whole.format(n)
  return Math.abs(n) >= 1 ? upTo2.format(n) : sig3.format(n)
}

/**
 * A percentage: one decimal (none from 1,000 up), signed by default (`+5.0%`, `-38.8%`: the sign is the
 * number's, so no "fell -38%"); `{ sign: false }` for a share (`45.2%`). Zero has no sign.
 */
export function pct(n: number | null | undefined, options: { sign?: boolean } = {}): string {
  if (!finite(n)) return NONE
  const size = Math.abs(n)
  const text = size >= 1000 ? whole.format(size) : oneDecimal.format(size)
  const zero = Number(text.replaceAll(',', '')) === 0
  const sign = zero ? '' : n < 0 ? '-' : options.sign === false ? '' : '+'
  return `${sign}${text}%`
}

/**
 * Atomic units as whole tokens, exactly (bigint arithmetic): thousands separators, up to 4 decimals from
 * one token up, 3 significant digits below; truncated, never rounded up. The symbol follows when given.
 */
export function tokenAmount(atomic: bigint | string | number, decimals: number, symbol?: string | null): string {
  let units: bigint
  try {
    units = typeof atomic === 'bigint' ? atomic : BigInt(atomic)
  } catch {
    return NONE
  }
  const negative = units < 0n
  if (negative) units = -units
  const scale = 10n ** BigInt(Math.max(0, Math.trunc(decimals)))
  const integer = units / scale
  let fraction = (units % scale).toString().padStart(Math.max(0, Math.trunc(decimals)), '0')
  if (integer > 0n) fraction = fraction.slice(0, 4)
  else {
    const first = fraction.search(/[1-9]/)
    fraction = first < 0 ? '' : fraction.slice(0, first + 3)
  }
  fraction = fraction.replace(/0+$/, '')
  const grouped = integer.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const text = `${negative && (integer > 0n || fraction) ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`
  return symbol ? `${text} ${symbol}` : text
}
