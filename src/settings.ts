import { type Config, ConfigError, readConfig, type SettingCheck } from './kernel/config.ts'
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
  { setting: 'ISSUER_REGISTRY', check: (path) => loadIssuerRegistry(path) },
  { setting: 'EXCHANGE_WALLETS', check: (path) => loadExchangeList(path) },
  { setting: 'ECOSYSTEM_ACCOUNTS', check: (path) => loadEcosystemAccounts(path) },
  {
    setting: 'LLM_URL',
    check(_url, config) {
      if (config.LLM_MODEL === undefined)
        throw new ConfigError('LLM_MODEL: required with LLM_URL (the model the /news routes ask)')
    },
  },
  // The CDP key comes in two halves: each needs the other.
  {
    setting: 'CDP_API_KEY_ID',
    check(_id, config) {
      if (config.CDP_API_KEY_SECRET === undefined)
        throw new ConfigError('CDP_API_KEY_SECRET: required with CDP_API_KEY_ID')
    },
  },
  {
    setting: 'CDP_API_KEY_SECRET',
    check(secret, config) {
      if (config.CDP_API_KEY_ID === undefined) throw new ConfigError('CDP_API_KEY_ID: required with CDP_API_KEY_SECRET')
      cdpSigningKey(secret)
    },
  },
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
