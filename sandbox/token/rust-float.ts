/**
 * f64 → text the way the real RPC's Rust code prints it. JavaScript's `String(x)` differs: it
 * switches to exponent notation (`1e+21`, `1e-7`) and never writes `1.0`, and `toFixed` rounds ties
 * up instead of to even. Three Rust formats matter to the token decoder:
 *
 * - `format!("{}", x)` (Display): the multipliers of ScaledUiAmountConfig.
 * - `format!("{:.*}", decimals, x)` (fixed precision): uiAmountString of interest-bearing and
 *   scaled-UI-amount mints.
 * - serde_json (the `ryu` crate): every f64 in the JSON body, i.e. `uiAmount`.
 */

/** Shortest round-trip decimal digits of a finite, non-zero |x|: |x| = digits × 10^exponent. */
function shortestDigits(x: number): { digits: string; exponent: number } {
  // String() already yields the shortest digits that round-trip (ECMA-262 Number::toString),
  // as Rust's Grisu/Dragon and ryu do; only the layout differs.
  const text = String(Math.abs(x))
  const [mantissa = '', exponentText] = text.split('e')
  const [whole = '', fraction = ''] = mantissa.split('.')
  let digits = (whole + fraction).replace(/^0+/, '')
  let exponent = (exponentText === undefined ? 0 : Number(exponentText)) - fraction.length
  const trimmed = digits.replace(/0+$/, '')
  exponent += digits.length - trimmed.length
  digits = trimmed
  return { digits, exponent }
}

/** `format!("{}", x)` for an f64: shortest round-trip digits, never in exponent notation. */
export function formatF64Display(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  if (x === 0) return `${sign}0`
  const { digits, exponent } = shortestDigits(x)
  if (exponent >= 0) return sign + digits + '0'.repeat(exponent)
  const point = digits.length + exponent
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
  return `${sign}0.${'0'.repeat(-point)}${digits}`
}

/**
 * An f64 as serde_json writes it (ryu's `format64`), or `null` when it is not finite: `1.0`,
 * `0.42`, `1e16`, `1e-9`, `1.5e-7`. Integral values keep `.0`, which matters to clients such as
 * @solana/kit that read a bare integer as a bigint.
 */
export function formatF64Json(x: number): string {
  if (!Number.isFinite(x)) return 'null'
  const sign = x < 0 || Object.is(x, -0) ? '-' : ''
  if (x === 0) return `${sign}0.0`
  const { digits, exponent: k } = shortestDigits(x)
  const length = digits.length
  const kk = length + k // 10^(kk-1) <= |x| < 10^kk
  if (k >= 0 && kk <= 16) return `${sign}${digits}${'0'.repeat(k)}.0`
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${digits}`
  const scientific = length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`
  return `${sign}${scientific}e${kk - 1}`
}

/**
 * `format!("{:.*}", precision, x)`: the exact binary value rounded to `precision` decimals, ties to
 * even (Rust's `flt2dec` exact mode), never in exponent notation.
 */
export function formatF64Fixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'inf'
  if (x === -Infinity) return '-inf'
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, x)
  const bits = view.getBigUint64(0)
  const negative = bits >> 63n === 1n
  const biasedExponent = Number((bits >> 52n) & 0x7ffn)
  const fraction = bits & ((1n << 52n) - 1n)
  // |x| = mantissa × 2^exponent exactly
  const mantissa = biasedExponent === 0 ? fraction : fraction | (1n << 52n)
  const exponent = biasedExponent === 0 ? -1074 : biasedExponent - 1075
  const scaled = mantissa * 10n ** BigInt(precision)
  let units: bigint
  if (exponent >= 0) {
    units = scaled << BigInt(exponent)
  } else {
    const divisor = 1n << BigInt(-exponent)
    units = scaled / divisor
    const twiceRemainder = (scaled % divisor) * 2n
    if (twiceRemainder > divisor || (twiceRemainder === divisor && units % 2n === 1n)) units += 1n
  }
  const text = units.toString().padStart(precision + 1, '0')
  const body = precision > 0 ? `${text.slice(0, text.length - precision)}.${text.slice(text.length - precision)}` : text
  return (negative ? '-' : '') + body
}

/**
 * `num_traits::pow(base, exp)` for f64: exponentiation by squaring with a rounding at every step,
 * which is what token-2022 divides by (not `10 ** exp`, which may round differently past 10^22).
 */
export function powF64(base: number, exp: number): number {
  if (exp === 0) return 1
  let b = base
  let e = exp
  while ((e & 1) === 0) {
    b = b * b
    e >>= 1
  }
  if (e === 1) return b
  let acc = b
  while (e > 1) {
    e >>= 1
    b = b * b
    if ((e & 1) === 1) acc = acc * b
  }
  return acc
}
