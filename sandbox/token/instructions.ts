import {
  AccountRole,
  address,
  getAddressEncoder,
  type AccountMeta,
  type AccountSignerMeta,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit'
import { extensionSpec, type AccountExtensionName, type MintExtensionName } from './extension-types.ts'
import { TOKEN_2022_PROGRAM_ID } from './parse.ts'

/**
 * Token-2022 extension-initialisation instructions that @solana-program/token (classic Token) lacks.
 * The base instructions are reused from @solana-program/token with the 2022 program id, e.g.
 * `getInitializeMint2Instruction(input, { programAddress: TOKEN_2022_PROGRAM_ADDRESS })`.
 *
 * Layouts: solana-program/token-2022 `interface/src/instruction.rs` (`TokenInstruction::pack`) and
 * `interface/src/extension/<name>/instruction.rs`; token metadata: solana-program/token-metadata
 * `interface/src/instruction.rs`. Every mint extension must be initialised after the account is
 * created with {@link getMintSizeWithExtensions} bytes and before InitializeMint2.
 */

/** The Token-2022 program. */
export const TOKEN_2022_PROGRAM_ADDRESS = address(TOKEN_2022_PROGRAM_ID)

/** `TokenInstruction` discriminators (the enum's order in token-2022). */
const TOKEN_INSTRUCTION = {
  initializeMintCloseAuthority: 25,
  transferFeeExtension: 26,
  defaultAccountStateExtension: 28,
  initializeNonTransferableMint: 32,
  interestBearingMintExtension: 33,
  initializePermanentDelegate: 35,
  transferHookExtension: 36,
  metadataPointerExtension: 39,
  groupPointerExtension: 40,
  groupMemberPointerExtension: 41,
  scaledUiAmountExtension: 43,
  pausableExtension: 44,
  permissionedBurnExtension: 46,
} as const
/** Every extension's `Initialize` sub-instruction is its first variant. */
const INITIALIZE = 0

/**
 * spl-token-metadata-interface discriminators: the first 8 bytes of
 * sha256("spl_token_metadata_interface:initialize_account") and of "...:updating_field".
 */
export const TOKEN_METADATA_INITIALIZE_DISCRIMINATOR = new Uint8Array([210, 225, 30, 162, 88, 184, 77, 141])
/** See {@link TOKEN_METADATA_INITIALIZE_DISCRIMINATOR}; hashed from "...:updating_field". */
export const TOKEN_METADATA_UPDATE_FIELD_DISCRIMINATOR = new Uint8Array([221, 233, 49, 45, 181, 202, 220, 200])

const MINT_LEN = 82
const ACCOUNT_LEN = 165
const MULTISIG_LEN = 355
/** Account length + the AccountType byte: the floor of any account with extensions. */
const BASE_WITH_TYPE = ACCOUNT_LEN + 1
/** TLV header: u16 type + u16 length. */
const TLV_HEADER = 4
const PUBKEY_LEN = 32
const U32_MAX = 0xffff_ffff
const U64_MAX = (1n << 64n) - 1n

const addressEncoder = getAddressEncoder()
const utf8 = new TextEncoder()

/** Token metadata as the TokenMetadata extension stores it (variable length, borsh). */
export type TokenMetadataFields = {
  name: string
  symbol: string
  uri: string
  additionalMetadata?: readonly (readonly [string, string])[]
}

/**
 * Bytes a mint account needs for `extensions` (deduplicated), as token-2022's
 * `ExtensionType::try_calculate_account_len::<Mint>` computes them: 82 without extensions, else
 * 165 + 1 + each TLV entry, plus 2 when that would equal a multisig's 355 bytes. With `tokenMetadata`
 * it adds the TLV entry the metadata Initialize (and UpdateField) instructions write by reallocation:
 * create the account with the size without metadata and fund it for the size with metadata.
 */
export function getMintSizeWithExtensions(
  extensions: readonly MintExtensionName[],
  tokenMetadata?: TokenMetadataFields,
): number {
  const entries = [...new Set(extensions)].map((name) => TLV_HEADER + (extensionSpec(name).size ?? 0))
  if (tokenMetadata) entries.push(TLV_HEADER + tokenMetadataLength(tokenMetadata))
  return tlvAccountLength(MINT_LEN, entries)
}

/**
 * Bytes a Token-2022 token account needs for a mint with `mintExtensions`: the account extensions
 * InitializeAccount adds for them (TransferFeeAmount, NonTransferableAccount + ImmutableOwner,
 * TransferHookAccount, PausableAccount) plus `accountExtensions` (e.g. `immutableOwner`).
 */
export function getTokenAccountSize(
  mintExtensions: readonly MintExtensionName[],
  accountExtensions: readonly AccountExtensionName[] = [],
): number {
  const required = mintExtensions.flatMap((name) => REQUIRED_ACCOUNT_EXTENSIONS[name] ?? [])
  const names = [...new Set([...required, ...accountExtensions])]
  return tlvAccountLength(
    ACCOUNT_LEN,
    names.map((name) => TLV_HEADER + (extensionSpec(name).size ?? 0)),
  )
}

/** token-2022 `required_init_account_extensions`. */
const REQUIRED_ACCOUNT_EXTENSIONS: Partial<Record<MintExtensionName, AccountExtensionName[]>> = {
  transferFeeConfig: ['transferFeeAmount'],
  nonTransferable: ['nonTransferableAccount', 'immutableOwner'],
  transferHook: ['transferHookAccount'],
  pausableConfig: ['pausableAccount'],
}

function tlvAccountLength(baseLen: number, entries: number[]): number {
  if (entries.length === 0) return baseLen
  const length = BASE_WITH_TYPE + entries.reduce((sum, n) => sum + n, 0)
  // an extended account must never be mistaken for a multisig
  return length === MULTISIG_LEN ? length + 2 : length
}

/** Borsh length of a TokenMetadata value. */
function tokenMetadataLength(fields: TokenMetadataFields): number {
  const text = (s: string) => 4 + utf8.encode(s).length
  const extra = (fields.additionalMetadata ?? []).reduce((sum, [k, v]) => sum + text(k) + text(v), 0)
  return PUBKEY_LEN * 2 + text(fields.name) + text(fields.symbol) + text(fields.uri) + 4 + extra
}

/** InitializeMintCloseAuthority (25): who may close the mint once its supply is zero. */
export function getInitializeMintCloseAuthorityInstruction(
  input: { mint: Address; closeAuthority: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.initializeMintCloseAuthority], coptionPubkey(input.closeAuthority))
  return mintOnly(programAddress, input.mint, data)
}

/**
 * TransferFeeExtension (26) / InitializeTransferFeeConfig (0): `transferFeeBasisPoints` (at most
 * 10_000) of every transfer, capped at `maximumFee` raw units, withheld in the recipient's account.
 */
export function getInitializeTransferFeeConfigInstruction(
  input: {
    mint: Address
    transferFeeConfigAuthority: Address | null
    withdrawWithheldAuthority: Address | null
    transferFeeBasisPoints: number
    maximumFee: bigint
  },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes(
    [TOKEN_INSTRUCTION.transferFeeExtension, INITIALIZE],
    coptionPubkey(input.transferFeeConfigAuthority),
    coptionPubkey(input.withdrawWithheldAuthority),
    transferFee(input.transferFeeBasisPoints, input.maximumFee),
  )
  return mintOnly(programAddress, input.mint, data)
}

/** A transfer fee as Initialize and SetTransferFee both lay it out: basis points (u16), then the cap (u64). */
function transferFee(basisPoints: number, maximumFee: bigint): Uint8Array {
  return bytes([], u16(basisPoints), u64(maximumFee))
}

/** The AccountState a DefaultAccountState instruction names: ::Frozen is 2, ::Initialized 1. */
const accountState = (state: 'initialized' | 'frozen') => (state === 'frozen' ? 2 : 1)

/** DefaultAccountStateExtension (28) / Initialize (0): the state new token accounts start in. */
export function getInitializeDefaultAccountStateInstruction(
  input: { mint: Address; state: 'initialized' | 'frozen' },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.defaultAccountStateExtension, INITIALIZE, accountState(input.state)])
  return mintOnly(programAddress, input.mint, data)
}

/** InitializeNonTransferableMint (32): tokens can be minted and burned but never transferred. */
export function getInitializeNonTransferableMintInstruction(
  input: { mint: Address },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  return mintOnly(programAddress, input.mint, bytes([TOKEN_INSTRUCTION.initializeNonTransferableMint]))
}

/** InterestBearingMintExtension (33) / Initialize (0): `rate` in basis points per year (i16). */
export function getInitializeInterestBearingMintInstruction(
  input: { mint: Address; rateAuthority: Address | null; rate: number },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes(
    [TOKEN_INSTRUCTION.interestBearingMintExtension, INITIALIZE],
    optionalPubkey(input.rateAuthority),
    i16(input.rate),
  )
  return mintOnly(programAddress, input.mint, data)
}

/** InitializePermanentDelegate (35): a key that may transfer or burn from every account of the mint. */
export function getInitializePermanentDelegateInstruction(
  input: { mint: Address; delegate: Address },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.initializePermanentDelegate], addressEncoder.encode(input.delegate))
  return mintOnly(programAddress, input.mint, data)
}

/** TransferHookExtension (36) / Initialize (0): a program every transfer must call. */
export function getInitializeTransferHookInstruction(
  input: { mint: Address; authority: Address | null; programId: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  return pointerInstruction(programAddress, TOKEN_INSTRUCTION.transferHookExtension, input.mint, [
    input.authority,
    input.programId,
  ])
}

/** MetadataPointerExtension (39) / Initialize (0): where the mint's metadata lives (often itself). */
export function getInitializeMetadataPointerInstruction(
  input: { mint: Address; authority: Address | null; metadataAddress: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  return pointerInstruction(programAddress, TOKEN_INSTRUCTION.metadataPointerExtension, input.mint, [
    input.authority,
    input.metadataAddress,
  ])
}

/** GroupPointerExtension (40) / Initialize (0). */
export function getInitializeGroupPointerInstruction(
  input: { mint: Address; authority: Address | null; groupAddress: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  return pointerInstruction(programAddress, TOKEN_INSTRUCTION.groupPointerExtension, input.mint, [
    input.authority,
    input.groupAddress,
  ])
}

/** GroupMemberPointerExtension (41) / Initialize (0). */
export function getInitializeGroupMemberPointerInstruction(
  input: { mint: Address; authority: Address | null; memberAddress: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  return pointerInstruction(programAddress, TOKEN_INSTRUCTION.groupMemberPointerExtension, input.mint, [
    input.authority,
    input.memberAddress,
  ])
}

/** ScaledUiAmountExtension (43) / Initialize (0): UI amounts are raw amounts × `multiplier`. */
export function getInitializeScaledUiAmountInstruction(
  input: { mint: Address; authority: Address | null; multiplier: number },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes(
    [TOKEN_INSTRUCTION.scaledUiAmountExtension, INITIALIZE],
    optionalPubkey(input.authority),
    f64(input.multiplier),
  )
  return mintOnly(programAddress, input.mint, data)
}

/** PausableExtension (44) / Initialize (0): `authority` may pause minting, burning and transfers. */
export function getInitializePausableConfigInstruction(
  input: { mint: Address; authority: Address },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.pausableExtension, INITIALIZE], addressEncoder.encode(input.authority))
  return mintOnly(programAddress, input.mint, data)
}

/** PermissionedBurnExtension (46) / Initialize (0): every burn needs `authority`'s signature too. */
export function getInitializePermissionedBurnInstruction(
  input: { mint: Address; authority: Address },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.permissionedBurnExtension, INITIALIZE], addressEncoder.encode(input.authority))
  return mintOnly(programAddress, input.mint, data)
}

/**
 * token-metadata interface Initialize, served by Token-2022 itself: writes name, symbol and uri into
 * the mint (which must already carry a MetadataPointer and be initialised). Token-2022 reallocates
 * the mint, so it must hold the rent for the larger size beforehand.
 */
export function getInitializeTokenMetadataInstruction(
  input: {
    mint: Address
    updateAuthority: Address
    mintAuthority: TransactionSigner
    name: string
    symbol: string
    uri: string
  },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const mintAuthority: AccountSignerMeta = {
    address: input.mintAuthority.address,
    role: AccountRole.READONLY_SIGNER,
    signer: input.mintAuthority,
  }
  return {
    programAddress,
    accounts: [
      // metadata account = the mint, as Token-2022 requires
      { address: input.mint, role: AccountRole.WRITABLE },
      { address: input.updateAuthority, role: AccountRole.READONLY },
      { address: input.mint, role: AccountRole.READONLY },
      mintAuthority,
    ],
    data: bytes(
      TOKEN_METADATA_INITIALIZE_DISCRIMINATOR,
      borshString(input.name),
      borshString(input.symbol),
      borshString(input.uri),
    ),
  }
}

/** A token-metadata field: one of the three standard ones, or an additional key. */
export type TokenMetadataField = 'name' | 'symbol' | 'uri' | { key: string }

/** token-metadata interface UpdateField: sets a standard field or adds/overwrites an additional key. */
export function getUpdateTokenMetadataFieldInstruction(
  input: { metadata: Address; updateAuthority: TransactionSigner; field: TokenMetadataField; value: string },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  // borsh enum Field { Name, Symbol, Uri, Key(String) }
  const field =
    typeof input.field === 'object'
      ? bytes([3], borshString(input.field.key))
      : bytes([{ name: 0, symbol: 1, uri: 2 }[input.field]])
  const updateAuthority: AccountSignerMeta = {
    address: input.updateAuthority.address,
    role: AccountRole.READONLY_SIGNER,
    signer: input.updateAuthority,
  }
  return {
    programAddress,
    accounts: [{ address: input.metadata, role: AccountRole.WRITABLE }, updateAuthority],
    data: bytes(TOKEN_METADATA_UPDATE_FIELD_DISCRIMINATOR, field, borshString(input.value)),
  }
}

/** The shape of every extension Initialize: the mint alone, writable, no signer. */
function mintOnly(programAddress: Address, mint: Address, data: Uint8Array): Instruction {
  const accounts: AccountMeta[] = [{ address: mint, role: AccountRole.WRITABLE }]
  return { programAddress, accounts, data }
}

/** Pointer-style Initialize: two `OptionalNonZeroPubkey`s (zeros for None) after the prefix. */
function pointerInstruction(
  programAddress: Address,
  prefix: number,
  mint: Address,
  keys: [Address | null, Address | null],
): Instruction {
  return mintOnly(programAddress, mint, bytes([prefix, INITIALIZE], optionalPubkey(keys[0]), optionalPubkey(keys[1])))
}

/** `COption<Pubkey>` in token instructions: a 0 byte, or a 1 byte and the key. */
function coptionPubkey(key: Address | null): Uint8Array {
  return key === null ? new Uint8Array([0]) : bytes([1], addressEncoder.encode(key))
}

/** `OptionalNonZeroPubkey` / `MaybeNull<Address>`: 32 zero bytes stand for None. */
function optionalPubkey(key: Address | null): Uint8Array {
  return key === null ? new Uint8Array(PUBKEY_LEN) : new Uint8Array(addressEncoder.encode(key))
}

function borshString(text: string): Uint8Array {
  const encoded = utf8.encode(text)
  if (encoded.length > U32_MAX) throw new RangeError('string too long for borsh')
  const length = new Uint8Array(4)
  new DataView(length.buffer).setUint32(0, encoded.length, true)
  return bytes(length, encoded)
}

function u16(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff) throw new RangeError(`not a u16: ${n}`)
  const out = new Uint8Array(2)
  new DataView(out.buffer).setUint16(0, n, true)
  return out
}

function i16(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < -0x8000 || n > 0x7fff) throw new RangeError(`not an i16: ${n}`)
  const out = new Uint8Array(2)
  new DataView(out.buffer).setInt16(0, n, true)
  return out
}

function u64(n: bigint): Uint8Array {
  if (n < 0n || n > U64_MAX) throw new RangeError(`not a u64: ${n}`)
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, n, true)
  return out
}

function f64(n: number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setFloat64(0, n, true)
  return out
}

function bytes(...parts: (ArrayLike<number> | readonly number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/**
 * The update instructions a mint's authorities run after launch (what the rug controls execute):
 * TransferFeeExtension / SetTransferFee (5), TransferHookExtension / Update (1),
 * DefaultAccountStateExtension / Update (1), PausableExtension / Pause (1) and Resume (2). Layouts:
 * token-2022 `interface/src/extension/{transfer_fee,transfer_hook,default_account_state,pausable}/instruction.rs`;
 * accounts: the mint (writable), then the authority (signer).
 */
const SET_TRANSFER_FEE = 5
const UPDATE = 1
const PAUSE = 1
const RESUME = 2

/** SetTransferFee: the fee the next epoch charges (token-2022 applies a new fee two epochs later). */
export function getSetTransferFeeInstruction(
  input: { mint: Address; authority: TransactionSigner; transferFeeBasisPoints: number; maximumFee: bigint },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes(
    [TOKEN_INSTRUCTION.transferFeeExtension, SET_TRANSFER_FEE],
    transferFee(input.transferFeeBasisPoints, input.maximumFee),
  )
  return mintAndAuthority(programAddress, input.mint, input.authority, data)
}

/** TransferHook Update: the program every transfer must call from now on (`null`: none). */
export function getUpdateTransferHookInstruction(
  input: { mint: Address; authority: TransactionSigner; programId: Address | null },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.transferHookExtension, UPDATE], optionalPubkey(input.programId))
  return mintAndAuthority(programAddress, input.mint, input.authority, data)
}

/** DefaultAccountState Update, signed by the freeze authority: the state new token accounts start in. */
export function getUpdateDefaultAccountStateInstruction(
  input: { mint: Address; freezeAuthority: TransactionSigner; state: 'initialized' | 'frozen' },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.defaultAccountStateExtension, UPDATE, accountState(input.state)])
  return mintAndAuthority(programAddress, input.mint, input.freezeAuthority, data)
}

/** Pausable Pause or Resume: while paused no transfer, mint or burn of the mint succeeds. */
export function getSetPausedInstruction(
  input: { mint: Address; authority: TransactionSigner; paused: boolean },
  programAddress: Address = TOKEN_2022_PROGRAM_ADDRESS,
): Instruction {
  const data = bytes([TOKEN_INSTRUCTION.pausableExtension, input.paused ? PAUSE : RESUME])
  return mintAndAuthority(programAddress, input.mint, input.authority, data)
}

function mintAndAuthority(
  programAddress: Address,
  mint: Address,
  authority: TransactionSigner,
  data: Uint8Array,
): Instruction {
  const signer: AccountSignerMeta = { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority }
  return { programAddress, accounts: [{ address: mint, role: AccountRole.WRITABLE }, signer], data }
}
