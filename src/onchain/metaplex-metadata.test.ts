import { describe, expect, test } from 'bun:test'
import {
  address,
  getAddressDecoder,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Address,
  type ReadonlyUint8Array,
} from '@solana/kit'
import {
  MAX_NAME_LENGTH,
  MAX_SYMBOL_LENGTH,
  MAX_URI_LENGTH,
  METADATA_ACCOUNT_SIZE,
  METADATA_KEY,
  decodeMetadata,
  encodeMetadataAccount,
  findMasterEditionAddress,
  findMetadataAddress,
  getMetadataCodec,
  type Metadata,
} from './metaplex-metadata.ts'
import { TOKEN_METADATA_PROGRAM_ADDRESS } from './programs.ts'

/** A made-up address: 32 bytes counting up from `seed`, distinct for every seed used below. */
const key = (seed: number): Address =>
  getAddressDecoder().decode(Uint8Array.from({ length: 32 }, (_, i) => (seed + i) & 0xff))
const keyBytes = (value: Address): ReadonlyUint8Array => getAddressEncoder().encode(value)

const NFT_MINT = key(0x60)
const NFT_AUTHORITY = key(0x30)

/*
 * The NFT's metadata and master edition PDAs, derived here from the seeds metadata.rs documents
 * (`["metadata", program, mint]` and `["metadata", program, mint, "edition"]`), not through the module.
 */
const [METADATA_ADDRESS] = await getProgramDerivedAddress({
  programAddress: TOKEN_METADATA_PROGRAM_ADDRESS,
  seeds: ['metadata', keyBytes(TOKEN_METADATA_PROGRAM_ADDRESS), keyBytes(NFT_MINT)],
})
const [EDITION_ADDRESS, EDITION_BUMP] = await getProgramDerivedAddress({
  programAddress: TOKEN_METADATA_PROGRAM_ADDRESS,
  seeds: ['metadata', keyBytes(TOKEN_METADATA_PROGRAM_ADDRESS), keyBytes(NFT_MINT), 'edition'],
})

/** A pre-V1.2 NFT: one creator, the edition bump as `editionNonce`, none of the later optional fields. */
const legacyNft: Metadata = {
  updateAuthority: NFT_AUTHORITY,
  mint: NFT_MINT,
  data: {
    name: 'Synthetic Dragon #7',
    symbol: 'SYNTH',
    uri: 'https://example.com/nft/7.json',
    sellerFeeBasisPoints: 750,
    creators: [{ address: NFT_AUTHORITY, verified: true, share: 100 }],
  },
  primarySaleHappened: true,
  isMutable: true,
  editionNonce: EDITION_BUMP,
  tokenStandard: null,
  collection: null,
  uses: null,
  collectionDetails: null,
  programmableConfig: null,
}

/**
 * Offset of the first byte after `edition_nonce` with one creator and padded strings: key 1, two keys
 * 64, name 4 + 32, symbol 4 + 10, URI 4 + 200, royalty 2, creators 1 + 4 + 34, two flags 2, nonce 1 + 1.
 */
const END_OF_FIXED_PART = 0x16c

/**
 * That NFT's account as old accounts look: everything after `edition_nonce` (but the fee flag) is
 * garbage, the case the program's forgiving reader exists for. 0xa5 is neither an option tag nor a bool.
 */
const legacyAccount = encodeMetadataAccount(legacyNft)
legacyAccount.fill(0xa5, END_OF_FIXED_PART, METADATA_ACCOUNT_SIZE - 1)

const fungible: Metadata = {
  updateAuthority: address('TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM'),
  mint: address('2SC3yZyeHSjUMcWqQ89j5pmr6cNsC3KftR9X6APkpump'),
  data: {
    name: 'Ünïcode Coin',
    symbol: 'UNI',
    uri: 'https://ipfs.io/ipfs/QmExample',
    sellerFeeBasisPoints: 0,
    creators: null,
  },
  primarySaleHappened: false,
  isMutable: false,
  editionNonce: 254,
  tokenStandard: 'Fungible',
  collection: null,
  uses: null,
  collectionDetails: null,
  programmableConfig: null,
}

const everyOption: Metadata = {
  ...fungible,
  data: {
    ...fungible.data,
    sellerFeeBasisPoints: 500,
    creators: [
      { address: address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'), verified: true, share: 60 },
      { address: address('3WNi4g2ftVvRyYW68xyDxCBVrfXHbHjJUpdwHs7WsXcC'), verified: false, share: 40 },
    ],
  },
  tokenStandard: 'ProgrammableNonFungible',
  collection: { verified: true, key: address('DRGNjvBvnXNiQz9dTppGk1tAsVxtJsvhEmojEfBU3ezf') },
  uses: { useMethod: 'Multiple', remaining: 2n, total: 5n },
  collectionDetails: { __kind: 'V2', padding: new Uint8Array(8) },
  programmableConfig: { __kind: 'V1', ruleSet: address('eBJLFYPxJmMGKuFwpDWkzxZeUrad92kZRC5BJLpzyT9') },
}

describe('Metadata layout', () => {
  test.each([
    ['a fungible token', fungible],
    ['an NFT using every optional field', everyOption],
  ])('round-trips %s', (_name, metadata) => {
    expect(decodeMetadata(getMetadataCodec().encode(metadata))).toEqual(metadata)
  })

  test('pads name, symbol and URI with NULs to 32, 10 and 200 bytes, as the program stores them', () => {
    const bytes = getMetadataCodec().encode(fungible)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(bytes[0]).toBe(METADATA_KEY)
    expect(view.getUint32(65, true)).toBe(MAX_NAME_LENGTH)
    expect(bytes.slice(69 + 14, 69 + 32).every((b) => b === 0)).toBe(true) // "Ünïcode Coin" is 14 UTF-8 bytes
    expect(view.getUint32(101, true)).toBe(MAX_SYMBOL_LENGTH)
    expect(view.getUint32(115, true)).toBe(MAX_URI_LENGTH)
  })

  test('refuses a name longer than the program allows', () => {
    const tooLong = { ...fungible, data: { ...fungible.data, name: 'x'.repeat(MAX_NAME_LENGTH + 1) } }
    expect(() => getMetadataCodec().encode(tooLong)).toThrow(/name is 33 bytes/)
  })

  test('the account is 607 bytes: the value, zeros, and the fee flag as the last byte', () => {
    const value = getMetadataCodec().encode(everyOption)
    const account = encodeMetadataAccount(everyOption)
    expect(account.length).toBe(METADATA_ACCOUNT_SIZE)
    expect(account.slice(0, value.length)).toEqual(new Uint8Array(value))
    expect(account.slice(value.length, METADATA_ACCOUNT_SIZE - 1).every((b) => b === 0)).toBe(true)
    expect(account[METADATA_ACCOUNT_SIZE - 1]).toBe(1)
    expect(encodeMetadataAccount(everyOption, { feeFlag: false })[METADATA_ACCOUNT_SIZE - 1]).toBe(0)
    expect(decodeMetadata(account)).toEqual(everyOption)
  })

  test('refuses more than five creators', () => {
    const creator = { address: address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'), verified: false, share: 0 }
    const six = { ...fungible, data: { ...fungible.data, creators: Array.from({ length: 6 }, () => creator) } }
    expect(() => encodeMetadataAccount(six)).toThrow(/at most 5 creators/)
  })
})

describe('reading metadata accounts', () => {
  test('decodes the fixed part and, like the program, drops the corrupt optional tail', () => {
    expect(decodeMetadata(legacyAccount)).toEqual(legacyNft)
  })

  test('the fixed part holds the bytes the program writes, padding included, and re-encodes to them', () => {
    const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24]
    const puffed = (text: string, max: number) => {
      const out = new Uint8Array(max) // NUL padding
      out.set(new TextEncoder().encode(text))
      return [...u32(max), ...out]
    }
    const expected = [
      METADATA_KEY,
      ...keyBytes(NFT_AUTHORITY),
      ...keyBytes(NFT_MINT),
      ...puffed('Synthetic Dragon #7', 32),
      ...puffed('SYNTH', 10),
      ...puffed('https://example.com/nft/7.json', 200),
      0xee,
      0x02, // seller_fee_basis_points: 750 LE
      1,
      ...u32(1),
      ...keyBytes(NFT_AUTHORITY),
      1,
      100, // creators: Some(vec![{ verified, share 100 }])
      1,
      1, // primary_sale_happened, is_mutable
      1,
      EDITION_BUMP, // edition_nonce: Some(bump)
    ]
    expect(expected.length).toBe(END_OF_FIXED_PART)
    expect([...legacyAccount.slice(0, END_OF_FIXED_PART)]).toEqual(expected)
    const encoded = getMetadataCodec().encode(decodeMetadata(legacyAccount)!)
    expect(encoded.slice(0, END_OF_FIXED_PART)).toEqual(legacyAccount.slice(0, END_OF_FIXED_PART))
  })

  test('the account address is the metadata PDA of its mint, and editionNonce is the edition PDA bump', async () => {
    const metadata = decodeMetadata(legacyAccount)!
    expect((await findMetadataAddress(metadata.mint))[0]).toBe(METADATA_ADDRESS)
    const [edition, editionBump] = await findMasterEditionAddress(metadata.mint)
    expect(edition).toBe(EDITION_ADDRESS)
    expect(editionBump as number).toBe(metadata.editionNonce!)
  })

  test('keeps the V1.2 fields together: a bad `uses` voids a good token standard and collection', () => {
    const good = getMetadataCodec().encode({
      ...everyOption,
      uses: null,
      collectionDetails: null,
      programmableConfig: null,
    })
    // Tail: token_standard (2 bytes), collection (34), uses (1 = None), details (1), config (1).
    const corrupt = good.slice()
    corrupt[good.length - 3] = 7 // `uses` option tag that is neither None nor Some
    const decoded = decodeMetadata(corrupt)!
    expect([decoded.tokenStandard, decoded.collection, decoded.uses]).toEqual([null, null, null])
    expect(decoded.data).toEqual(everyOption.data)
  })

  test('a corrupt collection_details alone is dropped and the fields before it survive', () => {
    const good = getMetadataCodec().encode({ ...everyOption, collectionDetails: null, programmableConfig: null })
    const corrupt = good.slice()
    corrupt[good.length - 2] = 9
    const decoded = decodeMetadata(corrupt)!
    expect(decoded.collectionDetails).toBeNull()
    expect(decoded.uses).toEqual(everyOption.uses)
    expect(decoded.tokenStandard).toBe('ProgrammableNonFungible')
  })

  test('ignores bytes after the value', () => {
    const withTail = new Uint8Array(700)
    withTail.set(getMetadataCodec().encode(fungible))
    withTail.fill(0xab, 650)
    expect(decodeMetadata(withTail)).toEqual(fungible)
  })

  test.each([
    ['a different Key byte (MasterEditionV2)', () => legacyAccount.map((b, i) => (i === 0 ? 6 : b))],
    ['an account cut inside the name', () => legacyAccount.slice(0, 80)],
    ['no data', () => new Uint8Array(0)],
  ])('returns undefined for %s', (_name, data) => {
    expect(decodeMetadata(data())).toBeUndefined()
  })
})
