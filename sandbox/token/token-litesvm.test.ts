import { beforeAll, describe, expect, test } from 'bun:test'
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit'
import { getCreateAccountInstruction } from '@solana-program/system'
import {
  getApproveInstruction,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeAccount3Instruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
  getThawAccountInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { LiteSVM } from 'litesvm'
import type { MintExtensionName } from './extension-types.ts'
import {
  getInitializeDefaultAccountStateInstruction,
  getInitializeGroupPointerInstruction,
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
} from './instructions.ts'
import { mintAmountInfo, parseTokenAccount } from './parse.ts'
import { stringifyRpcJson } from './rpc-json.ts'

// Real transactions on LiteSVM's preloaded Token and Token-2022 programs: the programs write the
// bytes, the parser reads them back. Creating the accounts at the computed sizes also checks the
// sizing helpers, since Token-2022 refuses a mint or account whose length does not match.

const U64_MAX = 18_446_744_073_709_551_615n
/** A point in Nov 2023, so timestamps are not LiteSVM's default of 0. */
const START_UNIX_TIMESTAMP = 1_700_000_000n
const SECONDS_PER_YEAR = 31_556_736n

let svm: LiteSVM
let payer: KeyPairSigner

beforeAll(async () => {
  svm = new LiteSVM()
  const clock = svm.getClock()
  clock.unixTimestamp = START_UNIX_TIMESTAMP
  svm.setClock(clock)
  payer = await generateKeyPairSigner()
  svm.airdrop(payer.address, lamports(100_000_000_000n))
})

async function send(...instructions: Instruction[]): Promise<void> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const result = svm.sendTransaction(await signTransactionMessageWithSigners(message))
  if ('err' in result) throw new Error(`transaction failed: ${result.toString()}\n${result.meta().logs().join('\n')}`)
  // a fresh blockhash keeps otherwise identical later transactions distinct
  svm.expireBlockhash()
}

/** The RPC's view of an account: parse its bytes, reading decimals from the mint it names. */
function rpcView(account: Address) {
  const stored = svm.getAccount(account)
  if (!stored.exists) throw new Error(`no account ${account}`)
  return parseTokenAccount(stored.programAddress, stored.data, (mint) => {
    const mintAccount = svm.getAccount(mint as Address)
    return mintAccount.exists ? mintAmountInfo(mintAccount.data, svm.getClock().unixTimestamp) : undefined
  })
}

function createAccount(account: KeyPairSigner, space: number, owner: Address, fundFor = space): Instruction {
  return getCreateAccountInstruction({
    payer,
    newAccount: account,
    lamports: svm.minimumBalanceForRentExemption(BigInt(fundFor)),
    space,
    programAddress: owner,
  })
}

const on2022 = { programAddress: TOKEN_2022_PROGRAM_ADDRESS }

describe('a hostile Token-2022 mint built by real transactions', () => {
  const extensions: MintExtensionName[] = [
    'mintCloseAuthority',
    'transferFeeConfig',
    'defaultAccountState',
    'permanentDelegate',
    'transferHook',
    'metadataPointer',
  ]
  const metadata = {
    name: 'Totally Safe',
    symbol: 'SAFE',
    uri: 'https://example.invalid/safe.json',
    additionalMetadata: [['audit', 'trust me']] as const,
  }
  let mint: KeyPairSigner
  let roles: Record<'closer' | 'feeAuthority' | 'delegate' | 'hookAuthority' | 'hookProgram' | 'holder', Address>

  beforeAll(async () => {
    mint = await generateKeyPairSigner()
    const keys = await Promise.all(Array.from({ length: 6 }, () => generateKeyPairSigner()))
    const [closer, feeAuthority, delegate, hookAuthority, hookProgram, holder] = keys.map((k) => k.address) as [
      Address,
      Address,
      Address,
      Address,
      Address,
      Address,
    ]
    roles = { closer, feeAuthority, delegate, hookAuthority, hookProgram, holder }
    const m = mint.address
    await send(
      // sized without metadata, funded with it: Token-2022 reallocates when writing the metadata
      createAccount(
        mint,
        getMintSizeWithExtensions(extensions),
        TOKEN_2022_PROGRAM_ADDRESS,
        getMintSizeWithExtensions(extensions, metadata),
      ),
      getInitializeMintCloseAuthorityInstruction({ mint: m, closeAuthority: closer }),
      getInitializeTransferFeeConfigInstruction({
        mint: m,
        transferFeeConfigAuthority: feeAuthority,
        withdrawWithheldAuthority: null,
        transferFeeBasisPoints: 1_000,
        maximumFee: U64_MAX,
      }),
      getInitializeDefaultAccountStateInstruction({ mint: m, state: 'frozen' }),
      getInitializePermanentDelegateInstruction({ mint: m, delegate }),
      getInitializeTransferHookInstruction({ mint: m, authority: hookAuthority, programId: hookProgram }),
      getInitializeMetadataPointerInstruction({ mint: m, authority: payer.address, metadataAddress: m }),
      getInitializeMint2Instruction(
        { mint: m, decimals: 6, mintAuthority: payer.address, freezeAuthority: payer.address },
        on2022,
      ),
    )
    await send(
      getInitializeTokenMetadataInstruction({
        mint: m,
        updateAuthority: payer.address,
        mintAuthority: payer,
        ...metadata,
      }),
      getUpdateTokenMetadataFieldInstruction({
        metadata: m,
        updateAuthority: payer,
        field: { key: 'audit' },
        value: 'trust me',
      }),
    )
  })

  test('the mint parses with every extension, in the order they were initialised', () => {
    expect(rpcView(mint.address)).toEqual({
      program: 'spl-token-2022',
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: payer.address,
          supply: '0',
          decimals: 6,
          isInitialized: true,
          freezeAuthority: payer.address,
          extensions: [
            { extension: 'mintCloseAuthority', state: { closeAuthority: roles.closer } },
            {
              extension: 'transferFeeConfig',
              state: {
                transferFeeConfigAuthority: roles.feeAuthority,
                withdrawWithheldAuthority: null,
                withheldAmount: 0n,
                olderTransferFee: { epoch: 0n, maximumFee: U64_MAX, transferFeeBasisPoints: 1_000 },
                newerTransferFee: { epoch: 0n, maximumFee: U64_MAX, transferFeeBasisPoints: 1_000 },
              },
            },
            { extension: 'defaultAccountState', state: { accountState: 'frozen' } },
            { extension: 'permanentDelegate', state: { delegate: roles.delegate } },
            { extension: 'transferHook', state: { authority: roles.hookAuthority, programId: roles.hookProgram } },
            { extension: 'metadataPointer', state: { authority: payer.address, metadataAddress: mint.address } },
            {
              extension: 'tokenMetadata',
              state: {
                updateAuthority: payer.address,
                mint: mint.address,
                name: metadata.name,
                symbol: metadata.symbol,
                uri: metadata.uri,
                additionalMetadata: [['audit', 'trust me']],
              },
            },
          ],
        },
      },
      space: getMintSizeWithExtensions(extensions, metadata),
    })
  })

  test('the uncapped fee survives to the JSON text as an exact integer', () => {
    const text = stringifyRpcJson(rpcView(mint.address))
    expect(text).toContain(`"newerTransferFee":{"epoch":0,"maximumFee":${U64_MAX},"transferFeeBasisPoints":1000}`)
  })

  test('a new token account starts frozen with the account extensions the mint requires', async () => {
    const account = await generateKeyPairSigner()
    await send(
      createAccount(account, getTokenAccountSize(extensions), TOKEN_2022_PROGRAM_ADDRESS),
      getInitializeAccount3Instruction({ account: account.address, mint: mint.address, owner: roles.holder }, on2022),
    )
    const frozen = rpcView(account.address)
    expect(frozen?.space).toBe(getTokenAccountSize(extensions))
    expect(frozen?.parsed).toEqual({
      type: 'account',
      info: {
        mint: mint.address,
        owner: roles.holder,
        tokenAmount: { uiAmount: 0, decimals: 6, amount: '0', uiAmountString: '0' },
        state: 'frozen',
        isNative: false,
        extensions: [
          { extension: 'transferFeeAmount', state: { withheldAmount: 0n } },
          { extension: 'transferHookAccount', state: { transferring: false } },
        ],
      },
    })

    await send(
      getThawAccountInstruction({ account: account.address, mint: mint.address, owner: payer }, on2022),
      getMintToInstruction(
        { mint: mint.address, token: account.address, mintAuthority: payer, amount: 1_500_000n },
        on2022,
      ),
    )
    expect(rpcView(account.address)?.parsed.info).toMatchObject({
      tokenAmount: { uiAmount: 1.5, decimals: 6, amount: '1500000', uiAmountString: '1.5' },
      state: 'initialized',
    })
    expect(rpcView(mint.address)?.parsed.info).toMatchObject({ supply: '1500000' })
  })
})

describe('a classic SPL Token mint and an account with a delegate', () => {
  test('parse as spl-token with the delegate and delegated amount', async () => {
    const mint = await generateKeyPairSigner()
    const account = await generateKeyPairSigner()
    const delegate = await generateKeyPairSigner()
    await send(
      createAccount(mint, 82, TOKEN_PROGRAM_ADDRESS),
      getInitializeMint2Instruction({ mint: mint.address, decimals: 9, mintAuthority: payer.address }),
      createAccount(account, 165, TOKEN_PROGRAM_ADDRESS),
      getInitializeAccount3Instruction({ account: account.address, mint: mint.address, owner: payer.address }),
      getMintToInstruction({
        mint: mint.address,
        token: account.address,
        mintAuthority: payer,
        amount: 2_500_000_000n,
      }),
      getApproveInstruction({ source: account.address, delegate: delegate.address, owner: payer, amount: 10n ** 9n }),
    )
    expect(rpcView(mint.address)).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: {
          mintAuthority: payer.address,
          supply: '2500000000',
          decimals: 9,
          isInitialized: true,
          freezeAuthority: null,
        },
      },
      space: 82,
    })
    expect(rpcView(account.address)).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          mint: mint.address,
          owner: payer.address,
          tokenAmount: { uiAmount: 2.5, decimals: 9, amount: '2500000000', uiAmountString: '2.5' },
          delegate: delegate.address,
          state: 'initialized',
          isNative: false,
          delegatedAmount: { uiAmount: 1, decimals: 9, amount: '1000000000', uiAmountString: '1' },
        },
      },
      space: 165,
    })
  })
})

describe('a soulbound, pausable, interest-bearing Token-2022 mint', () => {
  test('parses its extensions and accrues interest in the UI amount as the clock moves', async () => {
    const mint = await generateKeyPairSigner()
    const extensions: MintExtensionName[] = [
      'nonTransferable',
      'pausableConfig',
      'interestBearingConfig',
      'groupPointer',
      'permissionedBurnConfig',
    ]
    const m = mint.address
    await send(
      createAccount(mint, getMintSizeWithExtensions(extensions), TOKEN_2022_PROGRAM_ADDRESS),
      getInitializeNonTransferableMintInstruction({ mint: m }),
      getInitializePausableConfigInstruction({ mint: m, authority: payer.address }),
      getInitializeInterestBearingMintInstruction({ mint: m, rateAuthority: null, rate: 500 }),
      getInitializeGroupPointerInstruction({ mint: m, authority: null, groupAddress: m }),
      getInitializePermissionedBurnInstruction({ mint: m, authority: payer.address }),
      getInitializeMint2Instruction({ mint: m, decimals: 2, mintAuthority: payer.address }, on2022),
    )
    const now = svm.getClock().unixTimestamp
    expect(rpcView(m)?.parsed.info).toMatchObject({
      extensions: [
        { extension: 'nonTransferable' },
        { extension: 'pausableConfig', state: { authority: payer.address, paused: false } },
        {
          extension: 'interestBearingConfig',
          state: {
            rateAuthority: null,
            initializationTimestamp: now,
            preUpdateAverageRate: 500,
            lastUpdateTimestamp: now,
            currentRate: 500,
          },
        },
        { extension: 'groupPointer', state: { authority: null, groupAddress: m } },
        { extension: 'permissionedBurnConfig', state: { authority: payer.address } },
      ],
    })

    // the associated token program asks Token-2022 for the size and adds ImmutableOwner first
    const create = await getCreateAssociatedTokenIdempotentInstructionAsync({
      payer,
      owner: payer.address,
      mint: m,
      tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
    })
    const ata = create.accounts[1].address
    await send(create, getMintToInstruction({ mint: m, token: ata, mintAuthority: payer, amount: 10_000n }, on2022))
    const view = rpcView(ata)
    expect(view?.space).toBe(getTokenAccountSize(extensions, ['immutableOwner']))
    expect(view?.parsed.info).toMatchObject({
      tokenAmount: { uiAmount: 100, decimals: 2, amount: '10000', uiAmountString: '100' },
      extensions: [
        { extension: 'immutableOwner' },
        { extension: 'nonTransferableAccount' },
        { extension: 'pausableAccount' },
      ],
    })

    // a year later 100 tokens at 5% continuously compounded read as 100·e^0.05 = 105.13
    const clock = svm.getClock()
    clock.unixTimestamp = now + SECONDS_PER_YEAR
    svm.setClock(clock)
    expect(rpcView(ata)?.parsed.info).toMatchObject({
      tokenAmount: { uiAmount: 105.13, decimals: 2, amount: '10000', uiAmountString: '105.13' },
    })
  })
})

describe('a scaled-UI-amount Token-2022 mint', () => {
  test('prints the multiplier as Rust does and multiplies account amounts by it', async () => {
    const mint = await generateKeyPairSigner()
    const account = await generateKeyPairSigner()
    const m = mint.address
    await send(
      createAccount(mint, getMintSizeWithExtensions(['scaledUiAmountConfig']), TOKEN_2022_PROGRAM_ADDRESS),
      getInitializeScaledUiAmountInstruction({ mint: m, authority: payer.address, multiplier: 2.5 }),
      getInitializeMint2Instruction({ mint: m, decimals: 3, mintAuthority: payer.address }, on2022),
      createAccount(account, getTokenAccountSize(['scaledUiAmountConfig']), TOKEN_2022_PROGRAM_ADDRESS),
      getInitializeAccount3Instruction({ account: account.address, mint: m, owner: payer.address }, on2022),
      getMintToInstruction({ mint: m, token: account.address, mintAuthority: payer, amount: 1_001n }, on2022),
    )
    expect(rpcView(m)?.parsed.info).toMatchObject({
      extensions: [
        {
          extension: 'scaledUiAmountConfig',
          state: {
            authority: payer.address,
            multiplier: '2.5',
            newMultiplierEffectiveTimestamp: 0n,
            newMultiplier: '2.5',
          },
        },
      ],
    })
    // 1001 × (2.5 / 10^3) is 2.50249999999999994671… in f64, rounded to 3 places as Rust's `{:.3}`
    // does, and uiAmount is that string parsed back, not the product itself
    expect(rpcView(account.address)?.parsed.info).toMatchObject({
      tokenAmount: { uiAmount: 2.502, decimals: 3, amount: '1001', uiAmountString: '2.502' },
    })
  })
})
