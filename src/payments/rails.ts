import { V1_TO_V2_NETWORK_MAP } from '@x402/svm'
import { EVM_NETWORK_CHAIN_ID_MAP } from '@x402/evm/v1'
import type { Config } from '../kernel/config.ts'
import { USDC_MINT_ADDRESS } from '../onchain/programs.ts'

/** The two rails a seller may take payment on; each is on when its payee (PAY_TO_BASE, PAY_TO_SOLANA) is set. */
export type RailName = 'base' | 'solana'

/**
 * A payment rail: a chain (CAIP-2) and its USDC asset, paid to the operator's address on that chain.
 * Every configured rail is offered on every paid call, at the same price.
 */
export interface Rail {
  name: RailName
  /** CAIP-2 chain id. */
  network: string
  /** The chain's x402 v1 short name (`base`, `solana-devnet`), or null where v1 has none (anvil). */
  v1Network: string | null
  /** USDC contract (Base) or mint (Solana). */
  asset: string
  /** The operator's address on this chain (PAY_TO_BASE, PAY_TO_SOLANA): a rail exists only with one. */
  payTo: string
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

/** The setting naming each rail's payee: the rail is on exactly when it is set. */
export const PAY_TO_SETTING = { base: 'PAY_TO_BASE', solana: 'PAY_TO_SOLANA' } as const satisfies Record<
  RailName,
  keyof Config
>

/** Each rail's name as people read it. */
const RAIL_TITLE: Record<RailName, string> = { base: 'Base', solana: 'Solana' }

/**
 * The rails this configuration offers, in the order of the 402 challenge: Base when PAY_TO_BASE is set,
 * Solana when PAY_TO_SOLANA is set. A rail without its payee is not offered, advertised or listed
 * anywhere (a seller on one chain only sets that chain's address).
 */
export function paymentRails(config: Config): Rail[] {
  const mainnet = config.SOLSENTRY_PROFILE === 'mainnet'
  const defaults = mainnet ? MAINNET : SANDBOX
  const rails: Rail[] = []
  if (config.PAY_TO_BASE !== undefined) {
    const network = config.BASE_PAYMENT_NETWORK ?? defaults.base.network
    const [domainName, domainVersion] = (config.BASE_PAYMENT_ASSET_DOMAIN ?? MAINNET.base.domain).split(',') as [
      string,
      string,
    ]
    rails.push({
      name: 'base',
      network,
      v1Network: v1NetworkName(network),
      asset: config.BASE_PAYMENT_ASSET ?? (mainnet ? MAINNET.base.asset : ''),
      payTo: config.PAY_TO_BASE,
      extra: { name: domainName.trim(), version: domainVersion.trim() },
    })
  }
  if (config.PAY_TO_SOLANA !== undefined) {
    const network = config.SOLANA_PAYMENT_NETWORK ?? defaults.solana.network
    rails.push({
      name: 'solana',
      network,
      v1Network: v1NetworkName(network),
      asset: config.SOLANA_PAYMENT_ASSET ?? (mainnet ? MAINNET.solana.asset : ''),
      payTo: config.PAY_TO_SOLANA,
      extra: {},
    })
  }
  return rails
}

/** The rails in words, for texts that name them: "Base or Solana", "Solana", "Base" (empty: none). */
export function railsInWords(rails: readonly Pick<Rail, 'name'>[]): string {
  return rails.map((rail) => RAIL_TITLE[rail.name]).join(' or ')
}
