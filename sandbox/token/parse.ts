import { ByteView } from './bytes.ts'
import {
  accountState,
  extensionValue,
  interestBearingRates,
  parseExtensions,
  scaledUiAmountMultipliers,
  type UiAccountState,
  type UiExtension,
} from './extensions.ts'
import { extensionSpec } from './extension-types.ts'
import { tokenAmountToUiAmount, type MintAmountInfo, type UiTokenAmount } from './ui-amount.ts'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'

/**
 * `jsonParsed` for SPL Token and Token-2022 accounts, byte for byte what agave's RPC returns
 * (`account-decoder/src/parse_token.rs`, `parse_token_v3`, and `parse_account_data.rs`). Both token
 * programs go through the same Token-2022 unpacking, as they do in agave.
 */

/** Classic SPL Token and Token-2022 program ids, as plain strings (src/onchain/programs.ts). */
export const TOKEN_PROGRAM_ID: string = TOKEN_PROGRAM_ADDRESS
export const TOKEN_2022_PROGRAM_ID: string = TOKEN_2022_PROGRAM_ADDRESS

const MINT_LEN = 82
const ACCOUNT_LEN = 165
const MULTISIG_LEN = 355
const MAX_SIGNERS = 11
/** Mints are padded to the account length so the AccountType byte sits at the same offset in both. */
const ACCOUNT_TYPE_OFFSET = ACCOUNT_LEN
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2
const INTEREST_BEARING = extensionSpec('interestBearingConfig')
const SCALED_UI_AMOUNT = extensionSpec('scaledUiAmountConfig')

/** `UiMint`. */
export type UiMint = {
  mintAuthority: string | null
  /** u64 as a decimal string. */
  supply: string
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
  /** Present only when non-empty, as serde's `skip_serializing_if = "Vec::is_empty"` does. */
  extensions?: UiExtension[]
}

/** `UiTokenAccount`; optional members are absent (not null) when the RPC skips them. */
export type UiTokenAccount = {
  mint: string
  owner: string
  tokenAmount: UiTokenAmount
  delegate?: string
  state: UiAccountState
  isNative: boolean
  rentExemptReserve?: UiTokenAmount
  delegatedAmount?: UiTokenAmount
  closeAuthority?: string
  extensions?: UiExtension[]
}

/** `UiMultisig`. */
export type UiMultisig = {
  numRequiredSigners: number
  numValidSigners: number
  isInitialized: boolean
  signers: string[]
}

/** `TokenAccountType`, serde-tagged as `{ type, info }`. */
export type ParsedTokenAccount =
  | { type: 'mint'; info: UiMint }
  | { type: 'account'; info: UiTokenAccount }
  | { type: 'multisig'; info: UiMultisig }

/** What the RPC puts in `value.data` for `encoding: "jsonParsed"` on a token account. */
export type ParsedTokenData = {
  program: 'spl-token' | 'spl-token-2022'
  parsed: ParsedTokenAccount
  /** The account's data length. */
  space: number
}

/**
 * The mint facts the RPC reads to print a token account's amounts: a decimals count, or a
 * {@link MintAmountInfo} for interest-bearing and scaled-UI-amount mints (see {@link mintAmountInfo}).
 * undefined when the mint cannot be read, in which case the RPC falls back to base64.
 */
export type MintDecimalsLookup = (mint: string) => number | MintAmountInfo | undefined

/**
 * Parses token-program account data into the RPC's `jsonParsed` shape, or undefined where the real
 * RPC falls back to base64: an owner that is not a token program, data that is no initialized mint,
 * account or multisig, or a token account whose mint the lookup does not know.
 *
 * `mintDecimals` stands for the RPC's mint read (`get_additional_mint_data`): agave reads the mint
 * account named in the token account whatever its owner, unpacks it as a Token-2022 mint and uses its
 * decimals; for exact amounts on interest-bearing or scaled-UI-amount mints return
 * `mintAmountInfo(mintData, clockUnixTimestamp)` instead of the bare decimals.
 */
export function parseTokenAccount(
  programId: string,
  data: Uint8Array,
  mintDecimals: MintDecimalsLookup,
): ParsedTokenData | undefined {
  const program =
    programId === TOKEN_PROGRAM_ID ? 'spl-token' : programId === TOKEN_2022_PROGRAM_ID ? 'spl-token-2022' : undefined
  if (program === undefined) return undefined
  const parsed = parseTokenState(data, mintDecimals)
  return parsed && { program, parsed, space: data.length }
}

/** `parse_token_v3`: an account first, then a mint, then (at exactly 355 bytes) a multisig. */
function parseTokenState(data: Uint8Array, mintDecimals: MintDecimalsLookup): ParsedTokenAccount | undefined {
  const account = unpackWithExtensions(data, ACCOUNT_LEN, ACCOUNT_TYPE_ACCOUNT)
  const base = account && unpackAccount(account.base)
  if (account && base) {
    const lookup = mintDecimals(base.mint)
    // a valid account without its mint's decimals is an error in agave, not a reason to try a mint
    if (lookup === undefined) return undefined
    const info: MintAmountInfo = typeof lookup === 'number' ? { decimals: lookup } : lookup
    return { type: 'account', info: accountInfo(base, info, parseExtensions(account.tlv, 'account')) }
  }
  const mint = mintState(data)
  if (mint) return { type: 'mint', info: mint }
  if (data.length === MULTISIG_LEN) {
    const multisig = unpackMultisig(data)
    if (multisig) return { type: 'multisig', info: multisig }
  }
  return undefined
}

/** A mint's `info` with its extensions, or undefined when `data` is no initialized mint. */
function mintState(data: Uint8Array): UiMint | undefined {
  const unpacked = unpackWithExtensions(data, MINT_LEN, ACCOUNT_TYPE_MINT)
  const base = unpacked && unpackMint(unpacked.base)
  if (!unpacked || !base) return undefined
  return withExtensions(base, parseExtensions(unpacked.tlv, 'mint'))
}

/**
 * The RPC's mint read for amounts (`get_additional_mint_data` in agave `rpc/src/parsed_token_accounts.rs`):
 * decimals, plus the interest-bearing or scaled-UI-amount config with the clock's unix timestamp.
 * undefined when `mintData` does not unpack as a Token-2022 mint.
 */
export function mintAmountInfo(mintData: Uint8Array, unixTimestamp: bigint): MintAmountInfo | undefined {
  const unpacked = unpackWithExtensions(mintData, MINT_LEN, ACCOUNT_TYPE_MINT)
  const base = unpacked && unpackMint(unpacked.base)
  if (!unpacked || !base) return undefined
  const info: MintAmountInfo = { decimals: base.decimals }
  // `get_extension` semantics: the first entry of the type, of exactly the struct's size
  const interest = extensionValue(unpacked.tlv, INTEREST_BEARING.type, 'mint')
  if (interest !== undefined && interest.length === INTEREST_BEARING.size) {
    info.interestBearing = { config: interestBearingRates(interest), unixTimestamp }
  }
  const scaled = extensionValue(unpacked.tlv, SCALED_UI_AMOUNT.type, 'mint')
  if (scaled !== undefined && scaled.length === SCALED_UI_AMOUNT.size) {
    info.scaledUiAmount = { config: scaledUiAmountMultipliers(scaled), unixTimestamp }
  }
  return info
}

/**
 * `StateWithExtensions::<S>::unpack` minus the base-state decode: splits `data` into the base bytes
 * and the TLV area, checking the multisig length, the zero padding up to byte 165 and the AccountType.
 */
function unpackWithExtensions(
  data: Uint8Array,
  baseLen: number,
  accountType: number,
): { base: Uint8Array; tlv: Uint8Array } | undefined {
  if (data.length === MULTISIG_LEN || data.length < baseLen) return undefined
  const base = data.subarray(0, baseLen)
  if (data.length === baseLen) return { base, tlv: new Uint8Array(0) }
  if (data.length < ACCOUNT_TYPE_OFFSET + 1) return undefined
  for (let i = baseLen; i < ACCOUNT_TYPE_OFFSET; i++) if (data[i] !== 0) return undefined
  if (data[ACCOUNT_TYPE_OFFSET] !== accountType) return undefined
  return { base, tlv: data.subarray(ACCOUNT_TYPE_OFFSET + 1) }
}

type MintBase = Omit<UiMint, 'extensions'>

/** `Mint::unpack`: strict COption tags and bool byte, and it must be initialized. */
function unpackMint(bytes: Uint8Array): MintBase | undefined {
  const v = new ByteView(bytes)
  const mintAuthority = coptionKey(v, 0)
  const isInitialized = strictBool(v.u8(45))
  const freezeAuthority = coptionKey(v, 46)
  if (mintAuthority === undefined || freezeAuthority === undefined || isInitialized !== true) return undefined
  return { mintAuthority, supply: v.u64(36).toString(), decimals: v.u8(44), isInitialized, freezeAuthority }
}

type AccountBase = {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: UiAccountState
  isNative: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

/** `Account::unpack`: strict COption tags and state byte, and the state must not be uninitialized. */
function unpackAccount(bytes: Uint8Array): AccountBase | undefined {
  const v = new ByteView(bytes)
  const delegate = coptionKey(v, 72)
  const state = accountState(v.u8(108))
  const isNative = coptionU64(v, 109)
  const closeAuthority = coptionKey(v, 129)
  if (delegate === undefined || state === undefined || isNative === undefined || closeAuthority === undefined) {
    return undefined
  }
  if (state === 'uninitialized') return undefined
  return {
    mint: v.pubkey(0),
    owner: v.pubkey(32),
    amount: v.u64(64),
    delegate,
    state,
    isNative,
    delegatedAmount: v.u64(121),
    closeAuthority,
  }
}

function accountInfo(base: AccountBase, mint: MintAmountInfo, extensions: UiExtension[]): UiTokenAccount {
  // members in the Rust struct's order, so that serialized JSON has the RPC's key order too
  return {
    mint: base.mint,
    owner: base.owner,
    tokenAmount: tokenAmountToUiAmount(base.amount, mint),
    ...(base.delegate !== null && { delegate: base.delegate }),
    state: base.state,
    isNative: base.isNative !== null,
    ...(base.isNative !== null && { rentExemptReserve: tokenAmountToUiAmount(base.isNative, mint) }),
    ...(base.delegate !== null && { delegatedAmount: tokenAmountToUiAmount(base.delegatedAmount, mint) }),
    ...(base.closeAuthority !== null && { closeAuthority: base.closeAuthority }),
    ...(extensions.length > 0 && { extensions }),
  }
}

function withExtensions(base: MintBase, extensions: UiExtension[]): UiMint {
  return extensions.length > 0 ? { ...base, extensions } : base
}

/** `Multisig::unpack`: strict bool byte, must be initialized; zero signer slots are left out. */
function unpackMultisig(data: Uint8Array): UiMultisig | undefined {
  const v = new ByteView(data)
  const isInitialized = strictBool(v.u8(2))
  if (isInitialized !== true) return undefined
  const signers: string[] = []
  for (let i = 0; i < MAX_SIGNERS; i++) {
    const signer = v.optionalPubkey(3 + 32 * i)
    if (signer !== null) signers.push(signer)
  }
  return { numRequiredSigners: v.u8(0), numValidSigners: v.u8(1), isInitialized, signers }
}

/** A `COption<Pubkey>`: tag [0,0,0,0] is None, [1,0,0,0] is Some, anything else is invalid (undefined). */
function coptionKey(v: ByteView, offset: number): string | null | undefined {
  const tag = v.u32(offset)
  if (tag === 0) return null
  if (tag === 1) return v.pubkey(offset + 4)
  return undefined
}

/** A `COption<u64>`, same tags. */
function coptionU64(v: ByteView, offset: number): bigint | null | undefined {
  const tag = v.u32(offset)
  if (tag === 0) return null
  if (tag === 1) return v.u64(offset + 4)
  return undefined
}

/** The packed `bool` of Mint and Multisig: only 0 and 1 are valid. */
function strictBool(byte: number): boolean | undefined {
  return byte === 0 ? false : byte === 1 ? true : undefined
}
