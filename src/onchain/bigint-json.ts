/** JSON.stringify replacer for chain answers carrying bigints (errors, amounts): written as decimal strings. */
export function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}
