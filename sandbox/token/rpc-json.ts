import { formatF64Json } from './rust-float.ts'

/**
 * JSON text the way agave's RPC (serde_json) writes it, for values that hold bigints. Two things
 * differ from `JSON.stringify`: a bigint becomes a bare integer literal (u64 fields such as
 * `maximumFee` are JSON numbers past 2^53, which @solana/kit reads back exactly as bigints), and an
 * f64 member keeps serde's float text (`1.0`, `1e-9`) so the body matches the real RPC byte for byte
 * (kit happens to know `uiAmount` is a float; a client that types numbers by their text does not).
 * JavaScript numbers do not say whether they were an f64 in Rust, so the float members are named:
 * by default `uiAmount`, the only f64 in token-account responses.
 */

/** Member names whose numbers are Rust f64s. */
export const RPC_FLOAT_KEYS: ReadonlySet<string> = new Set(['uiAmount'])

/** Serializes `value` as the RPC would; `floatKeys` names the members printed as f64. */
export function stringifyRpcJson(value: unknown, floatKeys: ReadonlySet<string> = RPC_FLOAT_KEYS): string {
  return write(value, undefined, floatKeys) ?? 'null'
}

function write(value: unknown, key: string | undefined, floatKeys: ReadonlySet<string>): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return value.toString()
    case 'number':
      if (key !== undefined && floatKeys.has(key)) return formatF64Json(value)
      return Number.isSafeInteger(value) ? String(value) : formatF64Json(value)
    case 'string':
    case 'boolean':
      return JSON.stringify(value)
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    default:
      break
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map((item) => write(item, undefined, floatKeys) ?? 'null').join(',')}]`
  const members: string[] = []
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    const text = write(member, name, floatKeys)
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`)
  }
  return `{${members.join(',')}}`
}
