import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { CallPacer, RPC_PROVIDERS } from '../../src/sources/rpc-providers.ts'
import { RpcError } from './rpc-error.ts'

/**
 * How the sandbox RPC behaves as a provider (SANDBOX_RPC_PROFILE): `open` serves everything at any
 * rate, like a local validator; `public` behaves like Solana's public mainnet endpoint — it refuses
 * the secondary-index methods with agave's -32010 error and answers HTTP 429 past the published limits;
 * `keyed` behaves like the lowest keyed plan (Helius Free: every method served, 10 requests per second,
 * HTTP 429 past it). No Solana provider's refusal of an oversized batch is on record, so none is served.
 */
export const SANDBOX_RPC_PROFILES = ['open', 'public', 'keyed'] as const
export type SandboxRpcProfileName = (typeof SANDBOX_RPC_PROFILES)[number]

/** agave's KeyExcludedFromSecondaryIndex (rpc-client-api custom_error.rs): code and wording. */
export const KEY_EXCLUDED_FROM_SECONDARY_INDEX = -32010
export const excludedFromSecondaryIndex = (key: string) =>
  new RpcError(
    KEY_EXCLUDED_FROM_SECONDARY_INDEX,
    `${key} excluded from account secondary indexes; this RPC method unavailable for key`,
  )

/** The token programs, whose accounts the public endpoint keeps out of its secondary indexes. */
const INDEX_EXCLUDED_PROGRAMS: ReadonlySet<string> = new Set([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])

export interface SandboxRpcProfile {
  name: SandboxRpcProfileName
  /** The 429 answer's body: the public endpoint's recorded one; a keyed provider documents the status only. */
  throttledBody: 'recorded' | 'empty'
  /** The refusal a call gets before it is served, if any. */
  refusal(method: string, params: unknown[]): RpcError | undefined
  /** Whether a request of these methods is over the rate limit (it is then answered 429, nothing served). */
  overLimit(methods: readonly string[]): boolean
  /** Requests answered 429 so far. */
  readonly throttled: number
  /** How long until the rate window holds no call (0 when it holds none, or there is no limit). */
  drainedInMs(): number
  /** The provider's published WebSocket limits (SUBSCRIPTION_LIMITS; recorded, not enforced). */
  subscriptions: SubscriptionLimits
}

export function sandboxRpcProfile(name: SandboxRpcProfileName): SandboxRpcProfile {
  if (name === 'open')
    return {
      name,
      throttledBody: 'empty',
      refusal: () => undefined,
      overLimit: () => false,
      throttled: 0,
      drainedInMs: () => 0,
      subscriptions: SUBSCRIPTION_LIMITS.open,
    }
  // One client address on loopback: the per-IP (public) or per-key (keyed) limits are the server's.
  const pacer = new CallPacer(RPC_PROVIDERS[name].limits)
  let throttled = 0
  return {
    name,
    throttledBody: name === 'public' ? 'recorded' : 'empty',
    subscriptions: SUBSCRIPTION_LIMITS[name],
    get throttled() {
      return throttled
    },
    refusal(method, params) {
      if (name === 'keyed') return undefined
      const key = typeof params[0] === 'string' ? params[0] : undefined
      if (key === undefined) return undefined
      // The mint index is not kept: the largest accounts of any mint are unavailable.
      if (method === 'getTokenLargestAccounts') return excludedFromSecondaryIndex(key)
      if (method === 'getProgramAccounts' && INDEX_EXCLUDED_PROGRAMS.has(key)) return excludedFromSecondaryIndex(key)
      return undefined
    },
    drainedInMs: () => pacer.drainedInMs(Date.now()),
    overLimit(methods) {
      // Every call of a batch counts; a request over the limit is refused whole and counts for nothing.
      const over = !pacer.tryTakeAll(methods, Date.now())
      if (over) throttled++
      return over
    },
  }
}

/**
 * What each provider publishes about its WebSocket subscriptions, for the position guard's multiplexing
 * (issue 34: one subscription per watched account, however many watches share it). Numbers only where a
 * provider states them; `undefined` where nothing is published. No provider's refusal past a limit is on
 * record (its code, message or close frame), so the sandbox serves none: these are data for the service's
 * provider table and the bench, not limits the sandbox enforces.
 */
export interface SubscriptionLimits {
  /** WebSocket connections open at once, per client (IP or key). */
  connections?: number
  /** New connections per 10 seconds, per IP. */
  connectionsPer10s?: number
  /** Subscriptions per connection. */
  subscriptionsPerConnection?: number
  /** Subscriptions the node holds in all, across its connections. */
  subscriptionsPerNode?: number
  /** logsSubscribe `mentions` takes one address on every provider (the validator's rule). */
  mentionsPerLogsSubscription: 1
  source: string
}

export const SUBSCRIPTION_LIMITS: Record<SandboxRpcProfileName, SubscriptionLimits> = {
  // A local validator: agave's pubsub default, --rpc-pubsub-max-active-subscriptions.
  open: {
    subscriptionsPerNode: 1_000_000,
    mentionsPerLogsSubscription: 1,
    source:
      'agave rpc/src/rpc_pubsub_service.rs DEFAULT_MAX_ACTIVE_SUBSCRIPTIONS = 1_000_000 (node-wide); logsSubscribe mentions: "Invalid Request: Only 1 address supported" (rpc_pubsub.rs), checked 2026-11-28',
  },
  public: {
    connections: 40,
    connectionsPer10s: 40,
    mentionsPerLogsSubscription: 1,
    source:
      'https://solana.com/docs/references/clusters (Mainnet beta rate limits: maximum concurrent connections per IP 40, maximum connection rate per 10 seconds per IP 40); subscriptions per connection not published; checked 2026-11-28',
  },
  // Helius's Free plan, the lowest keyed tier (as the request limits above).
  keyed: {
    connections: 5,
    mentionsPerLogsSubscription: 1,
    source:
      'https://www.helius.dev/docs/faqs/websockets (Free plan 5 concurrent WebSocket connections, Developer 150, Business and Professional 250; many subscriptions may share one connection, no per-connection cap published); checked 2026-11-28',
  },
}
