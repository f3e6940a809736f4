import { ByteView } from './bytes.ts'
import { EXTENSION_BY_TYPE, type ExtensionOwner } from './extension-types.ts'
import { formatF64Display } from './rust-float.ts'
import type { InterestBearingRates, ScaledUiAmountMultipliers } from './ui-amount.ts'

/**
 * Token-2022 TLV extensions decoded into the RPC's `jsonParsed` form, following agave
 * `account-decoder/src/parse_token_extension.rs` (`parse_extension`), the UiExtension structs in
 * `account-decoder-client-types/src/token.rs`, and the newest agave decoder tests (which add
 * `permissionedBurnConfig` and print a zeroed confidential-fee ElGamal key rather than null).
 * 64-bit integers the RPC prints as JSON numbers are bigints here so that values past 2^53 (a
 * u64::MAX maximum fee is common) survive to the wire; see `rpc-json.ts`.
 */

/** Account state as the RPC names it. */
export type UiAccountState = 'uninitialized' | 'initialized' | 'frozen'

/** One fee schedule of a TransferFeeConfig. */
export type UiTransferFee = { epoch: bigint; maximumFee: bigint; transferFeeBasisPoints: number }

/** The `{ extension, state }` objects of a Token-2022 mint's or account's `extensions` list. */
export type UiExtension =
  | {
      extension: 'transferFeeConfig'
      state: {
        transferFeeConfigAuthority: string | null
        withdrawWithheldAuthority: string | null
        withheldAmount: bigint
        olderTransferFee: UiTransferFee
        newerTransferFee: UiTransferFee
      }
    }
  | { extension: 'transferFeeAmount'; state: { withheldAmount: bigint } }
  | { extension: 'mintCloseAuthority'; state: { closeAuthority: string | null } }
  | {
      extension: 'confidentialTransferMint'
      state: { authority: string | null; autoApproveNewAccounts: boolean; auditorElgamalPubkey: string | null }
    }
  | {
      extension: 'confidentialTransferAccount'
      state: {
        approved: boolean
        elgamalPubkey: string
        pendingBalanceLo: string
        pendingBalanceHi: string
        availableBalance: string
        decryptableAvailableBalance: string
        allowConfidentialCredits: boolean
        allowNonConfidentialCredits: boolean
        pendingBalanceCreditCounter: bigint
        maximumPendingBalanceCreditCounter: bigint
        expectedPendingBalanceCreditCounter: bigint
        actualPendingBalanceCreditCounter: bigint
      }
    }
  | { extension: 'defaultAccountState'; state: { accountState: UiAccountState } }
  | { extension: 'immutableOwner' }
  | { extension: 'memoTransfer'; state: { requireIncomingTransferMemos: boolean } }
  | { extension: 'nonTransferable' }
  | {
      extension: 'interestBearingConfig'
      state: {
        rateAuthority: string | null
        initializationTimestamp: bigint
        preUpdateAverageRate: number
        lastUpdateTimestamp: bigint
        currentRate: number
      }
    }
  | { extension: 'cpiGuard'; state: { lockCpi: boolean } }
  | { extension: 'permanentDelegate'; state: { delegate: string | null } }
  | { extension: 'nonTransferableAccount' }
  | {
      extension: 'confidentialTransferFeeConfig'
      state: {
        authority: string | null
        withdrawWithheldAuthorityElgamalPubkey: string
        harvestToMintEnabled: boolean
        withheldAmount: string
      }
    }
  | { extension: 'confidentialTransferFeeAmount'; state: { withheldAmount: string } }
  | { extension: 'transferHook'; state: { authority: string | null; programId: string | null } }
  | { extension: 'transferHookAccount'; state: { transferring: boolean } }
  | { extension: 'metadataPointer'; state: { authority: string | null; metadataAddress: string | null } }
  | {
      extension: 'tokenMetadata'
      state: {
        updateAuthority: string | null
        mint: string
        name: string
        symbol: string
        uri: string
        additionalMetadata: [string, string][]
      }
    }
  | { extension: 'groupPointer'; state: { authority: string | null; groupAddress: string | null } }
  | { extension: 'groupMemberPointer'; state: { authority: string | null; memberAddress: string | null } }
  | { extension: 'tokenGroup'; state: { updateAuthority: string | null; mint: string; size: bigint; maxSize: bigint } }
  | { extension: 'tokenGroupMember'; state: { mint: string; group: string; memberNumber: bigint } }
  | {
      extension: 'confidentialMintBurn'
      state: { confidentialSupply: string; decryptableSupply: string; supplyElgamalPubkey: string; pendingBurn: string }
    }
  | { extension: 'unparseableExtension' }
  | {
      extension: 'scaledUiAmountConfig'
      state: {
        authority: string | null
        multiplier: string
        newMultiplierEffectiveTimestamp: bigint
        newMultiplier: string
      }
    }
  | { extension: 'pausableConfig'; state: { authority: string | null; paused: boolean } }
  | { extension: 'pausableAccount' }
  | { extension: 'permissionedBurnConfig'; state: { authority: string | null } }

/** Extensions agave prints without looking at their value (`UiExtension` unit variants). */
const UNIT_EXTENSIONS = new Set(['immutableOwner', 'nonTransferable', 'nonTransferableAccount', 'pausableAccount'])

/**
 * The extension type numbers in a TLV buffer, in order, as token-2022's
 * `try_for_each_tlv_extension_type` walks it: it stops at a type-0 entry or when fewer than two
 * bytes remain, and fails on a type it does not know, a truncated length or a value running past the
 * end. undefined means failure, which agave turns into an empty list (`unwrap_or_default`).
 */
export function extensionTypes(tlv: Uint8Array): number[] | undefined {
  const view = new ByteView(tlv)
  const types: number[] = []
  let start = 0
  while (start < tlv.length) {
    if (tlv.length < start + 2) break
    const type = view.u16(start)
    if (type === 0) break
    if (!EXTENSION_BY_TYPE.has(type)) return undefined
    if (tlv.length < start + 4) return undefined
    const end = start + 4 + view.u16(start + 2)
    if (end > tlv.length) return undefined
    types.push(type)
    start = end
  }
  return types
}

/**
 * The value bytes of the first TLV entry of `type`, as token-2022's `get_extension_bytes` finds them;
 * undefined when the extension belongs to the other base state or is absent.
 */
export function extensionValue(tlv: Uint8Array, type: number, base: ExtensionOwner): Uint8Array | undefined {
  if (EXTENSION_BY_TYPE.get(type)?.owner !== base) return undefined
  const view = new ByteView(tlv)
  let start = 0
  while (start < tlv.length) {
    if (tlv.length < start + 4) return undefined
    const entryType = view.u16(start)
    if (entryType === 0) return undefined
    const end = start + 4 + view.u16(start + 2)
    if (entryType === type) return end > tlv.length ? undefined : tlv.subarray(start + 4, end)
    start = end
  }
  return undefined
}

/** The `extensions` list of a mint or account whose TLV area is `tlv` (bytes after the account type). */
export function parseExtensions(tlv: Uint8Array, base: ExtensionOwner): UiExtension[] {
  const types = extensionTypes(tlv)
  if (types === undefined) return []
  return types.map((type) => parseExtension(tlv, type, base))
}

function parseExtension(tlv: Uint8Array, type: number, base: ExtensionOwner): UiExtension {
  const spec = EXTENSION_BY_TYPE.get(type)
  if (spec === undefined) return { extension: 'unparseableExtension' }
  // agave prints these without reading the value, so neither owner nor size is checked
  if (UNIT_EXTENSIONS.has(spec.name)) return { extension: spec.name } as UiExtension
  const value = extensionValue(tlv, type, base)
  // bytemuck::try_from_bytes needs the exact struct size; TokenMetadata is borsh and checks itself
  if (value === undefined || (spec.size !== undefined && value.length !== spec.size)) {
    return { extension: 'unparseableExtension' }
  }
  try {
    return decodeValue(spec.name, new ByteView(value)) ?? { extension: 'unparseableExtension' }
  } catch {
    return { extension: 'unparseableExtension' }
  }
}

function decodeValue(name: string, v: ByteView): UiExtension | undefined {
  switch (name) {
    case 'transferFeeConfig':
      return {
        extension: name,
        state: {
          transferFeeConfigAuthority: v.optionalPubkey(0),
          withdrawWithheldAuthority: v.optionalPubkey(32),
          withheldAmount: v.u64(64),
          olderTransferFee: transferFee(v, 72),
          newerTransferFee: transferFee(v, 90),
        },
      }
    case 'transferFeeAmount':
      return { extension: name, state: { withheldAmount: v.u64(0) } }
    case 'mintCloseAuthority':
      return { extension: name, state: { closeAuthority: v.optionalPubkey(0) } }
    case 'confidentialTransferMint':
      return {
        extension: name,
        state: {
          authority: v.optionalPubkey(0),
          autoApproveNewAccounts: v.podBool(32),
          auditorElgamalPubkey: optionalBase64(v, 33, 32),
        },
      }
    case 'confidentialTransferAccount':
      return {
        extension: name,
        state: {
          approved: v.podBool(0),
          elgamalPubkey: v.base64(1, 32),
          pendingBalanceLo: v.base64(33, 64),
          pendingBalanceHi: v.base64(97, 64),
          availableBalance: v.base64(161, 64),
          decryptableAvailableBalance: v.base64(225, 36),
          allowConfidentialCredits: v.podBool(261),
          allowNonConfidentialCredits: v.podBool(262),
          pendingBalanceCreditCounter: v.u64(263),
          maximumPendingBalanceCreditCounter: v.u64(271),
          expectedPendingBalanceCreditCounter: v.u64(279),
          actualPendingBalanceCreditCounter: v.u64(287),
        },
      }
    case 'defaultAccountState':
      // an out-of-range state byte becomes AccountState::default() (`unwrap_or_default`)
      return { extension: name, state: { accountState: accountState(v.u8(0)) ?? 'uninitialized' } }
    case 'memoTransfer':
      return { extension: name, state: { requireIncomingTransferMemos: v.podBool(0) } }
    case 'interestBearingConfig':
      return { extension: name, state: { rateAuthority: v.optionalPubkey(0), ...interestBearingRates(v.bytes) } }
    case 'cpiGuard':
      return { extension: name, state: { lockCpi: v.podBool(0) } }
    case 'permanentDelegate':
      return { extension: name, state: { delegate: v.optionalPubkey(0) } }
    case 'confidentialTransferFeeConfig':
      return {
        extension: name,
        state: {
          authority: v.optionalPubkey(0),
          // a plain PodElGamalPubkey: agave prints it even when zeroed (its decoder tests say so)
          withdrawWithheldAuthorityElgamalPubkey: v.base64(32, 32),
          harvestToMintEnabled: v.podBool(64),
          withheldAmount: v.base64(65, 64),
        },
      }
    case 'confidentialTransferFeeAmount':
      return { extension: name, state: { withheldAmount: v.base64(0, 64) } }
    case 'transferHook':
      return { extension: name, state: { authority: v.optionalPubkey(0), programId: v.optionalPubkey(32) } }
    case 'transferHookAccount':
      return { extension: name, state: { transferring: v.podBool(0) } }
    case 'metadataPointer':
      return { extension: name, state: { authority: v.optionalPubkey(0), metadataAddress: v.optionalPubkey(32) } }
    case 'tokenMetadata':
      return decodeTokenMetadata(v)
    case 'groupPointer':
      return { extension: name, state: { authority: v.optionalPubkey(0), groupAddress: v.optionalPubkey(32) } }
    case 'groupMemberPointer':
      return { extension: name, state: { authority: v.optionalPubkey(0), memberAddress: v.optionalPubkey(32) } }
    case 'tokenGroup':
      return {
        extension: name,
        state: { updateAuthority: v.optionalPubkey(0), mint: v.pubkey(32), size: v.u64(64), maxSize: v.u64(72) },
      }
    case 'tokenGroupMember':
      return { extension: name, state: { mint: v.pubkey(0), group: v.pubkey(32), memberNumber: v.u64(64) } }
    case 'confidentialMintBurn':
      return {
        extension: name,
        state: {
          confidentialSupply: v.base64(0, 64),
          decryptableSupply: v.base64(64, 36),
          supplyElgamalPubkey: v.base64(100, 32),
          pendingBurn: v.base64(132, 64),
        },
      }
    case 'scaledUiAmountConfig': {
      const scaled = scaledUiAmountMultipliers(v.bytes)
      return {
        extension: name,
        state: {
          authority: v.optionalPubkey(0),
          // agave prints the f64 multipliers with Rust's Display (`f64::to_string`)
          multiplier: formatF64Display(scaled.multiplier),
          newMultiplierEffectiveTimestamp: scaled.newMultiplierEffectiveTimestamp,
          newMultiplier: formatF64Display(scaled.newMultiplier),
        },
      }
    }
    case 'pausableConfig':
      return { extension: name, state: { authority: v.optionalPubkey(0), paused: v.podBool(32) } }
    case 'permissionedBurnConfig':
      return { extension: name, state: { authority: v.optionalPubkey(0) } }
    default:
      return undefined
  }
}

function transferFee(v: ByteView, offset: number): UiTransferFee {
  return { epoch: v.u64(offset), maximumFee: v.u64(offset + 8), transferFeeBasisPoints: v.u16(offset + 16) }
}

/** An optional zk-sdk ElGamal pubkey: all zero bytes mean None. */
function optionalBase64(v: ByteView, offset: number, length: number): string | null {
  return v.slice(offset, length).every((b) => b === 0) ? null : v.base64(offset, length)
}

/** AccountState from its byte; undefined outside 0..2. */
export function accountState(byte: number): UiAccountState | undefined {
  return (['uninitialized', 'initialized', 'frozen'] as const)[byte]
}

/** The rate fields of an InterestBearingConfig value (52 bytes). */
export function interestBearingRates(value: Uint8Array): InterestBearingRates {
  const v = new ByteView(value)
  return {
    initializationTimestamp: v.i64(32),
    preUpdateAverageRate: v.i16(40),
    lastUpdateTimestamp: v.i64(42),
    currentRate: v.i16(50),
  }
}

/** The multiplier fields of a ScaledUiAmountConfig value (56 bytes). */
export function scaledUiAmountMultipliers(value: Uint8Array): ScaledUiAmountMultipliers {
  const v = new ByteView(value)
  return { multiplier: v.f64(32), newMultiplierEffectiveTimestamp: v.i64(40), newMultiplier: v.f64(48) }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * TokenMetadata is borsh (spl-token-metadata-interface `state.rs`), read with
 * `try_from_slice_unchecked`: trailing bytes are allowed, invalid UTF-8 or a short buffer fail.
 */
function decodeTokenMetadata(v: ByteView): UiExtension {
  let offset = 64
  const string = (): string => {
    const length = v.u32(offset)
    const text = utf8.decode(v.slice(offset + 4, length))
    offset += 4 + length
    return text
  }
  const updateAuthority = v.optionalPubkey(0)
  const mint = v.pubkey(32)
  const name = string()
  const symbol = string()
  const uri = string()
  const count = v.u32(offset)
  offset += 4
  const additionalMetadata: [string, string][] = []
  for (let i = 0; i < count; i++) additionalMetadata.push([string(), string()])
  return { extension: 'tokenMetadata', state: { updateAuthority, mint, name, symbol, uri, additionalMetadata } }
}
