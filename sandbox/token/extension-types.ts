/**
 * The Token-2022 extension catalogue: TLV type number, the name the RPC's `jsonParsed` encoding
 * gives it, the base state it belongs to and its fixed value size. One table for the parser and the
 * account-size calculator.
 *
 * Source: `ExtensionType` in solana-program/token-2022 `interface/src/extension/mod.rs` (numbering
 * is the enum order) and agave `account-decoder-client-types/src/token.rs` (`UiExtension`, serialized
 * camelCase). A type missing here makes the decoder drop the whole extension list, as agave does for
 * a type its token-2022 crate does not know (see `extensions.ts`).
 */

/** Which base state an extension belongs to (`AccountType` in token-2022). */
export type ExtensionOwner = 'mint' | 'account'

/** One row of the catalogue. */
export type ExtensionSpec = {
  /** TLV type number (u16). */
  type: number
  /** `extension` value in the RPC's `jsonParsed` output. */
  name: string
  owner: ExtensionOwner
  /** Value length in bytes; undefined for the variable-length TokenMetadata. */
  size: number | undefined
}

/** Sizes of the building blocks, so the table below reads as the Rust structs do. */
const PUBKEY = 32
const U64 = 8
const ELGAMAL_PUBKEY = 32
const ELGAMAL_CIPHERTEXT = 64
const AE_CIPHERTEXT = 36
const TRANSFER_FEE = U64 + U64 + 2 // epoch, maximum_fee, transfer_fee_basis_points

/** Every extension type the decoder knows, by type number. */
export const EXTENSIONS: readonly ExtensionSpec[] = [
  { type: 1, name: 'transferFeeConfig', owner: 'mint', size: PUBKEY * 2 + U64 + TRANSFER_FEE * 2 },
  { type: 2, name: 'transferFeeAmount', owner: 'account', size: U64 },
  { type: 3, name: 'mintCloseAuthority', owner: 'mint', size: PUBKEY },
  { type: 4, name: 'confidentialTransferMint', owner: 'mint', size: PUBKEY + 1 + ELGAMAL_PUBKEY },
  {
    type: 5,
    name: 'confidentialTransferAccount',
    owner: 'account',
    size: 1 + ELGAMAL_PUBKEY + ELGAMAL_CIPHERTEXT * 3 + AE_CIPHERTEXT + 1 + 1 + U64 * 4,
  },
  { type: 6, name: 'defaultAccountState', owner: 'mint', size: 1 },
  { type: 7, name: 'immutableOwner', owner: 'account', size: 0 },
  { type: 8, name: 'memoTransfer', owner: 'account', size: 1 },
  { type: 9, name: 'nonTransferable', owner: 'mint', size: 0 },
  // rate authority, initialization timestamp (i64), average rate (i16), last update (i64), rate (i16)
  { type: 10, name: 'interestBearingConfig', owner: 'mint', size: PUBKEY + 8 + 2 + 8 + 2 },
  { type: 11, name: 'cpiGuard', owner: 'account', size: 1 },
  { type: 12, name: 'permanentDelegate', owner: 'mint', size: PUBKEY },
  { type: 13, name: 'nonTransferableAccount', owner: 'account', size: 0 },
  { type: 14, name: 'transferHook', owner: 'mint', size: PUBKEY * 2 },
  { type: 15, name: 'transferHookAccount', owner: 'account', size: 1 },
  {
    type: 16,
    name: 'confidentialTransferFeeConfig',
    owner: 'mint',
    size: PUBKEY + ELGAMAL_PUBKEY + 1 + ELGAMAL_CIPHERTEXT,
  },
  { type: 17, name: 'confidentialTransferFeeAmount', owner: 'account', size: ELGAMAL_CIPHERTEXT },
  { type: 18, name: 'metadataPointer', owner: 'mint', size: PUBKEY * 2 },
  { type: 19, name: 'tokenMetadata', owner: 'mint', size: undefined },
  { type: 20, name: 'groupPointer', owner: 'mint', size: PUBKEY * 2 },
  { type: 21, name: 'tokenGroup', owner: 'mint', size: PUBKEY * 2 + U64 * 2 },
  { type: 22, name: 'groupMemberPointer', owner: 'mint', size: PUBKEY * 2 },
  { type: 23, name: 'tokenGroupMember', owner: 'mint', size: PUBKEY * 2 + U64 },
  {
    type: 24,
    name: 'confidentialMintBurn',
    owner: 'mint',
    size: ELGAMAL_CIPHERTEXT + AE_CIPHERTEXT + ELGAMAL_PUBKEY + ELGAMAL_CIPHERTEXT,
  },
  // authority, multiplier (f64), new multiplier effective timestamp (i64), new multiplier (f64)
  { type: 25, name: 'scaledUiAmountConfig', owner: 'mint', size: PUBKEY + 8 + 8 + 8 },
  // authority (OptionalNonZeroPubkey: all zeros = none), paused (PodBool): `PausableConfig` in
  // solana-program/token-2022 `interface/src/extension/pausable/mod.rs`
  { type: 26, name: 'pausableConfig', owner: 'mint', size: PUBKEY + 1 },
  { type: 27, name: 'pausableAccount', owner: 'account', size: 0 },
  // newest (token-2022, 2026); agave decodes it as `UiExtension::PermissionedBurnConfig`
  { type: 28, name: 'permissionedBurnConfig', owner: 'mint', size: PUBKEY },
]

/** The catalogue keyed by TLV type number. */
export const EXTENSION_BY_TYPE: ReadonlyMap<number, ExtensionSpec> = new Map(EXTENSIONS.map((e) => [e.type, e]))

/** Extension names a mint can carry (the ones the sizing helpers accept). */
export type MintExtensionName =
  | 'transferFeeConfig'
  | 'mintCloseAuthority'
  | 'confidentialTransferMint'
  | 'defaultAccountState'
  | 'nonTransferable'
  | 'interestBearingConfig'
  | 'permanentDelegate'
  | 'transferHook'
  | 'confidentialTransferFeeConfig'
  | 'metadataPointer'
  | 'groupPointer'
  | 'tokenGroup'
  | 'groupMemberPointer'
  | 'tokenGroupMember'
  | 'confidentialMintBurn'
  | 'scaledUiAmountConfig'
  | 'pausableConfig'
  | 'permissionedBurnConfig'

/** Extension names a token account can carry. */
export type AccountExtensionName =
  | 'transferFeeAmount'
  | 'confidentialTransferAccount'
  | 'immutableOwner'
  | 'memoTransfer'
  | 'cpiGuard'
  | 'nonTransferableAccount'
  | 'transferHookAccount'
  | 'confidentialTransferFeeAmount'
  | 'pausableAccount'

/** Looks an extension up by its RPC name; throws on a name not in the catalogue (a caller bug). */
export function extensionSpec(name: MintExtensionName | AccountExtensionName): ExtensionSpec {
  const spec = EXTENSIONS.find((e) => e.name === name)
  if (!spec) throw new Error(`unknown Token-2022 extension: ${name}`)
  return spec
}
