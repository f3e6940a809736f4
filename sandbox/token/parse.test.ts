import { describe, expect, test } from 'bun:test'
import { getAddressDecoder, getBase64Decoder } from '@solana/kit'
import { mintAmountInfo, parseTokenAccount, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './parse.ts'

// Hand-built account bytes, laid out as token-2022's `state.rs` packs them. The first cases mirror
// agave's own tests in account-decoder/src/parse_token.rs (keys [2;32], [3;32], amounts 42).

const addressDecoder = getAddressDecoder()
const key = (fill: number) => new Uint8Array(32).fill(fill)
const b58 = (fill: number) => addressDecoder.decode(key(fill))
const base64 = (bytes: Uint8Array) => getBase64Decoder().decode(bytes)

function le(value: bigint | number, size: number): Uint8Array {
  const out = new Uint8Array(size)
  let v = BigInt(value)
  for (let i = 0; i < size; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

/** A COption<Pubkey>: 4-byte tag then the key (zeros for None). */
const coption = (fill: number | null) => (fill === null ? new Uint8Array(36) : concat(le(1, 4), key(fill)))

function mintBytes(m: {
  mintAuthority?: number | null
  supply?: bigint
  decimals?: number
  initialized?: number
  freezeAuthority?: number | null
}): Uint8Array {
  return concat(
    coption(m.mintAuthority ?? null),
    le(m.supply ?? 0n, 8),
    new Uint8Array([m.decimals ?? 0, m.initialized ?? 1]),
    coption(m.freezeAuthority ?? null),
  )
}

function accountBytes(a: {
  mint?: number
  owner?: number
  amount?: bigint
  delegate?: number | null
  state?: number
  isNative?: bigint | null
  delegatedAmount?: bigint
  closeAuthority?: number | null
}): Uint8Array {
  const native = a.isNative == null ? new Uint8Array(12) : concat(le(1, 4), le(a.isNative, 8))
  return concat(
    key(a.mint ?? 2),
    key(a.owner ?? 3),
    le(a.amount ?? 0n, 8),
    coption(a.delegate ?? null),
    new Uint8Array([a.state ?? 1]),
    native,
    le(a.delegatedAmount ?? 0n, 8),
    coption(a.closeAuthority ?? null),
  )
}

/** One TLV entry: u16 type, u16 length, value. */
const tlv = (type: number, value: Uint8Array) => concat(le(type, 2), le(value.length, 2), value)

/** Base state padded to 165 bytes, the AccountType byte, then the TLV entries. */
function extended(base: Uint8Array, accountType: number, ...entries: Uint8Array[]): Uint8Array {
  const padded = new Uint8Array(165)
  padded.set(base)
  return concat(padded, new Uint8Array([accountType]), ...entries)
}

const MINT = 1
const ACCOUNT = 2
const noDecimals = () => undefined
const decimals = (n: number) => () => n

function borshString(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text)
  return concat(le(bytes.length, 4), bytes)
}

describe('parseTokenAccount: mints', () => {
  test('a classic mint, with the program name and the data length as space', () => {
    const data = mintBytes({ mintAuthority: 3, supply: 42n, decimals: 3, freezeAuthority: 3 })
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, data, noDecimals)).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: { mintAuthority: b58(3), supply: '42', decimals: 3, isInitialized: true, freezeAuthority: b58(3) },
      },
      space: 82,
    })
  })

  test('renounced authorities are null and u64::MAX supply stays exact', () => {
    const data = mintBytes({ supply: 18_446_744_073_709_551_615n, decimals: 9 })
    const result = parseTokenAccount(TOKEN_2022_PROGRAM_ID, data, noDecimals)
    expect(result?.program).toBe('spl-token-2022')
    expect(result?.parsed).toEqual({
      type: 'mint',
      info: {
        mintAuthority: null,
        supply: '18446744073709551615',
        decimals: 9,
        isInitialized: true,
        freezeAuthority: null,
      },
    })
  })

  test.each([
    ['an uninitialized mint', mintBytes({ initialized: 0 })],
    ['an is_initialized byte other than 0 or 1', mintBytes({ initialized: 2 })],
    ['a COption tag other than 0 or 1', concat(le(2, 4), mintBytes({}).subarray(4))],
    ['a 4-byte buffer', new Uint8Array(4)],
    ['a truncated mint', mintBytes({}).subarray(0, 81)],
    ['a mint whose length sits between the mint and the TLV area', concat(mintBytes({}), new Uint8Array(20))],
  ])('falls back to base64 (undefined) for %s', (_, data) => {
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, data, decimals(6))).toBeUndefined()
  })

  test('is undefined for an owner that is not a token program', () => {
    expect(parseTokenAccount('11111111111111111111111111111111', mintBytes({}), noDecimals)).toBeUndefined()
  })
})

describe('parseTokenAccount: token accounts', () => {
  test('prints amounts with the mint decimals and leaves unset optional members out', () => {
    const data = accountBytes({ amount: 42n, closeAuthority: 3 })
    const asked: string[] = []
    const result = parseTokenAccount(TOKEN_PROGRAM_ID, data, (mint) => {
      asked.push(mint)
      return 2
    })
    expect(asked).toEqual([b58(2)])
    expect(result).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          mint: b58(2),
          owner: b58(3),
          tokenAmount: { uiAmount: 0.42, decimals: 2, amount: '42', uiAmountString: '0.42' },
          state: 'initialized',
          isNative: false,
          closeAuthority: b58(3),
        },
      },
      space: 165,
    })
    const info = result?.parsed.info ?? {}
    for (const absent of ['delegate', 'delegatedAmount', 'rentExemptReserve', 'extensions']) {
      expect(absent in info).toBe(false)
    }
  })

  test('a delegate brings delegatedAmount; a native account brings rentExemptReserve', () => {
    const data = accountBytes({ amount: 5n, delegate: 4, delegatedAmount: 3n, state: 2, isNative: 2_039_280n })
    const info = parseTokenAccount(TOKEN_PROGRAM_ID, data, decimals(9))?.parsed.info
    expect(info).toEqual({
      mint: b58(2),
      owner: b58(3),
      tokenAmount: { uiAmount: 5e-9, decimals: 9, amount: '5', uiAmountString: '0.000000005' },
      delegate: b58(4),
      state: 'frozen',
      isNative: true,
      rentExemptReserve: { uiAmount: 0.00203928, decimals: 9, amount: '2039280', uiAmountString: '0.00203928' },
      delegatedAmount: { uiAmount: 3e-9, decimals: 9, amount: '3', uiAmountString: '0.000000003' },
    })
    // the RPC keeps the Rust struct's member order
    expect(Object.keys(info ?? {})).toEqual([
      'mint',
      'owner',
      'tokenAmount',
      'delegate',
      'state',
      'isNative',
      'rentExemptReserve',
      'delegatedAmount',
    ])
  })

  test('is undefined when the mint decimals are unknown, as the RPC then falls back to base64', () => {
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, accountBytes({ amount: 42n }), noDecimals)).toBeUndefined()
  })

  test.each([
    ['an uninitialized account', accountBytes({ state: 0 })],
    ['an out-of-range state byte', accountBytes({ state: 3 })],
    ['a bad is_native COption tag', concat(accountBytes({}).subarray(0, 109), le(7, 4), new Uint8Array(52))],
  ])('falls back to base64 (undefined) for %s', (_, data) => {
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, data, decimals(6))).toBeUndefined()
  })
})

describe('parseTokenAccount: multisigs', () => {
  function multisig(m: number, n: number, initialized: number, signers: number[]): Uint8Array {
    const slots = Array.from({ length: 11 }, (_, i) => key(signers[i] ?? 0))
    return concat(new Uint8Array([m, n, initialized]), ...slots)
  }

  test('lists the non-zero signer slots', () => {
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, multisig(2, 3, 1, [1, 2, 3]), noDecimals)?.parsed).toEqual({
      type: 'multisig',
      info: { numRequiredSigners: 2, numValidSigners: 3, isInitialized: true, signers: [b58(1), b58(2), b58(3)] },
    })
  })

  test('an uninitialized multisig falls back to base64', () => {
    expect(parseTokenAccount(TOKEN_PROGRAM_ID, multisig(2, 3, 0, [1, 2, 3]), noDecimals)).toBeUndefined()
  })

  test('a 355-byte mint with extensions is neither a mint nor a multisig', () => {
    const base = mintBytes({ mintAuthority: 3 })
    // 165 + 1 + 4 + 185 = 355, the length token-2022 avoids by padding
    const data = extended(base, MINT, tlv(3, key(0)), tlv(18, new Uint8Array(149)))
    expect(data.length).toBe(355)
    expect(parseTokenAccount(TOKEN_2022_PROGRAM_ID, data, noDecimals)).toBeUndefined()
  })
})

describe('parseTokenAccount: Token-2022 extensions', () => {
  const mintBase = mintBytes({ mintAuthority: 3, supply: 42n, decimals: 6, freezeAuthority: 3 })
  const mintExtensions = (...entries: Uint8Array[]) =>
    parseTokenAccount(TOKEN_2022_PROGRAM_ID, extended(mintBase, MINT, ...entries), noDecimals)?.parsed.info as
      | { extensions?: unknown[] }
      | undefined
  const accountExtensions = (...entries: Uint8Array[]) =>
    parseTokenAccount(TOKEN_2022_PROGRAM_ID, extended(accountBytes({}), ACCOUNT, ...entries), decimals(6))?.parsed
      .info as { extensions?: unknown[] } | undefined

  test('a hostile mint: fee, close authority, permanent delegate, hook, frozen default, metadata', () => {
    const transferFee = (epoch: bigint, max: bigint, bps: number) => concat(le(epoch, 8), le(max, 8), le(bps, 2))
    const metadata = concat(
      key(4),
      key(9),
      borshString('Rug'),
      borshString('RUG'),
      borshString('https://x.invalid/r.json'),
      le(1, 4),
      borshString('k'),
      borshString('v'),
    )
    const info = mintExtensions(
      tlv(3, key(5)),
      tlv(
        1,
        concat(
          key(6),
          key(0),
          le(7n, 8),
          transferFee(1n, 100n, 10),
          transferFee(2n, 18_446_744_073_709_551_615n, 1000),
        ),
      ),
      tlv(12, key(7)),
      tlv(14, concat(key(0), key(8))),
      tlv(6, new Uint8Array([2])),
      tlv(18, concat(key(4), key(9))),
      tlv(19, metadata),
    )
    expect(info?.extensions).toEqual([
      { extension: 'mintCloseAuthority', state: { closeAuthority: b58(5) } },
      {
        extension: 'transferFeeConfig',
        state: {
          transferFeeConfigAuthority: b58(6),
          withdrawWithheldAuthority: null,
          withheldAmount: 7n,
          olderTransferFee: { epoch: 1n, maximumFee: 100n, transferFeeBasisPoints: 10 },
          newerTransferFee: { epoch: 2n, maximumFee: 18_446_744_073_709_551_615n, transferFeeBasisPoints: 1000 },
        },
      },
      { extension: 'permanentDelegate', state: { delegate: b58(7) } },
      { extension: 'transferHook', state: { authority: null, programId: b58(8) } },
      { extension: 'defaultAccountState', state: { accountState: 'frozen' } },
      { extension: 'metadataPointer', state: { authority: b58(4), metadataAddress: b58(9) } },
      {
        extension: 'tokenMetadata',
        state: {
          updateAuthority: b58(4),
          mint: b58(9),
          name: 'Rug',
          symbol: 'RUG',
          uri: 'https://x.invalid/r.json',
          additionalMetadata: [['k', 'v']],
        },
      },
    ])
  })

  test('the remaining mint extensions, in TLV order', () => {
    const elgamal = new Uint8Array(32).fill(9)
    const f64 = (x: number) => {
      const out = new Uint8Array(8)
      new DataView(out.buffer).setFloat64(0, x, true)
      return out
    }
    const info = mintExtensions(
      tlv(4, concat(key(1), new Uint8Array([1]), new Uint8Array(32))),
      tlv(16, concat(key(0), new Uint8Array(32), new Uint8Array([0]), new Uint8Array(64))),
      tlv(9, new Uint8Array(0)),
      tlv(10, concat(key(0), le(100n, 8), le(200, 2), le(300n, 8), le(-400 & 0xffff, 2))),
      tlv(20, concat(key(1), key(2))),
      tlv(21, concat(key(0), key(5), le(1n, 8), le(10n, 8))),
      tlv(22, concat(key(0), key(3))),
      tlv(23, concat(key(5), key(6), le(3n, 8))),
      tlv(24, concat(new Uint8Array(64), new Uint8Array(36), elgamal, new Uint8Array(64))),
      tlv(25, concat(key(1), f64(1.5), le(50n, 8), f64(1e21))),
      tlv(26, concat(key(1), new Uint8Array([1]))),
      tlv(28, key(0)),
    )
    expect(info?.extensions).toEqual([
      {
        extension: 'confidentialTransferMint',
        state: { authority: b58(1), autoApproveNewAccounts: true, auditorElgamalPubkey: null },
      },
      {
        extension: 'confidentialTransferFeeConfig',
        state: {
          authority: null,
          withdrawWithheldAuthorityElgamalPubkey: base64(new Uint8Array(32)),
          harvestToMintEnabled: false,
          withheldAmount: base64(new Uint8Array(64)),
        },
      },
      { extension: 'nonTransferable' },
      {
        extension: 'interestBearingConfig',
        state: {
          rateAuthority: null,
          initializationTimestamp: 100n,
          preUpdateAverageRate: 200,
          lastUpdateTimestamp: 300n,
          currentRate: -400,
        },
      },
      { extension: 'groupPointer', state: { authority: b58(1), groupAddress: b58(2) } },
      { extension: 'tokenGroup', state: { updateAuthority: null, mint: b58(5), size: 1n, maxSize: 10n } },
      { extension: 'groupMemberPointer', state: { authority: null, memberAddress: b58(3) } },
      { extension: 'tokenGroupMember', state: { mint: b58(5), group: b58(6), memberNumber: 3n } },
      {
        extension: 'confidentialMintBurn',
        state: {
          confidentialSupply: base64(new Uint8Array(64)),
          decryptableSupply: base64(new Uint8Array(36)),
          supplyElgamalPubkey: base64(elgamal),
          pendingBurn: base64(new Uint8Array(64)),
        },
      },
      {
        extension: 'scaledUiAmountConfig',
        state: {
          authority: b58(1),
          multiplier: '1.5',
          newMultiplierEffectiveTimestamp: 50n,
          newMultiplier: '1000000000000000000000',
        },
      },
      { extension: 'pausableConfig', state: { authority: b58(1), paused: true } },
      { extension: 'permissionedBurnConfig', state: { authority: null } },
    ])
  })

  test('account extensions', () => {
    const info = accountExtensions(
      tlv(7, new Uint8Array(0)),
      tlv(2, le(9n, 8)),
      tlv(8, new Uint8Array([1])),
      tlv(11, new Uint8Array([0])),
      tlv(13, new Uint8Array(0)),
      tlv(15, new Uint8Array([1])),
      tlv(17, new Uint8Array(64)),
      tlv(27, new Uint8Array(0)),
    )
    expect(info?.extensions).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'transferFeeAmount', state: { withheldAmount: 9n } },
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
      { extension: 'cpiGuard', state: { lockCpi: false } },
      { extension: 'nonTransferableAccount' },
      { extension: 'transferHookAccount', state: { transferring: true } },
      { extension: 'confidentialTransferFeeAmount', state: { withheldAmount: base64(new Uint8Array(64)) } },
      { extension: 'pausableAccount' },
    ])
  })

  test('a mint extension inside an account, or a value of the wrong size, is unparseable', () => {
    expect(accountExtensions(tlv(3, key(5)), tlv(2, le(9n, 7)))?.extensions).toEqual([
      { extension: 'unparseableExtension' },
      { extension: 'unparseableExtension' },
    ])
  })

  test('a type the decoder does not know drops the whole list, as agave`s unwrap_or_default does', () => {
    const info = mintExtensions(tlv(3, key(5)), tlv(200, new Uint8Array(4)))
    expect(info).toBeDefined()
    expect(info && 'extensions' in info).toBe(false)
  })

  test('a value running past the end drops the whole list', () => {
    const truncated = tlv(3, key(5)).subarray(0, 20)
    expect(mintExtensions(tlv(12, key(7)), truncated)?.extensions).toBeUndefined()
  })

  test('a type-0 entry ends the list, and a lone trailing byte is ignored', () => {
    expect(mintExtensions(tlv(12, key(7)), tlv(0, new Uint8Array(0)), tlv(3, key(5)))?.extensions).toEqual([
      { extension: 'permanentDelegate', state: { delegate: b58(7) } },
    ])
    expect(mintExtensions(tlv(12, key(7)), new Uint8Array([3]))?.extensions).toHaveLength(1)
  })

  test('a repeated type shows the first entry`s value each time', () => {
    expect(accountExtensions(tlv(8, new Uint8Array([1])), tlv(8, new Uint8Array([0])))?.extensions).toEqual([
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
      { extension: 'memoTransfer', state: { requireIncomingTransferMemos: true } },
    ])
  })

  test('unit extensions ignore their value; an invalid default state reads as uninitialized', () => {
    expect(mintExtensions(tlv(9, new Uint8Array(3)), tlv(6, new Uint8Array([7])))?.extensions).toEqual([
      { extension: 'nonTransferable' },
      { extension: 'defaultAccountState', state: { accountState: 'uninitialized' } },
    ])
  })

  test('token metadata tolerates trailing bytes but not invalid UTF-8', () => {
    const metadata = (name: Uint8Array) =>
      concat(key(0), key(9), le(name.length, 4), name, borshString(''), borshString(''), le(0, 4))
    expect(mintExtensions(tlv(19, concat(metadata(new Uint8Array([0x61])), new Uint8Array(5))))?.extensions).toEqual([
      {
        extension: 'tokenMetadata',
        state: { updateAuthority: null, mint: b58(9), name: 'a', symbol: '', uri: '', additionalMetadata: [] },
      },
    ])
    expect(mintExtensions(tlv(19, metadata(new Uint8Array([0xff]))))?.extensions).toEqual([
      { extension: 'unparseableExtension' },
    ])
  })

  test('an AccountType byte alone is a mint without extensions', () => {
    const info = mintExtensions()
    expect(info).toMatchObject({ supply: '42', decimals: 6 })
    expect(info && 'extensions' in info).toBe(false)
  })

  test.each([
    [
      'non-zero padding before the AccountType',
      () => {
        const data = extended(mintBase, MINT, tlv(12, key(7)))
        data[100] = 1
        return data
      },
    ],
    ['a mint tagged as an account', () => extended(mintBase, ACCOUNT, tlv(12, key(7)))],
    ['an AccountType of 0', () => extended(mintBase, 0, tlv(12, key(7)))],
  ])('%s falls back to base64', (_, build) => {
    expect(parseTokenAccount(TOKEN_2022_PROGRAM_ID, build(), decimals(6))).toBeUndefined()
  })
})

describe('mintAmountInfo', () => {
  const f64 = (x: number) => {
    const out = new Uint8Array(8)
    new DataView(out.buffer).setFloat64(0, x, true)
    return out
  }

  test('carries a scaled-UI-amount config with the clock, which then scales account amounts', () => {
    const mint = extended(mintBytes({ decimals: 2 }), MINT, tlv(25, concat(key(1), f64(1), le(1_000n, 8), f64(3))))
    const info = mintAmountInfo(mint, 1_000n)
    expect(info).toEqual({
      decimals: 2,
      scaledUiAmount: {
        config: { multiplier: 1, newMultiplierEffectiveTimestamp: 1_000n, newMultiplier: 3 },
        unixTimestamp: 1_000n,
      },
    })
    const account = parseTokenAccount(TOKEN_2022_PROGRAM_ID, accountBytes({ amount: 150n }), () => info)
    expect(account?.parsed.info).toMatchObject({
      tokenAmount: { uiAmount: 4.5, decimals: 2, amount: '150', uiAmountString: '4.5' },
    })
  })

  test('is the bare decimals for a plain mint and undefined for a non-mint', () => {
    expect(mintAmountInfo(mintBytes({ decimals: 9 }), 0n)).toEqual({ decimals: 9 })
    expect(mintAmountInfo(accountBytes({}), 0n)).toBeUndefined()
  })
})
