import {
  addEncoderSizePrefix,
  createCodec,
  fixEncoderSize,
  getAddressDecoder,
  getAddressEncoder,
  getArrayEncoder,
  getBooleanEncoder,
  getBytesEncoder,
  getConstantEncoder,
  getDiscriminatedUnionEncoder,
  getHiddenPrefixEncoder,
  getLiteralUnionEncoder,
  getNullableEncoder,
  getStructEncoder,
  getU16Encoder,
  getU32Encoder,
  getU64Encoder,
  getU8Encoder,
  getUtf8Encoder,
  transformEncoder,
  type Address,
  type Encoder,
  type ProgramDerivedAddress,
  type ReadonlyUint8Array,
  type VariableSizeCodec,
  type VariableSizeEncoder,
} from '@solana/kit'
import { addressSeed, derivePda } from './pda.ts'
import { decodeOrUndefined, once } from './anchor.ts'
import { TOKEN_METADATA_PROGRAM_ADDRESS } from './programs.ts'

/**
 * Metaplex Token Metadata `Metadata` account: the name, symbol, URI, creators and mutability of a
 * mint (`["metadata", program, mint]`). Borsh, not Anchor: the first byte is the `Key` enum.
 *
 * Source: metaplex-foundation/mpl-token-metadata `programs/token-metadata/program/src/state/metadata.rs`
 * (struct, `MAX_*` lengths), `utils/metadata.rs` (`meta_deser_unchecked`, how the program itself reads
 * accounts, and `process_create_metadata_accounts_logic`, how it writes them), `utils/mod.rs`
 * (`puffed_out_string`) and `utils/fee.rs` (the fee flag), snapshot of 2026-01-15.
 *
 * What the program does and this module mirrors:
 * - it allocates {@link METADATA_ACCOUNT_SIZE} bytes and writes the Borsh value at the start, zeros after;
 * - name, symbol and URI are padded with NUL characters to 32, 10 and 200 bytes ("puffed out") and
 *   stored with their padded length; decoding strips the trailing NULs again;
 * - the last byte is a fee flag, set when the account is created and cleared when Metaplex collects;
 * - when reading, a corrupt `token_standard`, `collection` or `uses` (old accounts carry garbage
 *   there) turns all three into `null`, and a corrupt `collection_details` or `programmable_config`
 *   turns that field into `null`, instead of failing the whole account.
 */
export type Metadata = {
  updateAuthority: Address
  mint: Address
  data: MetadataData
  /** Once true, every sale counts as secondary. */
  primarySaleHappened: boolean
  /** Whether the update authority may still change the data. */
  isMutable: boolean
  /** Bump of the master edition PDA, set at creation. */
  editionNonce: number | null
  tokenStandard: TokenStandard | null
  collection: Collection | null
  uses: Uses | null
  collectionDetails: CollectionDetails | null
  programmableConfig: ProgrammableConfig | null
}

/** The `Data` struct. Strings are given and returned without their NUL padding. */
export type MetadataData = {
  name: string
  symbol: string
  uri: string
  /** Royalty in basis points (0–10000). */
  sellerFeeBasisPoints: number
  creators: Creator[] | null
}

/** One listed creator; `share` is a percentage (the shares of a list sum to 100). */
export type Creator = { address: Address; verified: boolean; share: number }

/** `TokenStandard` variants in declaration order (the Borsh index). */
export const TOKEN_STANDARDS = [
  'NonFungible',
  'FungibleAsset',
  'Fungible',
  'NonFungibleEdition',
  'ProgrammableNonFungible',
  'ProgrammableNonFungibleEdition',
] as const
/** What kind of asset the mint is; fungible tokens are `Fungible` (decimals > 0) or `FungibleAsset`. */
export type TokenStandard = (typeof TOKEN_STANDARDS)[number]

/** `Collection`: the collection NFT this asset belongs to, and whether that membership is verified. */
export type Collection = { verified: boolean; key: Address }

/** `UseMethod` variants in declaration order. */
export const USE_METHODS = ['Burn', 'Multiple', 'Single'] as const
/** `Uses`: how many times the asset can be used, and how. */
export type Uses = { useMethod: (typeof USE_METHODS)[number]; remaining: bigint; total: bigint }

/** `CollectionDetails`: present on collection parent NFTs. */
export type CollectionDetails = { __kind: 'V1'; size: bigint } | { __kind: 'V2'; padding: ReadonlyUint8Array }

/** `ProgrammableConfig`: the authorization rule set of a programmable NFT. */
export type ProgrammableConfig = { __kind: 'V1'; ruleSet: Address | null }

/** `Key::MetadataV1`, the first byte of every metadata account (fifth variant of the `Key` enum). */
export const METADATA_KEY = 4
/** `MAX_NAME_LENGTH`: bytes the name is padded to. */
export const MAX_NAME_LENGTH = 32
/** `MAX_SYMBOL_LENGTH`: bytes the symbol is padded to. */
export const MAX_SYMBOL_LENGTH = 10
/** `MAX_URI_LENGTH`: bytes the URI is padded to. */
export const MAX_URI_LENGTH = 200
/** `MAX_CREATOR_LIMIT`: most creators a metadata account may list. */
export const MAX_CREATOR_LIMIT = 5
/** `MAX_METADATA_LEN`: the size the program allocates for every metadata account, fee flag included. */
export const METADATA_ACCOUNT_SIZE = 607
/** `METADATA_FEE_FLAG_OFFSET`: the fee flag is this many bytes from the end of the account. */
export const METADATA_FEE_FLAG_OFFSET = 1

const COLLECTION_DETAILS_V2_PADDING = 8 // CollectionDetails::V2 { padding: [u8; 8] }
const COLLECTION_DETAILS_VARIANTS = 2 // V1 { size }, V2 { padding }
const PROGRAMMABLE_CONFIG_VARIANTS = 1 // V1 { rule_set }

/** Encodes and decodes a metadata account's Borsh value (without the zero tail and fee flag). */
export function getMetadataCodec(): VariableSizeCodec<Metadata> {
  const encoder = getMetadataEncoder()
  return createCodec<Metadata>({
    getSizeFromValue: (value) => encoder.getSizeFromValue(value),
    write: (value, bytes, offset) => encoder.write(value, bytes, offset),
    read: readMetadata,
  })
}

/** The codec, built once (decoding runs on every scan). */
const metadataCodec = once(getMetadataCodec)
const addressDecoder = once(getAddressDecoder)

/**
 * The whole account as the program leaves it: the Borsh value, zeros up to
 * {@link METADATA_ACCOUNT_SIZE}, and the fee flag as the last byte (set by default, as on creation).
 * Throws when a string is longer than its maximum or there are more than five creators: the program
 * refuses such data, so no mainnet account holds it.
 */
export function encodeMetadataAccount(metadata: Metadata, options: { feeFlag?: boolean } = {}): Uint8Array {
  const creators = metadata.data.creators?.length ?? 0
  if (creators > MAX_CREATOR_LIMIT) throw new RangeError(`at most ${MAX_CREATOR_LIMIT} creators (got ${creators})`)
  const value = getMetadataCodec().encode(metadata)
  const account = new Uint8Array(METADATA_ACCOUNT_SIZE)
  account.set(value)
  account[METADATA_ACCOUNT_SIZE - METADATA_FEE_FLAG_OFFSET] = options.feeFlag === false ? 0 : 1
  return account
}

/**
 * Decodes metadata account data the way the program reads it (`meta_deser_unchecked`): trailing
 * bytes are ignored and the optional tail is forgiving. `undefined` when the first byte is not
 * {@link METADATA_KEY} or the fixed part (keys, data, flags, edition nonce) is truncated or invalid.
 */
export function decodeMetadata(data: ReadonlyUint8Array): Metadata | undefined {
  if (data[0] !== METADATA_KEY) return undefined
  return decodeOrUndefined(metadataCodec(), data)
}

/** A mint's metadata account: seeds `["metadata", program, mint]` under Token Metadata. */
export async function findMetadataAddress(mint: Address): Promise<ProgramDerivedAddress> {
  return derivePda(TOKEN_METADATA_PROGRAM_ADDRESS, [
    'metadata',
    addressSeed(TOKEN_METADATA_PROGRAM_ADDRESS),
    addressSeed(mint),
  ])
}

/**
 * A mint's (master) edition account: seeds `["metadata", program, mint, "edition"]`. Its bump is what
 * the program stores as `editionNonce` when it creates the metadata.
 */
export async function findMasterEditionAddress(mint: Address): Promise<ProgramDerivedAddress> {
  return derivePda(TOKEN_METADATA_PROGRAM_ADDRESS, [
    'metadata',
    addressSeed(TOKEN_METADATA_PROGRAM_ADDRESS),
    addressSeed(mint),
    'edition',
  ])
}

/** A Borsh `String` padded with NULs to `max` bytes, as `puffed_out_string` stores it. */
function getPuffedStringEncoder(field: string, max: number): Encoder<string> {
  const utf8 = new TextEncoder()
  return transformEncoder(addEncoderSizePrefix(getUtf8Encoder(), getU32Encoder()), (value: string) => {
    const length = utf8.encode(value).length
    if (length > max) throw new RangeError(`${field} is ${length} bytes; the program allows at most ${max}`)
    return value + '\0'.repeat(max - length)
  })
}

function getMetadataEncoder(): VariableSizeEncoder<Metadata> {
  const key = getAddressEncoder()
  return getHiddenPrefixEncoder(
    getStructEncoder([
      ['updateAuthority', key],
      ['mint', key],
      [
        'data',
        getStructEncoder([
          ['name', getPuffedStringEncoder('name', MAX_NAME_LENGTH)],
          ['symbol', getPuffedStringEncoder('symbol', MAX_SYMBOL_LENGTH)],
          ['uri', getPuffedStringEncoder('uri', MAX_URI_LENGTH)],
          ['sellerFeeBasisPoints', getU16Encoder()],
          [
            'creators',
            getNullableEncoder(
              getArrayEncoder(
                getStructEncoder([
                  ['address', key],
                  ['verified', getBooleanEncoder()],
                  ['share', getU8Encoder()],
                ]),
              ),
            ),
          ],
        ]),
      ],
      ['primarySaleHappened', getBooleanEncoder()],
      ['isMutable', getBooleanEncoder()],
      ['editionNonce', getNullableEncoder(getU8Encoder())],
      ['tokenStandard', getNullableEncoder(getLiteralUnionEncoder(TOKEN_STANDARDS))],
      [
        'collection',
        getNullableEncoder(
          getStructEncoder([
            ['verified', getBooleanEncoder()],
            ['key', key],
          ]),
        ),
      ],
      [
        'uses',
        getNullableEncoder(
          getStructEncoder([
            ['useMethod', getLiteralUnionEncoder(USE_METHODS)],
            ['remaining', getU64Encoder()],
            ['total', getU64Encoder()],
          ]),
        ),
      ],
      [
        'collectionDetails',
        getNullableEncoder(
          getDiscriminatedUnionEncoder([
            ['V1', getStructEncoder([['size', getU64Encoder()]])],
            ['V2', getStructEncoder([['padding', fixEncoderSize(getBytesEncoder(), COLLECTION_DETAILS_V2_PADDING)]])],
          ]),
        ),
      ],
      [
        'programmableConfig',
        getNullableEncoder(
          getDiscriminatedUnionEncoder([['V1', getStructEncoder([['ruleSet', getNullableEncoder(key)]])]]),
        ),
      ],
    ]),
    [getConstantEncoder(new Uint8Array([METADATA_KEY]))],
  )
}

/**
 * Reads Borsh the way borsh-rs reads a byte slice: each primitive consumes its bytes and then
 * validates them, so a failed read leaves the cursor after the bad byte, which decides where the
 * program's forgiving tail reads resume.
 */
class BorshReader {
  private readonly bytes: Uint8Array
  private readonly view: DataView
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true })

  constructor(
    bytes: ReadonlyUint8Array,
    public offset: number,
  ) {
    this.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  private take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new RangeError('unexpected end of account data')
    const out = this.bytes.subarray(this.offset, this.offset + length)
    this.offset += length
    return out
  }

  u8(): number {
    return this.take(1)[0]!
  }

  u16(): number {
    this.take(2)
    return this.view.getUint16(this.offset - 2, true)
  }

  u32(): number {
    this.take(4)
    return this.view.getUint32(this.offset - 4, true)
  }

  u64(): bigint {
    this.take(8)
    return this.view.getBigUint64(this.offset - 8, true)
  }

  bool(): boolean {
    const value = this.u8()
    if (value > 1) throw new RangeError(`invalid bool ${value}`)
    return value === 1
  }

  address(): Address {
    return addressDecoder().decode(this.take(32))
  }

  /** A Borsh `String`, with the NUL padding the program adds stripped from its end. */
  paddedString(): string {
    const length = this.u32()
    return this.utf8.decode(this.take(length)).replace(/\0+$/, '')
  }

  bytesOf(length: number): ReadonlyUint8Array {
    return this.take(length).slice()
  }

  /** Index of an enum variant among `count`. */
  variant(count: number): number {
    const index = this.u8()
    if (index >= count) throw new RangeError(`invalid enum variant ${index}`)
    return index
  }

  option<T>(read: () => T): T | null {
    const tag = this.u8()
    if (tag === 0) return null
    if (tag === 1) return read()
    throw new RangeError(`invalid option tag ${tag}`)
  }

  vec<T>(read: () => T): T[] {
    const length = this.u32()
    const out: T[] = []
    for (let i = 0; i < length; i++) out.push(read())
    return out
  }
}

/** `{ ok, value }` of one forgiving read; the cursor stays wherever the read stopped. */
function attempt<T>(read: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: read() }
  } catch {
    return { ok: false }
  }
}

function readMetadata(bytes: ReadonlyUint8Array, offset: number): [Metadata, number] {
  const r = new BorshReader(bytes, offset)
  const key = r.u8()
  if (key !== METADATA_KEY) throw new RangeError(`not a metadata account (key ${key})`)
  const updateAuthority = r.address()
  const mint = r.address()
  const data: MetadataData = {
    name: r.paddedString(),
    symbol: r.paddedString(),
    uri: r.paddedString(),
    sellerFeeBasisPoints: r.u16(),
    creators: r.option(() => r.vec(() => ({ address: r.address(), verified: r.bool(), share: r.u8() }))),
  }
  const primarySaleHappened = r.bool()
  const isMutable = r.bool()
  const editionNonce = r.option(() => r.u8())

  const tokenStandard = attempt(() => r.option(() => TOKEN_STANDARDS[r.variant(TOKEN_STANDARDS.length)]!))
  const collection = attempt(() => r.option(() => ({ verified: r.bool(), key: r.address() })))
  const uses = attempt(() =>
    r.option(() => ({ useMethod: USE_METHODS[r.variant(USE_METHODS.length)]!, remaining: r.u64(), total: r.u64() })),
  )
  const collectionDetails = attempt(() =>
    r.option(
      (): CollectionDetails =>
        r.variant(COLLECTION_DETAILS_VARIANTS) === 0
          ? { __kind: 'V1', size: r.u64() }
          : { __kind: 'V2', padding: r.bytesOf(COLLECTION_DETAILS_V2_PADDING) },
    ),
  )
  const programmableConfig = attempt(() =>
    r.option((): ProgrammableConfig => {
      r.variant(PROGRAMMABLE_CONFIG_VARIANTS)
      return { __kind: 'V1', ruleSet: r.option(() => r.address()) }
    }),
  )
  // The program trusts the three V1.2 fields only together: corrupt data can parse "validly" in one.
  const v12 = tokenStandard.ok && collection.ok && uses.ok
  const metadata: Metadata = {
    updateAuthority,
    mint,
    data,
    primarySaleHappened,
    isMutable,
    editionNonce,
    tokenStandard: v12 ? tokenStandard.value : null,
    collection: v12 ? collection.value : null,
    uses: v12 ? uses.value : null,
    collectionDetails: collectionDetails.ok ? collectionDetails.value : null,
    programmableConfig: programmableConfig.ok ? programmableConfig.value : null,
  }
  return [metadata, r.offset]
}
