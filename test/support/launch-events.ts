import type { CreateEvent } from '../../src/onchain/pump-events.ts'

/** A pump.fun coin's creation at `timestamp` (Unix s), as the index reads it: a fresh curve's reserves. */
export const createEvent = (mint: string, timestamp: number): CreateEvent => ({
  kind: 'create',
  name: 'Curvy Cat',
  symbol: 'CURVY',
  uri: '',
  mint,
  bondingCurve: 'H2wBtmoNBQUD3jAseUVKm5WzZYMhbnWQkJ4RyxZjVDNv',
  user: 'dev',
  creator: 'dev',
  timestamp,
  virtualTokenReserves: 1_073_000_000_000_000n,
  virtualSolReserves: 30_000_000_000n,
  realTokenReserves: 793_100_000_000_000n,
  tokenTotalSupply: 1_000_000_000_000_000n,
})
