import { V1_TO_V2_NETWORK_MAP } from '@x402/svm'
import { EVM_NETWORK_CHAIN_ID_MAP } from '@x402/evm/v1'
import type { Config } from '../kernel/config.ts'
import { USDC_MINT_ADDRESS } from '../onchain/programs.ts'

/** A payment rail: a chain (CAIP-2) and its USDC asset. Both rails are offered on every paid call. */
export interface Rail {
  name: 'base' | 'solana'
  /** CAIP-2 chain id. */
  network: string
  /** The chain's x402 v1 short name (`base`, `solana-devnet`), or null where v1 has none (anvil). */
  v1Network: string | null
  /** USDC contract (Base) or mint (Solana). */
  asset: string
  payTo: string | undefined
  /** Scheme details the payer needs: the EIP-712 domain of an EVM asset (the SVM fee payer comes from the facilitator). */
  extra: Record<string, string>
}

/** USDC on the two mainnet rails (FACTS.md §Upstream APIs). */
const MAINNET = {
  base: { network: 'eip155:8453', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', domain: 'USD Coin,2' },
  solana: { network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', asset: USDC_MINT_ADDRESS },
} as const

/**
 * The sandbox's networks: a local anvil chain and the sandbox Solana chain, which poses as devnet
 * because the official x402 schemes accept only the built-in Solana CAIP-2 ids (FACTS.md §x402 on a
 * LiteSVM sandbox). Their assets are created when the sandbox boots, which passes them in the
 * ordinary settings.
 */
const SANDBOX = {
  base: { network: 'eip155:31337' },
  solana: { network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' },
} as const

/** The x402 v1 short name of a CAIP-2 network, from the official packages' tables. */
export function v1NetworkName(network: string): string | null {
  for (const [name, caip2] of Object.entries(V1_TO_V2_NETWORK_MAP)) if (caip2 === network) return name
  const [namespace, reference] = network.split(':')
  if (namespace === 'eip155')
    for (const [name, chainId] of Object.entries(EVM_NETWORK_CHAIN_ID_MAP))
      if (String(chainId) === reference) return name
  return null
}

/** The rails this configuration offers, in the order of the 402 challenge. */
export function paymentRails(config: Config): Rail[] {
  const mainnet = config.SOLSENTRY_PROFILE === 'mainnet'
  const defaults = mainnet ? MAINNET : SANDBOX
  const baseNetwork = config.BASE_PAYMENT_NETWORK ?? defaults.base.network
  const solanaNetwork = config.SOLANA_PAYMENT_NETWORK ?? defaults.solana.network
  const [domainName, domainVersion] = (config.BASE_PAYMENT_ASSET_DOMAIN ?? MAINNET.base.domain).split(',') as [
    string,
    string,
  ]
  return [
    {
      name: 'base',
      network: baseNetwork,
      v1Network: v1NetworkName(baseNetwork),
      asset: config.BASE_PAYMENT_ASSET ?? (mainnet ? MAINNET.base.asset : ''),
      payTo: config.PAY_TO_BASE,
      extra: { name: domainName.trim(), version: domainVersion.trim() },
    },
    {
      name: 'solana',
      network: solanaNetwork,
      v1Network: v1NetworkName(solanaNetwork),
      asset: config.SOLANA_PAYMENT_ASSET ?? (mainnet ? MAINNET.solana.asset : ''),
      payTo: config.PAY_TO_SOLANA,
      extra: {},
    },
  ]
}
