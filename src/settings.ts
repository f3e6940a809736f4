import { type Config, readConfig, type SettingCheck } from './kernel/config.ts'
import { checkSolanaAddress } from './onchain/address.ts'
import { loadEcosystemAccounts } from './onchain/ecosystem.ts'
import { loadExchangeList } from './onchain/exchanges.ts'
import { loadIssuerRegistry } from './onchain/issuers.ts'
import { cdpSigningKey } from './payments/cdp-auth.ts'

/** A Solana address setting: decodes to 32 bytes, or the reason it does not. */
const solanaAddress = (setting: 'PAY_TO_SOLANA' | 'SOLANA_PAYMENT_ASSET'): SettingCheck => ({
  setting,
  check(value) {
    const check = checkSolanaAddress(value, setting, 'Solana address')
    if (!check.ok) throw new Error(check.message.replace(new RegExp(`^${setting} `), ''))
  },
})

/**
 * The features' checks of their own settings, beyond the schema: a reference file the service cannot use,
 * a CDP key that does not parse, a receiving address that does not decode stop it at start, the setting named.
 */
export const SETTING_CHECKS: readonly SettingCheck[] = [
  { setting: 'ISSUER_REGISTRY', check: loadIssuerRegistry },
  { setting: 'EXCHANGE_WALLETS', check: loadExchangeList },
  { setting: 'ECOSYSTEM_ACCOUNTS', check: loadEcosystemAccounts },
  { setting: 'CDP_API_KEY_SECRET', check: cdpSigningKey },
  solanaAddress('PAY_TO_SOLANA'),
  solanaAddress('SOLANA_PAYMENT_ASSET'),
]

/**
 * The service's settings: the kernel's loader (an optional `SOLSENTRY_CONFIG` file, the environment,
 * defaults, the schema) with every feature's own checks. Throws `ConfigError` naming the first bad setting.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return readConfig(env, SETTING_CHECKS)
}
