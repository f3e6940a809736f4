import type { Address, Rpc, SolanaRpcApi } from '@solana/kit'
import { beforeDeadline } from '../kernel/deadline.ts'
import { encodeBase58 } from '../onchain/base58.ts'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  JUPITER_LOCK_PROGRAM_ADDRESS,
  MEMO_PROGRAM_ADDRESS,
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  PUMP_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
  RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS,
  RAYDIUM_LOCK_PROGRAM_ADDRESS,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_METADATA_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from '../onchain/programs.ts'
import type { SolanaSource } from '../sources/solana-rpc.ts'
import { CallMeter } from '../sources/upstream.ts'

/**
 * What lives at an address, as far as a route given "a token" or "a wallet" cares: nothing, a token
 * mint, a wallet, a token account (of which mint, held by which wallet), a program, or an account some
 * program keeps (a pool, a bonding curve, a nonce, a token multisig).
 */
export type AccountKind =
  | { kind: 'none' }
  | { kind: 'token_mint' }
  | { kind: 'wallet' }
  | { kind: 'token_account'; mint: string; owner: string | null }
  | { kind: 'program' }
  | { kind: 'program_account'; owner: string }

/**
 * Names of the programs a caller is likely to paste or to meet as an account's owner, for the refusal's
 * message (an unknown program is named by its id alone).
 */
export const PROGRAM_NAMES: Readonly<Record<string, string>> = {
  [SYSTEM_PROGRAM_ADDRESS]: 'System Program',
  [TOKEN_PROGRAM_ADDRESS]: 'SPL Token',
  [TOKEN_2022_PROGRAM_ADDRESS]: 'SPL Token-2022',
  [ASSOCIATED_TOKEN_PROGRAM_ADDRESS]: 'Associated Token Account',
  [MEMO_PROGRAM_ADDRESS]: 'SPL Memo',
  [TOKEN_METADATA_PROGRAM_ADDRESS]: 'Metaplex Token Metadata',
  [PUMP_PROGRAM_ADDRESS]: 'pump.fun',
  [PUMP_AMM_PROGRAM_ADDRESS]: 'PumpSwap',
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS]: 'Raydium AMM v4',
  [RAYDIUM_CPMM_PROGRAM_ADDRESS]: 'Raydium CPMM',
  [RAYDIUM_CLMM_PROGRAM_ADDRESS]: 'Raydium CLMM',
  [RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS]: 'Raydium LaunchLab',
  [RAYDIUM_LOCK_PROGRAM_ADDRESS]: 'Raydium liquidity lock',
  [ORCA_WHIRLPOOL_PROGRAM_ADDRESS]: 'Orca Whirlpools',
  [METEORA_DLMM_PROGRAM_ADDRESS]: 'Meteora DLMM',
  [METEORA_DAMM_V2_PROGRAM_ADDRESS]: 'Meteora DAMM v2',
  [METEORA_DAMM_V1_PROGRAM_ADDRESS]: 'Meteora DAMM v1',
  [JUPITER_LOCK_PROGRAM_ADDRESS]: 'Jupiter Lock',
  // The runtime's own programs and loaders (agave sdk ids).
  BPFLoaderUpgradeab1e11111111111111111111111: 'BPF upgradeable loader',
  BPFLoader2111111111111111111111111111111111: 'BPF loader',
  Stake11111111111111111111111111111111111111: 'Stake',
  Vote111111111111111111111111111111111111111: 'Vote',
  Sysvar1111111111111111111111111111111111111: 'Sysvar',
  ComputeBudget111111111111111111111111111111: 'Compute Budget',
  AddressLookupTab1e1111111111111111111111111: 'Address Lookup Table',
}

const TOKEN_PROGRAMS: ReadonlySet<string> = new Set([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])

/** Token program layouts (spl-token state.rs, token-2022 extension/mod.rs): sizes and where members sit. */
const MINT_LEN = 82
const ACCOUNT_LEN = 165
const MULTISIG_LEN = 355
/** Token-2022: past the base account, the byte saying which account this is (1 mint, 2 token account). */
const ACCOUNT_TYPE_OFFSET = ACCOUNT_LEN
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2
/** A mint's `is_initialized` (after the authority option, supply and decimals); a token account's `state`. */
const MINT_INITIALIZED_OFFSET = 45
const ACCOUNT_STATE_OFFSET = 108

/** An account as `getAccountInfo` answers it (jsonParsed where the node can parse it, else base64). */
export interface RpcAccount {
  owner: string
  executable: boolean
  data: unknown
}

/**
 * What an account is, from the RPC's answer (null: no account). A token program's account is read from
 * the node's jsonParsed form, or from its bytes where the node fell back to base64 (a token account whose
 * mint it could not read, a layout it does not parse).
 */
export function accountKindOf(account: RpcAccount | null): AccountKind {
  if (account === null) return { kind: 'none' }
  if (account.executable) return { kind: 'program' }
  const owner = String(account.owner)
  if (TOKEN_PROGRAMS.has(owner)) return tokenProgramAccount(account.data, owner)
  if (owner === SYSTEM_PROGRAM_ADDRESS && dataLength(account.data) === 0) return { kind: 'wallet' }
  return { kind: 'program_account', owner }
}

function tokenProgramAccount(data: unknown, owner: string): AccountKind {
  const parsed = (data as { parsed?: { type?: unknown; info?: Record<string, unknown> } } | null)?.parsed
  if (parsed && typeof parsed === 'object') {
    if (parsed.type === 'mint') return { kind: 'token_mint' }
    if (parsed.type === 'account' && typeof parsed.info?.mint === 'string')
      return {
        kind: 'token_account',
        mint: parsed.info.mint,
        owner: typeof parsed.info.owner === 'string' ? parsed.info.owner : null,
      }
    return { kind: 'program_account', owner }
  }
  const bytes = bytesOf(data)
  // A multisig (Token-2022 pads every account with extensions away from this length).
  if (!bytes || bytes.length === MULTISIG_LEN) return { kind: 'program_account', owner }
  const type = bytes.length > ACCOUNT_LEN ? bytes[ACCOUNT_TYPE_OFFSET] : undefined
  const isMint =
    (bytes.length === MINT_LEN || type === ACCOUNT_TYPE_MINT) &&
    bytes.length > MINT_INITIALIZED_OFFSET &&
    bytes[MINT_INITIALIZED_OFFSET] === 1
  if (isMint) return { kind: 'token_mint' }
  const isAccount = (bytes.length === ACCOUNT_LEN || type === ACCOUNT_TYPE_ACCOUNT) && bytes[ACCOUNT_STATE_OFFSET] !== 0
  if (isAccount)
    return {
      kind: 'token_account',
      mint: encodeBase58(bytes.subarray(0, 32)),
      owner: encodeBase58(bytes.subarray(32, 64)),
    }
  return { kind: 'program_account', owner }
}

function bytesOf(data: unknown): Uint8Array | undefined {
  if (!Array.isArray(data) || typeof data[0] !== 'string' || data[1] !== 'base64') return undefined
  return new Uint8Array(Buffer.from(data[0], 'base64'))
}

/** Data length of an account as answered: 0 for `['', 'base64']`; a parsed account has data. */
function dataLength(data: unknown): number {
  const bytes = bytesOf(data)
  return bytes ? bytes.length : 1
}

/**
 * The account at `address`, jsonParsed: the call the mint fact and the route's account check both make,
 * so the source's cache and coalescing (getAccountInfo, 5 s) turn the two into one read.
 */
export async function readParsedAccount(rpc: Rpc<SolanaRpcApi>, address: string): Promise<RpcAccount | null> {
  const { value } = await rpc.getAccountInfo(address as Address, { encoding: 'jsonParsed' }).send()
  return value as RpcAccount | null
}

/**
 * What lives at `address`, read through the Solana source by `deadlineAt` (epoch ms); undefined when the
 * RPC could not say in time (the caller then goes on without knowing, as it did before it asked).
 */
export async function readAccountKind(
  solana: SolanaSource,
  address: string,
  deadlineAt: number,
): Promise<AccountKind | undefined> {
  const meter = new CallMeter()
  try {
    return accountKindOf(await beforeDeadline(readParsedAccount(solana.rpc(meter), address), deadlineAt))
  } catch {
    return undefined
  } finally {
    // A read still waiting for the provider's window is dropped, unless a scan has joined it.
    meter.close()
  }
}
