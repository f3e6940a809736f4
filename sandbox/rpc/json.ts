/**
 * JSON for Solana RPC answers: u64 values (lamports, slots) are JSON numbers of any size, as the real
 * RPC writes them, so bigints are emitted as bare digits rather than strings or lossy doubles.
 */
export function stringifyRpc(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${BIGINT_MARK}${item}` : item)).replace(
    BIGINT_PATTERN,
    '$1',
  )
}

const BIGINT_MARK = '\u0000bigint:'
const BIGINT_PATTERN = /"\\u0000bigint:(-?\d+)"/g
