import { type Config, ConfigError, readConfig, type SettingCheck } from './kernel/config.ts'
import { checkSolanaAddress } from './onchain/address.ts'
import { loadEcosystemAccounts } from './onchain/ecosystem.ts'
import { loadExchangeList } from './onchain/exchanges.ts'
import { loadIssuerRegistry } from './onchain/issuers.ts'
import { loadAttestor } from './attest/attestation.ts'
import { cdpSigningKey } from './payments/cdp-auth.ts'

/** A Solana address setting: decodes to 32 bytes, or the reason it does not. */
const solanaAddress = (setting: 'PAY_TO_SOLANA' | 'SOLANA_PAYMENT_ASSET'): SettingCheck => ({
  setting,
  check(value) {
    const check = checkSolanaAddress(value, setting, 'Solana address')
    if (!check.ok) throw new Error(check.message.replace(new RegExp(`^${setting} `), ''))
  },
})

/** Coinbase CDP's hosted facilitator (https://api.cdp.coinbase.com/platform/v2/x402). */
const isCdpFacilitator = (url: string) => {
  const { hostname } = new URL(url)
  return hostname === 'cdp.coinbase.com' || hostname.endsWith('.cdp.coinbase.com')
}

/**
 * A CDP API key's id as CDP hands it out: a UUID (current keys), or the legacy
 * `organizations/{org id}/apiKeys/{key id}` path (cdp-sdk's CdpOptions.apiKeyId, coinbase.github.io/cdp-sdk).
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const CDP_KEY_ID = new RegExp(`^(${UUID}|organizations/${UUID}/apiKeys/${UUID})$`, 'i')

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
  // Coinbase CDP's facilitator refuses every request without a key's signed JWT: its URL wants the key.
  {
    setting: 'FACILITATOR_URL',
    check(url, config) {
      if (!isCdpFacilitator(url)) return
      if (config.CDP_API_KEY_ID === undefined || config.CDP_API_KEY_SECRET === undefined)
        throw new ConfigError(
          'CDP_API_KEY_ID and CDP_API_KEY_SECRET: required when FACILITATOR_URL is Coinbase CDP’s (it refuses unsigned requests); create a key at portal.cdp.coinbase.com',
        )
      if (!CDP_KEY_ID.test(config.CDP_API_KEY_ID.trim()))
        throw new ConfigError(
          'CDP_API_KEY_ID: not a CDP key id (a UUID, or organizations/<id>/apiKeys/<id> for a legacy key)',
        )
    },
  },
  // Read at start like the service will: a key file missing, unreadable or malformed stops it with one line, not a stack trace.
  {
    setting: 'ATTESTATION_KEY',
    check(path) {
      try {
        loadAttestor(path, ':memory:')
      } catch (error) {
        const message = (error as Error).message
        throw new Error(
          message.includes('keypair file')
            ? message
            : `cannot use ${path} (${message}): it must be a Solana keypair file (a JSON array of 64 bytes) the service's user can read`,
        )
      }
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
