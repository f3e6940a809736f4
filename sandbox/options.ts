import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SANDBOX_RPC_PROFILES, type SandboxRpcProfileName } from './rpc/profiles.ts'

/** Where the sandbox listens and what it loads; from SANDBOX_* environment variables. */
export interface SandboxOptions {
  hostname: string
  rpcPort: number
  wsPort: number
  marketPort: number
  aggregatorPort: number
  /** The bridge-quote stand-in (LI.FI's /v1/quote). */
  bridgePort: number
  /** The news desks' feeds and the X recent-search stand-in. */
  newsPort: number
  /** The stand-in model server (OpenAI-compatible chat completions). */
  modelPort: number
  facilitatorPort: number
  /** The local EVM node (anvil) carrying the Base-like payment rail. */
  anvilPort: number
  /** Directory of `solana account --output json` files to load (SANDBOX_ACCOUNTS_DIR). */
  accountsDir: string | undefined
  /** Where world.json and the demo keypair are written (DATA_DIR/sandbox). */
  dataDir: string
  /** How the RPC behaves as a provider: open (a local validator) or public (Solana's public endpoint). */
  rpcProfile: SandboxRpcProfileName
  /** Milliseconds between the live launchpad's steps (SANDBOX_TICK_MS; 0 = it only steps when told). */
  tickMs: number
}

/** The live launchpad's default pace: a step every five seconds. */
export const DEFAULT_TICK_MS = 5_000

/**
 * The standard local-validator ports, the next six for the market, aggregator, x402 facilitator, bridge quotes,
 * news and model stand-ins,
 * and anvil's standard port.
 */
export const DEFAULT_PORTS = {
  rpc: 8899,
  ws: 8900,
  market: 8901,
  aggregator: 8902,
  facilitator: 8903,
  bridge: 8904,
  news: 8905,
  model: 8906,
  anvil: 8545,
} as const

export function sandboxOptions(env: Record<string, string | undefined>): SandboxOptions {
  const port = (name: string, fallback: number) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const value = Number(raw)
    if (!Number.isInteger(value) || value < 0 || value > 65535)
      throw new Error(`${name}: must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`)
    return value
  }
  return {
    hostname: env.SANDBOX_HOST || '127.0.0.1',
    rpcPort: port('SANDBOX_RPC_PORT', DEFAULT_PORTS.rpc),
    wsPort: port('SANDBOX_WS_PORT', DEFAULT_PORTS.ws),
    marketPort: port('SANDBOX_MARKET_PORT', DEFAULT_PORTS.market),
    aggregatorPort: port('SANDBOX_AGGREGATOR_PORT', DEFAULT_PORTS.aggregator),
    facilitatorPort: port('SANDBOX_FACILITATOR_PORT', DEFAULT_PORTS.facilitator),
    bridgePort: port('SANDBOX_BRIDGE_PORT', DEFAULT_PORTS.bridge),
    newsPort: port('SANDBOX_NEWS_PORT', DEFAULT_PORTS.news),
    modelPort: port('SANDBOX_MODEL_PORT', DEFAULT_PORTS.model),
    anvilPort: port('SANDBOX_ANVIL_PORT', DEFAULT_PORTS.anvil),
    accountsDir: env.SANDBOX_ACCOUNTS_DIR || undefined,
    dataDir: `${env.DATA_DIR || './data'}/sandbox`,
    rpcProfile: rpcProfileOf(env.SANDBOX_RPC_PROFILE),
    tickMs: port('SANDBOX_TICK_MS', DEFAULT_TICK_MS),
  }
}

function rpcProfileOf(raw: string | undefined): SandboxRpcProfileName {
  if (raw === undefined || raw === '') return 'open'
  if (!(SANDBOX_RPC_PROFILES as readonly string[]).includes(raw))
    throw new Error(
      `SANDBOX_RPC_PROFILE: must be one of ${SANDBOX_RPC_PROFILES.join(', ')} (got ${JSON.stringify(raw)})`,
    )
  return raw as SandboxRpcProfileName
}

/** Options for a throwaway sandbox (tests, benches): every port picked free, data in a temporary directory. */
export function ephemeralSandboxOptions(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  return {
    hostname: '127.0.0.1',
    rpcPort: 0,
    wsPort: 0,
    marketPort: 0,
    aggregatorPort: 0,
    facilitatorPort: 0,
    bridgePort: 0,
    newsPort: 0,
    modelPort: 0,
    anvilPort: 0,
    accountsDir: undefined,
    tickMs: 0,
    dataDir: join(mkdtempSync(join(tmpdir(), 'solsentry-sandbox-')), 'sandbox'),
    rpcProfile: 'open',
    ...overrides,
  }
}

/** The payment rails the sandbox's service takes (SANDBOX_RAILS): both by default, or one, as a seller on one chain. */
export type SandboxRail = 'solana' | 'base'

/** The settings of each rail in the sandbox's service settings: left out, that rail is not offered. */
const RAIL_SETTINGS = {
  solana: ['PAY_TO_SOLANA', 'SOLANA_PAYMENT_NETWORK', 'SOLANA_PAYMENT_ASSET'],
  base: ['PAY_TO_BASE', 'BASE_PAYMENT_NETWORK', 'BASE_PAYMENT_ASSET', 'BASE_PAYMENT_ASSET_DOMAIN'],
} as const satisfies Record<SandboxRail, readonly string[]>

/** SANDBOX_RAILS: `solana`, `base`, or both (the default; also `solana,base`). */
export function sandboxRails(raw: string | undefined): SandboxRail[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'both') return ['base', 'solana']
  const rails = raw.split(',').map((rail) => rail.trim().toLowerCase())
  const wrong = rails.find((rail) => rail !== 'solana' && rail !== 'base')
  if (wrong !== undefined || rails.length === 0)
    throw new Error(`SANDBOX_RAILS: must be solana, base or both (got ${JSON.stringify(raw)})`)
  return (['base', 'solana'] as const).filter((rail) => rails.includes(rail))
}

/**
 * The sandbox's service settings for a service that takes payment on `rails` only: the other rail's
 * settings (its payee, network, asset) left out, as an operator on one chain leaves them unset.
 */
export function withRails<S extends Record<string, string | undefined>>(
  settings: S,
  rails: readonly SandboxRail[],
): Partial<S> {
  const dropped = new Set<string>(
    (['solana', 'base'] as const).filter((rail) => !rails.includes(rail)).flatMap((rail) => RAIL_SETTINGS[rail]),
  )
  return Object.fromEntries(Object.entries(settings).filter(([name]) => !dropped.has(name))) as Partial<S>
}
