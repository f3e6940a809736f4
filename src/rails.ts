import type { Config } from './config.ts'

/** A payment rail: a chain (CAIP-2) and its USDC asset. Both rails are offered on every paid call. */
export interface Rail {
  name: 'base' | 'solana'
  /** CAIP-2 chain id. */
  network: string
  /** USDC contract (Base) or mint (Solana). */
  asset: string
  payTo: string | undefined
}

/** USDC on the two mainnet rails (FACTS.md §Upstream APIs). */
const MAINNET_RAILS = {
  base: { network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  solana: { network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
} as const

/**
 * The sandbox's rails: a local anvil chain and the sandbox Solana chain, which poses as devnet because
 * the official x402 schemes accept only the built-in Solana CAIP-2 ids (FACTS.md §x402 on a LiteSVM sandbox).
 * Their USDC assets are minted by the sandbox when it boots, so they are filled in from there.
 */
const SANDBOX_RAILS = {
  base: { network: 'eip155:31337', asset: '' },
  solana: { network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', asset: '' },
} as const

/** The rails this profile offers, in the order of the 402 challenge. */
export function paymentRails(config: Config): Rail[] {
  const rails = config.SOLSENTRY_PROFILE === 'mainnet' ? MAINNET_RAILS : SANDBOX_RAILS
  return [
    { name: 'base', ...rails.base, payTo: config.PAY_TO_BASE },
    { name: 'solana', ...rails.solana, payTo: config.PAY_TO_SOLANA },
  ]
}
