import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { readFileSync } from 'node:fs'

// No whitespace: an env file's inline comment (`URL=https://…  # note`) would otherwise become part of it.
const Url = (description: string) =>
  Type.String({ pattern: '^https?://\\S+$', description, hint: 'an http(s) URL (no spaces)' })
const Bool = (description: string, value: boolean) =>
  Type.Boolean({ default: value, description, hint: 'true or false' })

/**
 * Every setting, named as its environment variable. One table: the README's configuration table
 * and the validation messages are both read from the descriptions and hints here.
 */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 8402,
    description: 'TCP port to listen on (0 picks a free port)',
    hint: 'an integer from 0 to 65535',
  }),
  HOST: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description: 'Interface to bind',
    pattern: '^[^\\s]+$',
    hint: 'a host name or IP',
  }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      // An origin alone: a path or a stray space (an env file's inline comment) would be in every resource callers pay for.
      pattern: '^https?://[^/\\s?#]+/?$',
      description:
        "Base URL callers use to reach the service (agent card, payment resources, llm.txt); required on mainnet, where a request's Host header must not name the resource callers pay for; defaults to the request origin in the sandbox",
      hint: 'an origin such as https://scan.example.com (no path, no spaces)',
    }),
  ),
  SOLSENTRY_PROFILE: Type.Union([Type.Literal('sandbox'), Type.Literal('mainnet')], {
    default: 'sandbox',
    description: 'sandbox: the offline world on this machine; mainnet: real upstreams and payments',
    hint: 'sandbox or mainnet',
  }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'Directory of the embedded SQLite store (`:memory:` keeps everything in memory)',
    hint: 'a directory path',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level', hint: 'fatal, error, warn, info, debug, trace or silent' },
  ),
  HEALTH_PROBE_INTERVAL_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 30_000,
    description:
      "How often /health probes each upstream with one cheap real call (getSlot, a token search, the facilitator's /supported; docs/operations.md)",
    hint: 'milliseconds, an integer from 100 to 3600000',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description: 'Redis for state shared by several instances (rate limits, cache, ledger, jobs)',
      hint: 'a redis:// or rediss:// URL',
    }),
  ),
  SOLANA_RPC_URL: Type.Optional(Url('Solana JSON-RPC endpoint (mainnet default: https://api.mainnet-beta.solana.com)')),
  SOLANA_WS_URL: Type.Optional(
    Type.String({
      pattern: '^wss?://',
      description:
        "Solana RPC WebSocket (subscriptions: the launchpad ingester's logsSubscribe); default: SOLANA_RPC_URL's host over ws(s), on the next port for a local validator's http://host:port",
      hint: 'a ws(s) URL',
    }),
  ),
  LAUNCHPAD_INGEST: Bool(
    'Follow the pump.fun launchpad live (logsSubscribe) into the index the launch and graduation radars read (docs/catalogue.md); false leaves the radars answering from what the index holds',
    true,
  ),
  LAUNCHPAD_LEASE_MS: Type.Integer({
    minimum: 1_000,
    default: 15_000,
    description:
      "With REDIS_URL, how long the ingesting instance's lease lasts without renewal (renewed every third of it): another instance takes the ingestion over within this of the holder's death (docs/operations.md)",
    hint: 'milliseconds, an integer ≥ 1000',
  }),
  SOLANA_RPC_PROVIDER: Type.Optional(
    Type.Union([Type.Literal('public'), Type.Literal('keyed'), Type.Literal('unlimited')], {
      description:
        "The RPC provider's limits, which calls are paced to (docs/data-layer.md); default: public for Solana's hosts and unknown ones, keyed for a URL carrying a key, unlimited for loopback",
      hint: 'public, keyed or unlimited',
    }),
  ),
  SOLANA_RPC_HEADERS: Type.Optional(
    Type.String({
      description: 'Headers sent with every RPC request, as a JSON object (a provider key sent as a header)',
      hint: 'a JSON object of header names to string values, such as {"x-api-key": "<key>"}',
    }),
  ),
  DEXSCREENER_URL: Type.Optional(Url('DexScreener API base (mainnet default: https://api.dexscreener.com)')),
  JUPITER_URL: Type.Optional(Url('Jupiter API base: token list and swaps (mainnet default: https://api.jup.ag)')),
  LIFI_URL: Type.Optional(
    Url('LI.FI API base: bridge quotes for POST /exit/cross-check (mainnet default: https://li.quest)'),
  ),
  LIFI_API_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'LI.FI API key, sent as x-lifi-api-key: 200 requests a minute instead of 200 per two hours (docs/catalogue.md); never logged',
      hint: 'the key',
    }),
  ),
  NEWS_FEEDS: Type.Optional(
    Type.String({
      pattern: '^https?://[^,\\s]+(,\\s*https?://[^,\\s]+)*$',
      description:
        'RSS or Atom news feeds read by the /news routes, comma-separated URLs (mainnet default: CoinDesk, Cointelegraph, Decrypt and The Block; docs/catalogue.md)',
      hint: 'comma-separated http(s) URLs',
    }),
  ),
  X_API_URL: Type.Optional(Url('X API base: recent search for the /news routes (mainnet default: https://api.x.com)')),
  X_BEARER_TOKEN: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "X app bearer token: the /news routes read the last week's posts by recent search (without one, news feeds only); never logged",
      hint: 'the token',
    }),
  ),
  X_SEARCHES_PER_15_MIN: Type.Integer({
    minimum: 1,
    default: 60,
    description:
      "Recent searches per 15 minutes the X app's plan allows (self-serve: 60; pay-per-use: 450): calls to api.x.com are paced to it",
    hint: 'an integer ≥ 1',
  }),
  LLM_URL: Type.Optional(
    Url(
      'An OpenAI-compatible chat completions API base (…/v1): writes /news/brief, /news/pulse_plus and /news/report, which are off without it',
    ),
  ),
  LLM_API_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'The model API key, sent as a bearer token; never logged',
      hint: 'the key',
    }),
  ),
  LLM_MODEL: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'The model the /news routes ask (required with LLM_URL), named in every answer it writes',
      hint: 'a model name, such as gpt-4o-mini',
    }),
  ),
  JUPITER_API_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Jupiter API key (portal.jup.ag), sent as x-api-key; without one api.jup.ag serves its keyless tier, slowly (docs/data-layer.md); never logged',
      hint: 'the key',
    }),
  ),
  JUPITER_SWAP_API: Type.Union([Type.Literal('v2'), Type.Literal('v1')], {
    default: 'v2',
    description:
      "Which Jupiter swap API builds trades and answers prices (docs/trade.md): v2, GET /swap/v2/build (the instructions, assembled here) and GET /swap/v2/order without a taker (the exit check's prices); v1, GET /swap/v1/quote + POST /swap/v1/swap and /swap/v1/quote (Jupiter's earlier path, while it still serves it)",
    hint: 'v2 or v1',
  }),
  JUPITER_REQUESTS_PER_MINUTE: Type.Optional(
    Type.Integer({
      minimum: 1,
      description:
        "Jupiter requests per minute the service paces itself to (docs/data-layer.md); default on api.jup.ag: 30 keyless, 60 with a key (the Free plan); set your plan's figure (Developer 600, Launch 3000, Pro 9000)",
      hint: 'a positive integer',
    }),
  ),
  ISSUER_REGISTRY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'A JSON file of issuer-controlled assets added to the built-in registry (src/onchain/issuers.json; docs/scoring.md): their live authorities and issuer extensions are not penalised',
      hint: 'a path to a JSON file { "version": "YYYY-MM-DD", "entries": [...] }',
    }),
  ),
  ECOSYSTEM_ACCOUNTS: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "A JSON file of X accounts added to the built-in list of the ecosystem's own accounts (src/onchain/ecosystem.json): their posts are the ecosystem cohort of POST /news/pulse_plus",
      hint: 'a path to a JSON file { "version": "YYYY-MM-DD", "entries": [{ "handle", "project", "source" }] }',
    }),
  ),
  EXCHANGE_WALLETS: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'A JSON file of exchange hot wallets added to the built-in list (src/onchain/exchanges.json): a wallet first funded by one is said to be funded by that exchange (POST /wallet/intel)',
      hint: 'a path to a JSON file { "version": "YYYY-MM-DD", "entries": [{ "address", "exchange", "label", "source" }] }',
    }),
  ),
  RECORD_DIR: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Records every scan's upstream exchanges (requests, answers, timings) as a cassette <request id>.json in this directory, to replay offline with `npm run replay` (docs/replay.md)",
      hint: 'a directory path',
    }),
  ),
  DEMO_WALLET_KEYPAIR: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "A Solana keypair file whose wallet the web page offers as a demo wallet: it signs payments for this service's own offers only (the sandbox sets its demo buyer); refused on mainnet",
      hint: 'a path to a Solana keypair file (a JSON array of 64 bytes)',
    }),
  ),
  WEB_SOLANA_RPC_URL: Type.Optional(
    Url(
      "The Solana RPC the web page's browser wallets read their blockhash from when they pay (never a keyed URL: browsers see it); unset, the x402 client's default for the network",
    ),
  ),
  ACP_SIGNER_PRIVATE_KEY: Type.Optional(
    Type.String({
      pattern: '^0x[0-9a-fA-F]{64}$',
      description:
        "Sells the paid scanners on the Virtuals ACP marketplace (docs/acp.md): the agent's whitelisted signer key; with ACP_SESSION_ENTITY_KEY_ID and ACP_AGENT_WALLET_ADDRESS",
      hint: '0x and 64 hex digits',
    }),
  ),
  ACP_SESSION_ENTITY_KEY_ID: Type.Optional(
    Type.Integer({ minimum: 0, description: "The ACP signer's session entity key id (app.virtuals.io)" }),
  ),
  ACP_AGENT_WALLET_ADDRESS: Type.Optional(
    Type.String({
      pattern: '^0x[0-9a-fA-F]{40}$',
      description: "The ACP agent's smart wallet address (app.virtuals.io)",
      hint: '0x and 40 hex digits',
    }),
  ),
  FACILITATOR_URL: Type.Optional(Url('x402 facilitator base URL (required on mainnet)')),
  CDP_API_KEY_ID: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Coinbase CDP API key id: with CDP_API_KEY_SECRET, every facilitator request carries a fresh signed JWT',
      hint: 'the key id',
    }),
  ),
  CDP_API_KEY_SECRET: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Coinbase CDP API key secret (Ed25519 base64, or an EC private key PEM); never logged',
      hint: 'an Ed25519 secret (base64) or an EC private key PEM',
    }),
  ),
  FACILITATOR_HEADERS: Type.Optional(
    Type.String({
      description:
        'Headers sent with every facilitator request, as a JSON object (e.g. the API key of a hosted facilitator)',
      hint: 'a JSON object of header names to string values, such as {"Authorization": "Bearer <key>"}',
    }),
  ),
  FACILITATOR_VERIFY_BUDGET_MS: Type.Integer({
    minimum: 100,
    maximum: 4_000,
    default: 2_000,
    description:
      'How long a payment verification may take, retries included; a facilitator slower than this is an outage (503), so paid routes keep their deadlines',
    hint: 'milliseconds, an integer from 100 to 4000',
  }),
  FACILITATOR_SETTLE_TIMEOUT_MS: Type.Integer({
    minimum: 1_000,
    default: 40_000,
    description:
      'How long a settlement is waited for (facilitators confirm on chain first); past it the payment is pending and resolved from the chain, never re-sent',
    hint: 'milliseconds, an integer ≥ 1000',
  }),
  PAY_TO_SOLANA: Type.Optional(
    Type.String({
      description:
        'Solana address that receives USDC payments; unset, the Solana rail is not offered (one of PAY_TO_SOLANA and PAY_TO_BASE, or both, is required with a facilitator and on mainnet)',
      hint: 'a base58 Solana address',
    }),
  ),
  PAY_TO_BASE: Type.Optional(
    Type.String({
      pattern: '^0x[0-9a-fA-F]{40}$',
      description:
        'Base (EVM) address that receives USDC payments; unset, the Base rail is not offered (one of PAY_TO_SOLANA and PAY_TO_BASE, or both, is required with a facilitator and on mainnet)',
      hint: 'a 0x-prefixed 20-byte hex address',
    }),
  ),
  SOLANA_PAYMENT_NETWORK: Type.Optional(
    Type.String({
      pattern: '^solana:[1-9A-HJ-NP-Za-km-z]{32}$',
      description:
        'CAIP-2 id of the Solana rail (default: mainnet; the sandbox poses as devnet, solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1)',
      hint: 'a CAIP-2 Solana chain id such as solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    }),
  ),
  SOLANA_PAYMENT_ASSET: Type.Optional(
    Type.String({
      description: 'USDC mint offered on the Solana rail (default: mainnet USDC)',
      hint: 'a base58 Solana mint address',
    }),
  ),
  BASE_PAYMENT_NETWORK: Type.Optional(
    Type.String({
      pattern: '^eip155:[0-9]{1,12}$',
      description: 'CAIP-2 id of the Base (EVM) rail (default: eip155:8453; the sandbox uses anvil, eip155:31337)',
      hint: 'a CAIP-2 EVM chain id such as eip155:8453',
    }),
  ),
  BASE_PAYMENT_ASSET: Type.Optional(
    Type.String({
      pattern: '^0x[0-9a-fA-F]{40}$',
      description: 'EIP-3009 USDC contract offered on the Base rail (default: USDC on Base)',
      hint: 'a 0x-prefixed 20-byte hex address',
    }),
  ),
  BASE_PAYMENT_ASSET_DOMAIN: Type.Optional(
    Type.String({
      pattern: '^[^,]+,[^,]+$',
      description: 'EIP-712 domain name and version of the Base rail asset, comma-separated (default: USD Coin,2)',
      hint: 'name,version such as "USD Coin,2"',
    }),
  ),
  BASE_RPC_URL: Type.Optional(
    Url(
      'EVM JSON-RPC of the Base rail, read to resolve payments whose settlement went unanswered (mainnet default: https://mainnet.base.org)',
    ),
  ),
  TRUST_PROXY: Bool('Take the client IP from X-Forwarded-For (only behind a proxy you run)', false),
  RATE_LIMIT_SCANNER_PER_MINUTE: Type.Number({
    exclusiveMinimum: 0,
    default: 60,
    description: 'Scanner requests per minute per client IP (token-bucket refill rate)',
    hint: 'a positive number',
  }),
  RATE_LIMIT_SCANNER_BURST: Type.Integer({
    minimum: 1,
    default: 20,
    description: 'Scanner requests a client IP may send at once (token-bucket capacity)',
    hint: 'a positive integer',
  }),
  ATTESTATION_KEY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "The attestation key: a Solana keypair JSON file (64 bytes) whose Ed25519 key signs every paid answer's attestation (docs/attestations.md). It signs only: it never holds or moves funds. Unset: a key kept in DATA_DIR (generated on first start); never logged",
      hint: 'a path to a Solana keypair JSON file',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'Bearer token for GET /metrics (Prometheus text): without it /metrics answers only loopback clients; never logged',
      hint: 'a secret of 16 characters or more',
    }),
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Url(
      'OpenTelemetry collector (OTLP/HTTP): when set, each request and its upstream calls are traced, spans sent to <endpoint>/v1/traces (docs/operations.md)',
    ),
  ),
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(
    Type.String({
      minLength: 1,
      description: "Headers for the collector (its API key), as OpenTelemetry's name=value,name=value; never logged",
      hint: 'comma-separated name=value pairs',
    }),
  ),
  OTEL_SERVICE_NAME: Type.String({
    minLength: 1,
    default: 'solsentry',
    description: "The service's name in traces",
    hint: 'a name',
  }),
  SIGNAL_PLUGINS: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Third-party signal packages to load, comma-separated package names or ./paths (docs/signals.md; not in the compiled binary)',
      hint: 'comma-separated package names or paths',
    }),
  ),
  SHUTDOWN_GRACE_MS: Type.Integer({
    minimum: 0,
    default: 10_000,
    description: 'How long a shutdown waits for in-flight requests before closing connections',
    hint: 'milliseconds, an integer ≥ 0',
  }),
})

export type Config = Static<typeof ConfigSchema>
export type SettingName = keyof Config

/**
 * Public crypto news feeds (no key), each recorded in test/fixtures/recorded/news/ with its source:
 * CoinDesk, Cointelegraph, Decrypt, The Block.
 */
export const MAINNET_NEWS_FEEDS = [
  'https://www.coindesk.com/arc/outboundfeeds/rss',
  'https://cointelegraph.com/rss',
  'https://decrypt.co/feed',
  'https://www.theblock.co/rss.xml',
] as const

/** Upstream defaults of the mainnet profile; the sandbox profile points the same settings at loopback. */
export const MAINNET_UPSTREAMS = {
  SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com',
  DEXSCREENER_URL: 'https://api.dexscreener.com',
  // lite-api.jup.ag, the keyless host, is being retired: api.jup.ag with a key is the documented path.
  JUPITER_URL: 'https://api.jup.ag',
  LIFI_URL: 'https://li.quest',
  NEWS_FEEDS: MAINNET_NEWS_FEEDS.join(','),
  X_API_URL: 'https://api.x.com',
  BASE_RPC_URL: 'https://mainnet.base.org',
} as const satisfies Partial<Config>

/** Settings the mainnet profile refuses to start without (and one payee at least: PAY_TO_SETTINGS). */
const MAINNET_REQUIRED = ['PUBLIC_URL', 'FACILITATOR_URL'] as const satisfies SettingName[]

/**
 * The payees of the two rails: each set offers its rail, and a service that takes payments (a facilitator
 * configured, or the mainnet profile) needs one at least — a seller on one chain sets that chain's only.
 */
const PAY_TO_SETTINGS = ['PAY_TO_SOLANA', 'PAY_TO_BASE'] as const satisfies SettingName[]

/**
 * A feature's own check of one of its settings, beyond the schema: the file it names can be read, the key
 * it holds parses, the address decodes. `check` throws with the reason; the loader names the setting.
 * The features hand theirs to the loader (src/settings.ts), so the kernel imports none of them.
 */
export interface SettingCheck {
  setting: SettingName
  /** Runs when the setting is set; throws the reason (a ConfigError when it names another setting). */
  check: (value: string, config: Config) => void
}

/** A configuration problem: one line that names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

const SETTING_NAMES = Object.keys(ConfigSchema.properties) as SettingName[]

/**
 * Reads settings from an optional JSON file named by `SOLSENTRY_CONFIG` (keys are the variable names),
 * overlays the environment, applies defaults and validates. Throws `ConfigError` on the first bad value.
 */
export function readConfig(
  env: Record<string, string | undefined> = process.env,
  checks: readonly SettingCheck[] = [],
): Config {
  const raw: Record<string, unknown> = { ...readConfigFile(env.SOLSENTRY_CONFIG) }
  for (const name of SETTING_NAMES) {
    const value = env[name]
    if (value !== undefined && value !== '') raw[name] = value
  }

  const converted = Value.Convert(ConfigSchema, raw) as Record<string, unknown>
  const withDefaults = Value.Default(ConfigSchema, converted) as Record<string, unknown>
  const first = Value.Errors(ConfigSchema, withDefaults).First()
  if (first) {
    const name = first.path.split('/')[1] as SettingName
    const schema = ConfigSchema.properties[name] as TSchema & { hint?: string }
    throw new ConfigError(`${name}: must be ${schema.hint ?? 'valid'} (got ${JSON.stringify(raw[name])})`)
  }
  const config = withDefaults as Config
  // Joined with each route's path: its trailing slash would double it.
  if (config.PUBLIC_URL?.endsWith('/')) config.PUBLIC_URL = config.PUBLIC_URL.slice(0, -1)

  for (const name of HEADER_SETTINGS) if (config[name] !== undefined) headersSetting(config, name)
  // The features' own checks of their settings (a reference file read, a key parsed, an address decoded).
  for (const { setting, check } of checks) {
    const value = config[setting]
    if (value === undefined) continue
    try {
      check(String(value), config)
    } catch (error) {
      if (error instanceof ConfigError) throw error
      throw new ConfigError(`${setting}: ${(error as Error).message.replace(new RegExp(`^${setting}[^:]*: `), '')}`)
    }
  }
  const acp = ['ACP_SIGNER_PRIVATE_KEY', 'ACP_SESSION_ENTITY_KEY_ID', 'ACP_AGENT_WALLET_ADDRESS'] as const
  const acpSet = acp.filter((name) => config[name] !== undefined)
  if (acpSet.length > 0 && acpSet.length < acp.length)
    throw new ConfigError(
      `${acp.find((name) => config[name] === undefined)}: required with ${acpSet.join(' and ')} (the ACP seller needs all three)`,
    )
  if (config.SOLSENTRY_PROFILE === 'mainnet') {
    if (config.DEMO_WALLET_KEYPAIR !== undefined)
      throw new ConfigError(
        'DEMO_WALLET_KEYPAIR: refused when SOLSENTRY_PROFILE=mainnet (a demo wallet pays with real money)',
      )
    for (const name of MAINNET_REQUIRED)
      if (config[name] === undefined) throw new ConfigError(`${name}: required when SOLSENTRY_PROFILE=mainnet`)
  }
  if (config.FACILITATOR_URL !== undefined && PAY_TO_SETTINGS.every((name) => config[name] === undefined))
    throw new ConfigError(
      `${PAY_TO_SETTINGS.join(' or ')}: set at least one, the address that receives USDC on that chain (each one set offers its payment rail)`,
    )
  return config.SOLSENTRY_PROFILE === 'mainnet' ? { ...MAINNET_UPSTREAMS, ...config } : config
}

/** Settings holding extra request headers as a JSON object. */
const HEADER_SETTINGS = ['FACILITATOR_HEADERS', 'SOLANA_RPC_HEADERS'] as const

/** A headers setting as an object of header values; throws ConfigError when it is not one. */
export function headersSetting(
  config: Partial<Pick<Config, (typeof HEADER_SETTINGS)[number]>>,
  name: (typeof HEADER_SETTINGS)[number],
): Record<string, string> {
  const raw = config[name]
  if (raw === undefined) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    parsed = undefined
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((value) => typeof value === 'string')
  )
    throw new ConfigError(
      `${name}: must be a JSON object of header names to string values, such as {"Authorization": "Bearer <key>"}`,
    )
  return parsed as Record<string, string>
}

/** The description of a setting, for messages and the README table. */
export function describe(name: SettingName): string {
  return ConfigSchema.properties[name].description ?? ''
}

function readConfigFile(path: string | undefined): Record<string, unknown> {
  if (path === undefined || path === '') return {}
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError(`SOLSENTRY_CONFIG: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new ConfigError(`SOLSENTRY_CONFIG: ${path} is not valid JSON`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(`SOLSENTRY_CONFIG: ${path} must hold a JSON object of settings`)
  const unknown = Object.keys(parsed).find((key) => !SETTING_NAMES.includes(key as SettingName))
  if (unknown !== undefined)
    throw new ConfigError(
      `SOLSENTRY_CONFIG: ${path} names an unknown setting ${unknown} (known: ${SETTING_NAMES.join(', ')})`,
    )
  return parsed as Record<string, unknown>
}

/** The README's configuration table, generated from the schema (a test keeps the README in step). */
export function configTable(): string {
  const rows = SETTING_NAMES.map((name) => {
    const schema = ConfigSchema.properties[name] as TSchema & { default?: unknown; hint?: string }
    const fallback = schema.default === undefined ? '—' : `\`${schema.default}\``
    return `| \`${name}\` | ${fallback} | ${schema.hint ?? ''} | ${describe(name)} |`
  })
  return ['| Variable | Default | Value | What it does |', '|---|---|---|---|', ...rows].join('\n')
}
