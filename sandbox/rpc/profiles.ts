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
    }
  // One client address on loopback: the per-IP (public) or per-key (keyed) limits are the server's.
  const pacer = new CallPacer(RPC_PROVIDERS[name].limits)
  let throttled = 0
  return {
    name,
    throttledBody: name === 'public' ? 'recorded' : 'empty',
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
