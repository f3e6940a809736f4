import type { SandboxRpcProfile } from './profiles.ts'
import { getBase58Encoder, getBase64Encoder } from '@solana/kit'
import type { Chain } from '../chain/chain.ts'
import {
  isMintData,
  readMint,
  readTokenAccount,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  uiTokenAmount,
} from '../chain/token-balances.ts'
import {
  ACCOUNT_ENCODINGS,
  encodeAccount,
  encodeTransaction,
  TRANSACTION_ENCODINGS,
  type AccountEncoding,
  type AccountParser,
} from './encode.ts'
import { memoOfWire } from './memo.ts'
import { Params } from './params.ts'
import { invalidParams, RPC_ERRORS, RpcError } from './rpc-error.ts'

const base58 = getBase58Encoder()
const base64 = getBase64Encoder()

/** Everything a method handler reads. */
export interface RpcContext {
  chain: Chain
  parse: AccountParser
  /** Sends `lamports` from the sandbox faucet to `to` in a real transaction; resolves to its signature. */
  airdrop(to: string, lamports: bigint): Promise<string>
  /** Mints sandbox USDC (atomic units) to `to`'s associated account; absent when the world has no USDC. */
  airdropUsdc?(to: string, amount: bigint): Promise<string>
  /** Sandbox-only: `count` dust transfers to an address (Faucet.dust). */
  dust?(to: string, count: number): Promise<string[]>
  genesisHash: string
  /** How the server behaves as a provider (refusals, rate limits); absent: open, like a local validator. */
  profile?: SandboxRpcProfile
}

type Handler = (params: Params, ctx: RpcContext) => unknown

/** Caps the real RPC applies. */
const MAX_MULTIPLE_ACCOUNTS = 100
const MAX_SIGNATURES_FOR_ADDRESS = 1000
const MAX_SIGNATURE_STATUSES = 256
const MAX_PROGRAM_ACCOUNT_FILTERS = 4
const LARGEST_ACCOUNTS = 20
const SLOTS_PER_EPOCH = 432_000n
/** A version string clients accept; the feature set is LiteSVM's. */
const VERSION = { 'solana-core': '2.2.0', 'feature-set': 3294202862 }

const withContext = (ctx: RpcContext, value: unknown) => ({
  context: { apiVersion: VERSION['solana-core'], slot: ctx.chain.slot },
  value,
})

function accountEncoding(params: Params, index: number, fallback: AccountEncoding = 'binary') {
  const config = params.config(index)
  return { config, encoding: config.string('encoding', ACCOUNT_ENCODINGS, fallback), dataSlice: config.dataSlice() }
}

function decodeWire(encoded: string, encoding: 'base58' | 'base64'): Uint8Array {
  try {
    return new Uint8Array(encoding === 'base64' ? base64.encode(encoded) : base58.encode(encoded))
  } catch {
    throw invalidParams(`transaction is not valid ${encoding}`)
  }
}

/** Token accounts of a program that match a mint or owner, from the chain's index. */
function tokenAccounts(ctx: RpcContext, keys: string[], filter: { mint?: string; programId?: string }) {
  return keys.flatMap((key) => {
    const account = ctx.chain.getAccount(key)
    if (!account) return []
    if (filter.programId && account.programAddress !== filter.programId) return []
    if (filter.mint && readTokenAccount(account.data).mint !== filter.mint) return []
    return [{ key, account }]
  })
}

function mintOf(ctx: RpcContext, mint: string) {
  const account = ctx.chain.getAccount(mint)
  if (!account || !isMintData(account.programAddress, account.data))
    throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: not a Token mint')
  return readMint(account.data)
}

/** Preflight and simulation failures as the RPC words them. */
function describeError(err: unknown): string {
  if (err === 'BlockhashNotFound') return 'Blockhash not found'
  if (err === 'AlreadyProcessed') return 'This transaction has already been processed'
  if (typeof err === 'object' && err !== null && 'InstructionError' in err) {
    const [index, inner] = (err as { InstructionError: [number, unknown] }).InstructionError
    const detail =
      typeof inner === 'object' && inner !== null && 'Custom' in inner
        ? `custom program error: 0x${(inner as { Custom: number }).Custom.toString(16)}`
        : String(inner)
    return `Error processing Instruction ${index}: ${detail}`
  }
  return String(typeof err === 'string' ? err : JSON.stringify(err))
}

export const METHODS: Record<string, Handler> = {
  getHealth: () => 'ok',
  getVersion: () => VERSION,
  getGenesisHash: (_params, ctx) => ctx.genesisHash,
  getSlot: (params, ctx) => {
    params.config(0)
    return ctx.chain.slot
  },
  getBlockHeight: (params, ctx) => {
    params.config(0)
    return ctx.chain.blockHeight
  },
  getEpochInfo: (params, ctx) => {
    params.config(0)
    const slot = ctx.chain.slot
    return {
      absoluteSlot: slot,
      blockHeight: ctx.chain.blockHeight,
      epoch: slot / SLOTS_PER_EPOCH,
      slotIndex: slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: null,
    }
  },
  getLatestBlockhash: (params, ctx) => {
    params.config(0)
    return withContext(ctx, ctx.chain.latestBlockhash())
  },
  isBlockhashValid: (params, ctx) => withContext(ctx, ctx.chain.isBlockhashValid(params.string(0))),
  getMinimumBalanceForRentExemption: (params, ctx) => ctx.chain.svm.minimumBalanceForRentExemption(params.u64(0)),
  getBalance: (params, ctx) => {
    const key = params.pubkey(0)
    params.config(1)
    return withContext(ctx, ctx.chain.getBalance(key))
  },

  getAccountInfo: (params, ctx) => {
    const key = params.pubkey(0)
    const { encoding, dataSlice } = accountEncoding(params, 1)
    const account = ctx.chain.getAccount(key)
    return withContext(ctx, account ? encodeAccount(account, encoding, dataSlice, ctx.parse) : null)
  },

  getMultipleAccounts: (params, ctx) => {
    const keys = params.array(0)
    if (keys.length > MAX_MULTIPLE_ACCOUNTS)
      throw invalidParams(`too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
    const checked = keys.map((_, index) => new Params(keys, ctx.chain.slot).pubkey(index))
    const { encoding, dataSlice } = accountEncoding(params, 1, 'base64')
    return withContext(
      ctx,
      checked.map((key) => {
        const account = ctx.chain.getAccount(key)
        return account ? encodeAccount(account, encoding, dataSlice, ctx.parse) : null
      }),
    )
  },

  getProgramAccounts: (params, ctx) => {
    const program = params.pubkey(0)
    const { config, encoding, dataSlice } = accountEncoding(params, 1)
    const filters = (config.raw.filters ?? []) as unknown[]
    if (!Array.isArray(filters) || filters.length > MAX_PROGRAM_ACCOUNT_FILTERS)
      throw invalidParams(`filters must be an array of at most ${MAX_PROGRAM_ACCOUNT_FILTERS}`)
    const matchers = filters.map(programAccountFilter)
    const accounts = ctx.chain.svm
      .getProgramAccounts(program as Parameters<Chain['svm']['getProgramAccounts']>[0])
      .filter((account) => matchers.every((matches) => matches(account.data)))
      .map((account) => ({ pubkey: account.address, account: encodeAccount(account, encoding, dataSlice, ctx.parse) }))
    return config.boolean('withContext', false) ? withContext(ctx, accounts) : accounts
  },

  getTokenSupply: (params, ctx) => {
    const { supply, decimals } = mintOf(ctx, params.pubkey(0))
    params.config(1)
    return withContext(ctx, uiTokenAmount(supply, decimals))
  },

  getTokenLargestAccounts: (params, ctx) => {
    const mint = params.pubkey(0)
    params.config(1)
    const { decimals } = mintOf(ctx, mint)
    const largest = tokenAccounts(ctx, ctx.chain.tokenAccountsOfMint(mint), { mint })
      .map(({ key, account }) => ({ key, amount: readTokenAccount(account.data).amount }))
      .sort((a, b) => (a.amount === b.amount ? a.key.localeCompare(b.key) : a.amount > b.amount ? -1 : 1))
      .slice(0, LARGEST_ACCOUNTS)
    return withContext(
      ctx,
      largest.map(({ key, amount }) => ({ address: key, ...uiTokenAmount(amount, decimals) })),
    )
  },

  getTokenAccountBalance: (params, ctx) => {
    const key = params.pubkey(0)
    params.config(1)
    const account = ctx.chain.getAccount(key)
    if (!account || tokenAccounts(ctx, [key], {}).length === 0 || account.data.length < 165)
      throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: could not find account')
    const { mint, amount } = readTokenAccount(account.data)
    return withContext(ctx, uiTokenAmount(amount, mintOf(ctx, mint).decimals))
  },

  getTokenAccountsByOwner: (params, ctx) => {
    const owner = params.pubkey(0)
    const filter = params.config(1).raw as { mint?: unknown; programId?: unknown }
    let selector: { mint?: string; programId?: string }
    if (typeof filter.mint === 'string') selector = { mint: new Params([filter.mint], 0n).pubkey(0) }
    else if (filter.programId === TOKEN_PROGRAM || filter.programId === TOKEN_2022_PROGRAM)
      selector = { programId: filter.programId }
    else if (typeof filter.programId === 'string')
      throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: unrecognized Token program id')
    else throw invalidParams('expected { mint } or { programId } at position 1')
    const { encoding, dataSlice } = accountEncoding(params, 2)
    const accounts = tokenAccounts(ctx, ctx.chain.tokenAccountsOfOwner(owner), selector)
    return withContext(
      ctx,
      accounts.map(({ key, account }) => ({
        pubkey: key,
        account: encodeAccount(account, encoding, dataSlice, ctx.parse),
      })),
    )
  },

  getSignaturesForAddress: (params, ctx) => {
    const key = params.pubkey(0)
    const config = params.config(1)
    const limit = config.optionalNumber('limit') ?? MAX_SIGNATURES_FOR_ADDRESS
    if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS)
      throw invalidParams(`limit must be 1 to ${MAX_SIGNATURES_FOR_ADDRESS}`)
    const before = typeof config.raw.before === 'string' ? params.signature(1, config.raw.before) : undefined
    const until = typeof config.raw.until === 'string' ? params.signature(1, config.raw.until) : undefined
    let signatures = ctx.chain.signaturesFor(key)
    if (before !== undefined) {
      const index = signatures.indexOf(before)
      signatures = index >= 0 ? signatures.slice(index + 1) : []
    }
    if (until !== undefined) {
      const index = signatures.indexOf(until)
      if (index >= 0) signatures = signatures.slice(0, index)
    }
    return signatures.slice(0, limit).map((signature) => {
      const stored = ctx.chain.getTransaction(signature)!
      return {
        signature,
        slot: stored.slot,
        err: stored.meta.err,
        memo: memoOfWire(stored.wire),
        blockTime: BigInt(stored.blockTime),
        confirmationStatus: 'finalized',
      }
    })
  },

  getTransaction: (params, ctx) => {
    const signature = params.signature(0)
    const raw = (params.config(1).raw ?? {}) as Record<string, unknown>
    // The second parameter may also be a bare encoding string (legacy form).
    const config = typeof raw === 'string' ? { encoding: raw } : raw
    const encoding = config.encoding ?? 'json'
    if (!TRANSACTION_ENCODINGS.includes(encoding as never))
      throw invalidParams(`unknown encoding ${JSON.stringify(encoding)}`)
    if (encoding === 'jsonParsed') throw invalidParams('the sandbox RPC serves transactions as json, base58 or base64')
    const stored = ctx.chain.getTransaction(signature)
    if (!stored) return null
    const maxVersion = config.maxSupportedTransactionVersion
    if (stored.version !== 'legacy' && (typeof maxVersion !== 'number' || stored.version > maxVersion))
      throw new RpcError(
        RPC_ERRORS.UNSUPPORTED_TRANSACTION_VERSION,
        `Transaction version (${stored.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${stored.version}`,
      )
    return encodeTransaction(stored, encoding as 'json' | 'base58' | 'base64')
  },

  getSignatureStatuses: (params, ctx) => {
    const signatures = params.array(0)
    if (signatures.length > MAX_SIGNATURE_STATUSES)
      throw invalidParams(`too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`)
    params.config(1)
    return withContext(
      ctx,
      signatures.map((value, index) => {
        const stored = ctx.chain.getTransaction(new Params(signatures, 0n).signature(index, value))
        if (!stored) return null
        return {
          slot: stored.slot,
          confirmations: null,
          err: stored.meta.err,
          status: stored.meta.err === null ? { Ok: null } : { Err: stored.meta.err },
          confirmationStatus: 'finalized',
        }
      }),
    )
  },

  sendTransaction: (params, ctx) => {
    const encoded = params.string(0)
    const config = params.config(1)
    const wire = decodeWire(encoded, config.string('encoding', ['base58', 'base64'] as const, 'base58'))
    if (!config.boolean('skipPreflight', false)) {
      const preflight = ctx.chain.simulate(wire, { sigVerify: true })
      if (preflight.err === 'SignatureFailure')
        throw new RpcError(
          RPC_ERRORS.TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
          'Transaction signature verification failure',
        )
      if (preflight.err !== null)
        throw new RpcError(
          RPC_ERRORS.SEND_TRANSACTION_PREFLIGHT_FAILURE,
          `Transaction simulation failed: ${describeError(preflight.err)}`,
          {
            accounts: null,
            err: preflight.err,
            innerInstructions: null,
            logs: preflight.logs,
            replacementBlockhash: null,
            returnData: null,
            unitsConsumed: preflight.unitsConsumed,
          },
        )
    }
    const outcome = ctx.chain.send(wire)
    if (outcome.signature === undefined) throw invalidParams('transaction has no signature')
    // Like a cluster, a transaction that cannot land still answers with its signature; it never confirms.
    return outcome.signature
  },

  simulateTransaction: (params, ctx) => {
    const encoded = params.string(0)
    const config = params.config(1)
    const sigVerify = config.boolean('sigVerify', false)
    const replaceRecentBlockhash = config.boolean('replaceRecentBlockhash', false)
    if (sigVerify && replaceRecentBlockhash)
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
    const wire = decodeWire(encoded, config.string('encoding', ['base58', 'base64'] as const, 'base58'))
    const outcome = ctx.chain.simulate(wire, { sigVerify, replaceRecentBlockhash })
    return withContext(ctx, {
      err: outcome.err,
      logs: outcome.logs,
      accounts: null,
      unitsConsumed: outcome.unitsConsumed,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash: outcome.replacementBlockhash ?? null,
    })
  },

  /** Sandbox-only: sandbox USDC for any address, as `requestAirdrop` gives SOL. */
  requestUsdcAirdrop: (params, ctx) => {
    const to = params.pubkey(0)
    const amount = params.u64(1)
    if (!ctx.airdropUsdc) throw new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, 'Method not found')
    return ctx.airdropUsdc(to, amount)
  },

  /**
   * Sandbox-only: buries an address's own transactions under `count` (1 to MAX_DUST_FLOOD) dust
   * transfers, as anyone can on mainnet; answers how many were sent and the newest signature.
   */
  requestDustFlood: async (params, ctx) => {
    const to = params.pubkey(0)
    const count = Number(params.u64(1))
    if (!ctx.dust) throw new RpcError(RPC_ERRORS.METHOD_NOT_FOUND, 'Method not found')
    if (count < 1 || count > MAX_DUST_FLOOD) throw invalidParams(`count must be 1 to ${MAX_DUST_FLOOD}`)
    const signatures = await ctx.dust(to, count)
    return { count: signatures.length, newest: signatures.at(-1) }
  },

  requestAirdrop: (params, ctx) => {
    const to = params.pubkey(0)
    const amount = params.u64(1)
    params.config(2)
    return ctx.airdrop(to, amount)
  },
}

/** The most dust transfers one `requestDustFlood` sends (a few seconds of the sandbox chain's work). */
const MAX_DUST_FLOOD = 5_000

function programAccountFilter(filter: unknown): (data: Uint8Array | ArrayLike<number>) => boolean {
  const value = filter as { dataSize?: unknown; memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } }
  if (typeof value.dataSize === 'number') return (data) => data.length === value.dataSize
  if (value.memcmp && typeof value.memcmp.offset === 'number' && typeof value.memcmp.bytes === 'string') {
    const { offset } = value.memcmp
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(
        value.memcmp.encoding === 'base64' ? base64.encode(value.memcmp.bytes) : base58.encode(value.memcmp.bytes),
      )
    } catch {
      throw invalidParams('memcmp bytes are not valid')
    }
    return (data) => {
      if (offset + bytes.length > data.length) return false
      for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false
      return true
    }
  }
  throw invalidParams('each filter must be { dataSize } or { memcmp: { offset, bytes } }')
}
