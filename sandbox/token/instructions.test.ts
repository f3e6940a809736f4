import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { AccountRole, address, generateKeyPairSigner, getAddressEncoder, type AccountSignerMeta } from '@solana/kit'
import {
  getInitializeDefaultAccountStateInstruction,
  getInitializeInterestBearingMintInstruction,
  getInitializeMetadataPointerInstruction,
  getInitializeMintCloseAuthorityInstruction,
  getInitializeNonTransferableMintInstruction,
  getInitializePausableConfigInstruction,
  getInitializePermanentDelegateInstruction,
  getInitializePermissionedBurnInstruction,
  getInitializeScaledUiAmountInstruction,
  getInitializeTokenMetadataInstruction,
  getInitializeTransferFeeConfigInstruction,
  getInitializeTransferHookInstruction,
  getMintSizeWithExtensions,
  getTokenAccountSize,
  getUpdateTokenMetadataFieldInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_METADATA_INITIALIZE_DISCRIMINATOR,
  TOKEN_METADATA_UPDATE_FIELD_DISCRIMINATOR,
} from './instructions.ts'

// Expected bytes follow `TokenInstruction::pack` and the extension `encode_instruction` helpers in
// solana-program/token-2022 (interface/src/instruction.rs, interface/src/extension/*/instruction.rs).

const MINT = address('9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP')
const KEY = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo')
const key = [...getAddressEncoder().encode(KEY)]
const zeros = (n: number) => new Array<number>(n).fill(0)
const data = (ix: { data?: ArrayLike<number> }) => Array.from(ix.data ?? [])
const mintOnly = [{ address: MINT, role: AccountRole.WRITABLE }]

describe('extension Initialize instructions', () => {
  test.each([
    [
      'MintCloseAuthority, Some',
      getInitializeMintCloseAuthorityInstruction({ mint: MINT, closeAuthority: KEY }),
      [25, 1, ...key],
    ],
    [
      'MintCloseAuthority, None',
      getInitializeMintCloseAuthorityInstruction({ mint: MINT, closeAuthority: null }),
      [25, 0],
    ],
    [
      'TransferFeeConfig',
      getInitializeTransferFeeConfigInstruction({
        mint: MINT,
        transferFeeConfigAuthority: KEY,
        withdrawWithheldAuthority: null,
        transferFeeBasisPoints: 1000,
        maximumFee: 18_446_744_073_709_551_615n,
      }),
      [26, 0, 1, ...key, 0, 0xe8, 0x03, ...new Array<number>(8).fill(0xff)],
    ],
    [
      'DefaultAccountState frozen',
      getInitializeDefaultAccountStateInstruction({ mint: MINT, state: 'frozen' }),
      [28, 0, 2],
    ],
    ['NonTransferable', getInitializeNonTransferableMintInstruction({ mint: MINT }), [32]],
    [
      'InterestBearing',
      getInitializeInterestBearingMintInstruction({ mint: MINT, rateAuthority: null, rate: -2 }),
      [33, 0, ...zeros(32), 0xfe, 0xff],
    ],
    ['PermanentDelegate', getInitializePermanentDelegateInstruction({ mint: MINT, delegate: KEY }), [35, ...key]],
    [
      'TransferHook',
      getInitializeTransferHookInstruction({ mint: MINT, authority: null, programId: KEY }),
      [36, 0, ...zeros(32), ...key],
    ],
    [
      'MetadataPointer',
      getInitializeMetadataPointerInstruction({ mint: MINT, authority: KEY, metadataAddress: MINT }),
      [39, 0, ...key, ...getAddressEncoder().encode(MINT)],
    ],
    [
      'ScaledUiAmount',
      getInitializeScaledUiAmountInstruction({ mint: MINT, authority: KEY, multiplier: 2 }),
      [43, 0, ...key, 0, 0, 0, 0, 0, 0, 0, 0x40],
    ],
    ['Pausable', getInitializePausableConfigInstruction({ mint: MINT, authority: KEY }), [44, 0, ...key]],
    ['PermissionedBurn', getInitializePermissionedBurnInstruction({ mint: MINT, authority: KEY }), [46, 0, ...key]],
  ])('%s: the mint alone, writable, and the packed data', (_, ix, bytes) => {
    expect(ix.programAddress).toBe(TOKEN_2022_PROGRAM_ADDRESS)
    expect(ix.accounts).toEqual(mintOnly)
    expect(data(ix)).toEqual(bytes)
  })

  test('reject values that do not fit their field', () => {
    const fee = { mint: MINT, transferFeeConfigAuthority: null, withdrawWithheldAuthority: null }
    const build = (transferFeeBasisPoints: number, maximumFee: bigint) => () =>
      getInitializeTransferFeeConfigInstruction({ ...fee, transferFeeBasisPoints, maximumFee })
    expect(build(70_000, 0n)).toThrow('not a u16')
    expect(build(1, -1n)).toThrow('not a u64')
  })
})

describe('token-metadata interface instructions', () => {
  const discriminator = (name: string) => [
    ...createHash('sha256').update(`spl_token_metadata_interface:${name}`).digest().subarray(0, 8),
  ]

  test('discriminators are sha256 prefixes of the interface names', () => {
    expect([...TOKEN_METADATA_INITIALIZE_DISCRIMINATOR]).toEqual(discriminator('initialize_account'))
    expect([...TOKEN_METADATA_UPDATE_FIELD_DISCRIMINATOR]).toEqual(discriminator('updating_field'))
  })

  test('Initialize: the mint as writable metadata, update authority, mint, signing mint authority', async () => {
    const mintAuthority = await generateKeyPairSigner()
    const ix = getInitializeTokenMetadataInstruction({
      mint: MINT,
      updateAuthority: KEY,
      mintAuthority,
      name: 'Ab',
      symbol: 'C',
      uri: '',
    })
    const expected: unknown[] = [
      { address: MINT, role: AccountRole.WRITABLE },
      { address: KEY, role: AccountRole.READONLY },
      { address: MINT, role: AccountRole.READONLY },
      { address: mintAuthority.address, role: AccountRole.READONLY_SIGNER, signer: mintAuthority },
    ]
    expect(ix.accounts as unknown[]).toEqual(expected)
    expect(data(ix)).toEqual([...discriminator('initialize_account'), 2, 0, 0, 0, 65, 98, 1, 0, 0, 0, 67, 0, 0, 0, 0])
  })

  test('UpdateField: a standard field is its enum index, an additional key is variant 3 with the key', async () => {
    const updateAuthority = await generateKeyPairSigner()
    const uri = getUpdateTokenMetadataFieldInstruction({ metadata: MINT, updateAuthority, field: 'uri', value: 'x' })
    expect(data(uri)).toEqual([...discriminator('updating_field'), 2, 1, 0, 0, 0, 120])
    const custom = getUpdateTokenMetadataFieldInstruction({
      metadata: MINT,
      updateAuthority,
      field: { key: 'k' },
      value: '',
    })
    expect(data(custom)).toEqual([...discriminator('updating_field'), 3, 1, 0, 0, 0, 107, 0, 0, 0, 0])
    const signerMeta = custom.accounts?.[1] as AccountSignerMeta | undefined
    expect(signerMeta?.role).toBe(AccountRole.READONLY_SIGNER)
    expect(signerMeta?.signer).toBe(updateAuthority)
  })
})

describe('account sizes', () => {
  test('a mint without extensions is 82 bytes; with them, 166 plus each TLV entry', () => {
    expect(getMintSizeWithExtensions([])).toBe(82)
    expect(getMintSizeWithExtensions(['mintCloseAuthority'])).toBe(166 + 4 + 32)
    expect(getMintSizeWithExtensions(['transferFeeConfig', 'nonTransferable'])).toBe(166 + 4 + 108 + 4)
    expect(getMintSizeWithExtensions(['permanentDelegate', 'permanentDelegate'])).toBe(166 + 36)
  })

  test('a total of 355 (a multisig length) gets two more bytes', () => {
    expect(getMintSizeWithExtensions(['metadataPointer', 'tokenGroup', 'pausableConfig'])).toBe(357)
  })

  test('token metadata adds its borsh length and TLV header', () => {
    const base = getMintSizeWithExtensions(['metadataPointer'])
    const fields = { name: 'Ab', symbol: 'C', uri: '', additionalMetadata: [['k', 'vv']] as const }
    expect(getMintSizeWithExtensions(['metadataPointer'], fields)).toBe(base + 4 + 64 + 6 + 5 + 4 + 4 + 5 + 6)
  })

  test('token accounts carry the extensions their mint requires', () => {
    expect(getTokenAccountSize([])).toBe(165)
    expect(getTokenAccountSize(['transferFeeConfig', 'transferHook', 'permanentDelegate'])).toBe(166 + 12 + 5)
    expect(getTokenAccountSize(['nonTransferable'], ['immutableOwner'])).toBe(166 + 4 + 4)
  })
})
