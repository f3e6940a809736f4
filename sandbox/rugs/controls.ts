import { getTransferSolInstruction } from '@solana-program/system'
import {
  AuthorityType,
  getFreezeAccountInstruction,
  getSetAuthorityInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token'
import { lamports, type Address, type KeyPairSigner } from '@solana/kit'
import { decodeMetadata, encodeMetadataAccount, findMetadataAddress } from '../../src/onchain/metaplex-metadata.ts'
import { decodeVestingEscrow, VESTING_ESCROW_SIZE } from '../../src/onchain/locks.ts'
import { JUPITER_LOCK_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { base58Encode } from '../chain/base58.ts'
import { readMint, readTokenAccount, TOKEN_PROGRAM } from '../chain/token-balances.ts'
import { accountParser } from '../rpc/parsers.ts'
import type { UiExtension } from '../token/extensions.ts'
import {
  getSetPausedInstruction,
  getSetTransferFeeInstruction,
  getUpdateDefaultAccountStateInstruction,
  getUpdateTokenMetadataFieldInstruction,
  getUpdateTransferHookInstruction,
} from '../token/instructions.ts'
import { trusted as address } from '../world/addresses.ts'
import type { Pool } from '../world/pool-book.ts'
import type { World } from '../world/world.ts'

/** What a rug control did: its transaction, the slot it landed in, and the values it changed. */
export interface RugOutcome {
  signature: string
  slot: bigint
  before: Record<string, unknown>
  after: Record<string, unknown>
  /** What part of the event is a documented state write rather than the real program's instruction. */
  stateWritten?: string
}

/** Why a rug control cannot run: the request is wrong, or the token lacks the lever. */
export class RugRefusal extends Error {
  constructor(
    readonly code: 'UNKNOWN_EVENT' | 'INVALID_PARAMS' | 'UNKNOWN_MINT' | 'NOT_POSSIBLE',
    message: string,
  ) {
    super(message)
  }
}

/** A program id where no program is deployed: a transfer hook pointing at it fails every transfer. */
export const ABSENT_HOOK_PROGRAM = 'HooKAbsentProgram11111111111111111111111111'
const U64_MAX = 0xffff_ffff_ffff_ffffn
/** Token-2022 stores a transfer fee's cap as a u64 of raw units; "no cap" is its maximum. */
const NO_FEE_CAP = U64_MAX

/** The mint's base fields and, for Token-2022, its extensions as getAccountInfo's jsonParsed shows them. */
function mintView(world: World, mint: string) {
  const account = world.chain.getAccount(mint)
  if (!account) throw new RugRefusal('UNKNOWN_MINT', `no mint account ${mint} on the sandbox chain`)
  const data = account.data as Uint8Array
  const optionAt = (offset: number) =>
    new DataView(data.buffer, data.byteOffset).getUint32(offset, true) === 1
      ? (address(base58Encode(data.subarray(offset + 4, offset + 36))) as string)
      : null
  const parsed = accountParser(world.chain)(account.programAddress, data) as
    | { parsed?: { info?: { extensions?: UiExtension[] } } }
    | undefined
  return {
    program: account.programAddress as string,
    supply: readMint(data).supply,
    decimals: readMint(data).decimals,
    mintAuthority: optionAt(0),
    freezeAuthority: optionAt(46),
    extensions: parsed?.parsed?.info?.extensions ?? [],
    lamports: BigInt(account.lamports),
    space: data.length,
  }
}

type WithState = Extract<UiExtension, { state: unknown }>
type ExtensionStates = { [E in WithState as E['extension']]: E['state'] }

/** A Token-2022 mint extension's state, as jsonParsed shows it; refused when the mint lacks it. */
function extension<N extends WithState['extension']>(world: World, mint: string, name: N): ExtensionStates[N] {
  const found = mintView(world, mint).extensions.find((entry) => entry.extension === name)
  if (!found) throw new RugRefusal('NOT_POSSIBLE', `mint ${mint} has no ${name} extension`)
  return (found as unknown as { state: ExtensionStates[N] }).state
}

/** The world's key for an authority, or a refusal naming what is missing. */
async function keyOf(world: World, authority: string | null, what: string, mint: string): Promise<KeyPairSigner> {
  if (authority === null) throw new RugRefusal('NOT_POSSIBLE', `the ${what} of ${mint} is revoked: nobody can use it`)
  const signer = await world.signerOf(authority)
  if (!signer) throw new RugRefusal('NOT_POSSIBLE', `the ${what} of ${mint} is ${authority}, not a key of the sandbox`)
  return signer
}

/**
 * The token's developer: the fee payer of the transaction that created the mint (its oldest
 * signature), as an indexer names a token's creator.
 */
export async function developerOf(world: World, mint: string): Promise<KeyPairSigner> {
  const oldest = world.chain.signaturesFor(mint).at(-1)
  const creator = oldest ? world.chain.getTransaction(oldest)?.accountKeys[0] : undefined
  if (!creator) throw new RugRefusal('UNKNOWN_MINT', `no creation transaction for ${mint}`)
  return keyOf(world, creator, 'creator', mint)
}

function landed(world: World, signature: string): { signature: string; slot: bigint } {
  const stored = world.chain.getTransaction(signature)
  if (!stored) throw new Error(`transaction ${signature} was not stored`)
  if (stored.meta.err !== null) throw new Error(`transaction ${signature} failed: ${JSON.stringify(stored.meta.err)}`)
  return { signature, slot: stored.slot }
}

function tokenOf(world: World, mint: string) {
  const token = world.tokens.get(mint)
  if (!token) throw new RugRefusal('UNKNOWN_MINT', `${mint} is not a token of the sandbox`)
  return token
}

/** The token's deepest pool that can still swap (most quote reserves). */
function mainPool(world: World, mint: string): Pool {
  const pools = world.pools
    .poolsOf(mint)
    .filter((pool) => pool.baseMint === mint)
    .sort((a, b) => Number(world.pools.realReserves(b).quote - world.pools.realReserves(a).quote))
  if (pools.length === 0) throw new RugRefusal('NOT_POSSIBLE', `${mint} has no pool on the sandbox`)
  return pools[0]!
}

async function balanceOf(world: World, mint: string, owner: string): Promise<bigint> {
  const account = world.chain.getAccount(await world.ata(mint, owner))
  return account ? readTokenAccount(account.data).amount : 0n
}

function reservesOf(world: World, pool: Pool) {
  const { base, quote } = world.pools.realReserves(pool)
  return { pool: pool.address, base_reserve: base.toString(), quote_reserve: quote.toString() }
}

/** The LP token accounts of a pool with a balance, by owner. */
function lpAccounts(world: World, lpMint: string) {
  return world.chain
    .tokenAccountsOfMint(lpMint)
    .map((key) => ({ key, ...readTokenAccount(world.chain.getAccount(key)!.data) }))
    .filter((account) => account.amount > 0n)
}

/** `percent` of an amount, rounded down. */
function share(amount: bigint, percent: number): bigint {
  return (amount * BigInt(Math.round(percent * 10_000))) / 1_000_000n
}

/**
 * Removes `percent` of the main pool's liquidity for the wallet holding its LP tokens, burning that share
 * of them (World.removeLiquidity: the vaults are moved by the sandbox operator, as the venue's program
 * moves them on a withdrawal). Refused when no wallet holds LP: burned, or locked (unlock it first).
 */
export async function pullLiquidity(world: World, mint: string, percent: number): Promise<RugOutcome> {
  tokenOf(world, mint)
  const pool = mainPool(world, mint)
  if (!pool.lpMint)
    throw new RugRefusal('NOT_POSSIBLE', `pool ${pool.address} (${pool.kind}) has no LP token the sandbox can withdraw`)
  const holders = lpAccounts(world, pool.lpMint)
  const wallets = []
  for (const holder of holders) {
    const owner = world.chain.getAccount(holder.owner)
    const signer = await world.signerOf(holder.owner)
    if (signer && (!owner || owner.programAddress === '11111111111111111111111111111111'))
      wallets.push({ ...holder, signer })
  }
  const provider = wallets.sort((a, b) => Number(b.amount - a.amount))[0]
  if (!provider) {
    const locked = holders.some(
      (holder) => world.chain.getAccount(holder.owner)?.programAddress === JUPITER_LOCK_PROGRAM_ADDRESS,
    )
    throw new RugRefusal(
      'NOT_POSSIBLE',
      locked
        ? `the LP of pool ${pool.address} is locked in an escrow: unlock it first (event unlock-lp)`
        : `the LP of pool ${pool.address} is burned: nobody can withdraw its liquidity`,
    )
  }
  const before = { ...reservesOf(world, pool), lp_held: provider.amount.toString(), provider: provider.owner }
  const signature = await world.removeLiquidity(pool, provider.signer, percent / 100)
  const after = {
    ...reservesOf(world, pool),
    lp_held: (await balanceOf(world, pool.lpMint, provider.owner)).toString(),
    provider: provider.owner,
  }
  return { ...landed(world, signature), before, after }
}

/** Sells `percent` of the developer's holding into the main pool: a real swap, as any trader's. */
export async function developerDump(world: World, mint: string, percent: number): Promise<RugOutcome> {
  tokenOf(world, mint)
  const dev = await developerOf(world, mint)
  const pool = mainPool(world, mint)
  const held = await balanceOf(world, mint, dev.address)
  const amount = share(held, percent)
  if (amount === 0n) throw new RugRefusal('NOT_POSSIBLE', `the developer ${dev.address} holds none of ${mint}`)
  const before = { developer: dev.address, holding: held.toString(), ...reservesOf(world, pool) }
  const trade = await world.swap(dev, pool, mint, amount)
  const after = {
    developer: dev.address,
    holding: (await balanceOf(world, mint, dev.address)).toString(),
    ...reservesOf(world, pool),
    sold: trade.baseAmount.toString(),
    received: trade.quoteAmount.toString(),
  }
  return { ...landed(world, trade.signature), before, after }
}

/** Mints `amount` raw units (default: 10% of the supply) to `to` (default: the mint authority). */
export async function mintMore(world: World, mint: string, amount?: bigint, to?: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const view = mintView(world, mint)
  const authority = await keyOf(world, view.mintAuthority, 'mint authority', mint)
  const minted = amount ?? view.supply / 10n
  if (minted <= 0n) throw new RugRefusal('INVALID_PARAMS', 'amount must be positive')
  const recipient = to ?? authority.address
  await world.mintTo(mint, recipient, minted, authority)
  const signature = world.chain.signaturesFor(mint)[0]!
  return {
    ...landed(world, signature),
    before: { supply: view.supply.toString() },
    after: { supply: mintView(world, mint).supply.toString(), minted: minted.toString(), to: recipient },
  }
}

/** Hands the mint authority to `next`, or revokes it (`null`). */
export async function setMintAuthority(world: World, mint: string, next: string | null): Promise<RugOutcome> {
  const token = tokenOf(world, mint)
  const view = mintView(world, mint)
  const current = await keyOf(world, view.mintAuthority, 'mint authority', mint)
  const signature = await world.run(current, [
    getSetAuthorityInstruction(
      {
        owned: address(mint),
        owner: current,
        authorityType: AuthorityType.MintTokens,
        newAuthority: next === null ? null : address(next),
      },
      { programAddress: address(token.program) },
    ),
  ])
  return {
    ...landed(world, signature),
    before: { mint_authority: view.mintAuthority },
    after: { mint_authority: mintView(world, mint).mintAuthority },
  }
}

/**
 * The token account a holder-directed event targets: `holder` (a wallet or one of its token accounts),
 * else the largest holder that is neither the developer nor a pool vault.
 */
async function holderAccount(world: World, mint: string, holder?: string): Promise<{ account: string; owner: string }> {
  const accounts = world.chain
    .tokenAccountsOfMint(mint)
    .map((key) => ({ key, ...readTokenAccount(world.chain.getAccount(key)!.data) }))
  if (holder) {
    const found = accounts.find((entry) => entry.key === holder || entry.owner === holder)
    if (!found) throw new RugRefusal('INVALID_PARAMS', `${holder} holds no account of ${mint}`)
    return { account: found.key, owner: found.owner }
  }
  const dev = (await developerOf(world, mint)).address
  const vaults = new Set(world.pools.poolsOf(mint).flatMap((pool) => [pool.baseVault, pool.quoteVault]))
  const target = accounts
    .filter((entry) => entry.owner !== dev && !vaults.has(entry.key) && entry.amount > 0n)
    .sort((a, b) => Number(b.amount - a.amount))[0]
  if (!target) throw new RugRefusal('NOT_POSSIBLE', `${mint} has no holder besides its developer and pools`)
  return { account: target.key, owner: target.owner }
}

const STATES = ['uninitialized', 'initialized', 'frozen'] as const
function accountState(world: World, account: string): string {
  return STATES[readTokenAccount(world.chain.getAccount(account)!.data).state] ?? 'unknown'
}

async function freezeAccount(world: World, mint: string, account: string): Promise<string> {
  const token = tokenOf(world, mint)
  const authority = await keyOf(world, mintView(world, mint).freezeAuthority, 'freeze authority', mint)
  if (accountState(world, account) === 'frozen') throw new RugRefusal('NOT_POSSIBLE', `${account} is already frozen`)
  return world.run(authority, [
    getFreezeAccountInstruction(
      { account: address(account), mint: address(mint), owner: authority },
      { programAddress: address(token.program) },
    ),
  ])
}

/** Freezes a holder's token account with the freeze authority. */
export async function freezeHolder(world: World, mint: string, holder?: string): Promise<RugOutcome> {
  const target = await holderAccount(world, mint, holder)
  const before = { account: target.account, owner: target.owner, state: accountState(world, target.account) }
  const signature = await freezeAccount(world, mint, target.account)
  return { ...landed(world, signature), before, after: { ...before, state: accountState(world, target.account) } }
}

function feeOf(world: World, mint: string) {
  const state = extension(world, mint, 'transferFeeConfig')
  const fee = state.newerTransferFee
  return {
    transfer_fee_bps: fee.transferFeeBasisPoints,
    maximum_fee: fee.maximumFee.toString(),
    epoch: fee.epoch.toString(),
    authority: state.transferFeeConfigAuthority,
  }
}

/**
 * Raises the Token-2022 transfer fee to `bps` (capped at `maximumFee` raw units, default none) with the
 * fee authority. Token-2022 applies it from two epochs on: `newerTransferFee` shows it at once.
 */
export async function raiseTransferFee(
  world: World,
  mint: string,
  bps: number,
  maximumFee = NO_FEE_CAP,
): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = feeOf(world, mint)
  const authority = await keyOf(world, before.authority, 'transfer fee authority', mint)
  const signature = await world.run(authority, [
    getSetTransferFeeInstruction({ mint: address(mint), authority, transferFeeBasisPoints: bps, maximumFee }),
  ])
  return { ...landed(world, signature), before, after: feeOf(world, mint) }
}

/** Points the Token-2022 transfer hook at `program` (default: one that is not deployed, so transfers fail). */
export async function setTransferHook(world: World, mint: string, program: string | null): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'transferHook')
  const authority = await keyOf(world, before.authority, 'transfer hook authority', mint)
  const signature = await world.run(authority, [
    getUpdateTransferHookInstruction({
      mint: address(mint),
      authority,
      programId: program === null ? null : address(program),
    }),
  ])
  return {
    ...landed(world, signature),
    before: { program_id: before.programId },
    after: { program_id: extension(world, mint, 'transferHook').programId },
  }
}

/**
 * Moves `percent` of a holder's tokens to the developer with the permanent delegate's signature alone
 * (a TransferChecked whose authority is the delegate, not the owner).
 */
export async function permanentDelegateTransfer(
  world: World,
  mint: string,
  percent: number,
  holder?: string,
): Promise<RugOutcome> {
  const token = tokenOf(world, mint)
  const { delegate } = extension(world, mint, 'permanentDelegate')
  const signer = await keyOf(world, delegate, 'permanent delegate', mint)
  const target = await holderAccount(world, mint, holder)
  const held = readTokenAccount(world.chain.getAccount(target.account)!.data).amount
  const amount = share(held, percent)
  if (amount === 0n) throw new RugRefusal('NOT_POSSIBLE', `${target.account} holds nothing to move`)
  const destination = await world.ata(mint, signer.address)
  const { getCreateAssociatedTokenIdempotentInstruction } = await import('@solana-program/token')
  const signature = await world.run(signer, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: signer,
      ata: destination,
      owner: signer.address,
      mint: address(mint),
      tokenProgram: address(token.program),
    }),
    getTransferCheckedInstruction(
      {
        source: address(target.account),
        mint: address(mint),
        destination,
        authority: signer,
        amount,
        decimals: token.decimals,
      },
      { programAddress: address(token.program) },
    ),
  ])
  const balance = () => readTokenAccount(world.chain.getAccount(target.account)!.data).amount.toString()
  return {
    ...landed(world, signature),
    before: { account: target.account, owner: target.owner, amount: held.toString() },
    after: { account: target.account, owner: target.owner, amount: balance(), moved_to: destination },
  }
}

/** Sets the state new token accounts start in (default frozen), with the freeze authority. */
export async function setDefaultAccountState(
  world: World,
  mint: string,
  state: 'initialized' | 'frozen',
): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'defaultAccountState').accountState
  const authority = await keyOf(world, mintView(world, mint).freezeAuthority, 'freeze authority', mint)
  const signature = await world.run(authority, [
    getUpdateDefaultAccountStateInstruction({ mint: address(mint), freezeAuthority: authority, state }),
  ])
  return {
    ...landed(world, signature),
    before: { default_account_state: before },
    after: { default_account_state: extension(world, mint, 'defaultAccountState').accountState },
  }
}

/** Pauses (or resumes) every transfer, mint and burn of a Token-2022 mint with the Pausable extension. */
export async function setPaused(world: World, mint: string, paused: boolean): Promise<RugOutcome> {
  tokenOf(world, mint)
  const before = extension(world, mint, 'pausableConfig')
  const authority = await keyOf(world, before.authority, 'pause authority', mint)
  const signature = await world.run(authority, [getSetPausedInstruction({ mint: address(mint), authority, paused })])
  return {
    ...landed(world, signature),
    before: { paused: before.paused },
    after: { paused: extension(world, mint, 'pausableConfig').paused },
  }
}

/**
 * Renames the token: its Token-2022 metadata extension when it has one (UpdateField, real instructions,
 * the mint topped up first for the rent of a longer name), else its Metaplex metadata account.
 */
export async function renameMetadata(world: World, mint: string, name: string, symbol: string): Promise<RugOutcome> {
  const record = tokenOf(world, mint)
  const view = mintView(world, mint)
  const metadata = view.extensions.find((entry) => entry.extension === 'tokenMetadata')
  const outcome = metadata
    ? await renameToken2022(world, mint, metadata.state, name, symbol)
    : await renameMetaplex(world, mint, name, symbol)
  // Discovery (the token list) reads the world's record: it now says what the chain says.
  record.name = name
  record.symbol = symbol
  return outcome
}

async function renameToken2022(
  world: World,
  mint: string,
  state: Extract<UiExtension, { extension: 'tokenMetadata' }>['state'],
  name: string,
  symbol: string,
): Promise<RugOutcome> {
  const authority = await keyOf(world, state.updateAuthority, 'metadata update authority', mint)
  const before = mintView(world, mint)
  const utf8 = new TextEncoder()
  const grows =
    utf8.encode(name).length -
    utf8.encode(state.name).length +
    utf8.encode(symbol).length -
    utf8.encode(state.symbol).length
  const rent = world.chain.svm.minimumBalanceForRentExemption(BigInt(before.space + Math.max(0, grows)))
  const topUp = rent > before.lamports ? rent - before.lamports : 0n
  const signature = await world.run(authority, [
    ...(topUp > 0n
      ? [getTransferSolInstruction({ source: authority, destination: address(mint), amount: lamports(topUp) })]
      : []),
    getUpdateTokenMetadataFieldInstruction({
      metadata: address(mint),
      updateAuthority: authority,
      field: 'name',
      value: name,
    }),
    getUpdateTokenMetadataFieldInstruction({
      metadata: address(mint),
      updateAuthority: authority,
      field: 'symbol',
      value: symbol,
    }),
  ])
  const after = mintView(world, mint).extensions.find((entry) => entry.extension === 'tokenMetadata') as
    | Extract<UiExtension, { extension: 'tokenMetadata' }>
    | undefined
  return {
    ...landed(world, signature),
    before: { name: state.name, symbol: state.symbol, where: 'token-2022 metadata extension' },
    after: { name: after?.state.name, symbol: after?.state.symbol, where: 'token-2022 metadata extension' },
  }
}

/**
 * The Metaplex Token Metadata program cannot run offline (scenarios write its accounts with setAccount):
 * the update authority signs a real transaction that writes to the metadata account (a lamport transfer
 * into it), and the account's new data is written in the same slot.
 */
async function renameMetaplex(world: World, mint: string, name: string, symbol: string): Promise<RugOutcome> {
  const [pda] = await findMetadataAddress(address(mint))
  const account = world.chain.getAccount(pda)
  const current = account ? decodeMetadata(account.data) : undefined
  if (!account || !current) throw new RugRefusal('NOT_POSSIBLE', `${mint} has no metadata to rename`)
  if (!current.isMutable) throw new RugRefusal('NOT_POSSIBLE', `the metadata of ${mint} is immutable`)
  const authority = await keyOf(world, current.updateAuthority, 'metadata update authority', mint)
  const data = encodeMetadataAccount({ ...current, data: { ...current.data, name, symbol } })
  const rent = world.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))
  world.chain.setAccount({ ...account, data, lamports: lamports(BigInt(account.lamports)) })
  const topUp = rent > BigInt(account.lamports) ? rent - BigInt(account.lamports) : 1n
  const signature = await world.run(authority, [
    getTransferSolInstruction({ source: authority, destination: pda as Address, amount: lamports(topUp) }),
  ])
  return {
    ...landed(world, signature),
    before: { name: current.data.name, symbol: current.data.symbol, where: `metaplex metadata ${pda}` },
    after: { name, symbol, where: `metaplex metadata ${pda}` },
    stateWritten: 'the metadata account data (Metaplex Token Metadata cannot run offline)',
  }
}

/**
 * Releases the LP locked in a Jupiter Lock escrow to its recipient: the escrow's schedule is rewritten
 * as fully claimed (setAccount: the lock program cannot run offline) and the LP tokens move out of the
 * escrow's token account in a real transfer, signed with the escrow's sandbox key where on mainnet the
 * lock program signs for its escrow.
 */
export async function unlockLp(world: World, mint: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const pool = mainPool(world, mint)
  if (!pool.lpMint) throw new RugRefusal('NOT_POSSIBLE', `pool ${pool.address} has no LP token`)
  const locked = lpAccounts(world, pool.lpMint).find(
    (holder) => world.chain.getAccount(holder.owner)?.programAddress === JUPITER_LOCK_PROGRAM_ADDRESS,
  )
  if (!locked) throw new RugRefusal('NOT_POSSIBLE', `no LP of pool ${pool.address} is locked`)
  const escrowAccount = world.chain.getAccount(locked.owner)!
  const escrow = decodeVestingEscrow(escrowAccount.data)
  if (!escrow) throw new RugRefusal('NOT_POSSIBLE', `${locked.owner} is not a vesting escrow the sandbox reads`)
  const escrowKey = await keyOf(world, locked.owner, 'escrow', mint)
  const recipient = await keyOf(world, escrow.recipient, 'escrow recipient', mint)
  const now = BigInt(Math.floor(world.chain.unixS))
  const data = Uint8Array.from(escrowAccount.data).subarray(0, VESTING_ESCROW_SIZE)
  const view = new DataView(data.buffer, data.byteOffset)
  view.setBigUint64(144, now, true) // cliff_time: now
  view.setBigUint64(192, now, true) // vesting_start_time
  view.setBigUint64(184, locked.amount, true) // total_claimed_amount: all of it
  world.chain.setAccount({ ...escrowAccount, data })
  const lp = tokenOf(world, pool.lpMint)
  const destination = await world.ata(pool.lpMint, recipient.address)
  const { getCreateAssociatedTokenIdempotentInstruction } = await import('@solana-program/token')
  const signature = await world.run(recipient, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: recipient,
      ata: destination,
      owner: recipient.address,
      mint: address(pool.lpMint),
      tokenProgram: address(TOKEN_PROGRAM),
    }),
    getTransferCheckedInstruction({
      source: address(locked.key),
      mint: address(pool.lpMint),
      destination,
      authority: escrowKey,
      amount: locked.amount,
      decimals: lp.decimals,
    }),
  ])
  return {
    ...landed(world, signature),
    before: { escrow: locked.owner, locked: locked.amount.toString(), cliff_time: escrow.cliffTime.toString() },
    after: {
      escrow: locked.owner,
      locked: (await balanceOf(world, pool.lpMint, locked.owner)).toString(),
      cliff_time: now.toString(),
      released_to: recipient.address,
    },
    stateWritten: 'the escrow schedule (Jupiter Lock cannot run offline); the LP transfer is a real transaction',
  }
}

/**
 * Makes selling impossible: the freeze authority freezes the main pool's token vault, so every swap
 * through the pool fails on chain and the aggregator stand-in offers no route through it (Jupiter's
 * COULD_NOT_FIND_ANY_ROUTE). A mint without a freeze authority but with the Pausable extension is paused.
 */
export async function failSellRoute(world: World, mint: string): Promise<RugOutcome> {
  tokenOf(world, mint)
  const view = mintView(world, mint)
  const pool = mainPool(world, mint)
  if (view.freezeAuthority === null) {
    if (view.extensions.some((entry) => entry.extension === 'pausableConfig')) return setPaused(world, mint, true)
    throw new RugRefusal(
      'NOT_POSSIBLE',
      `${mint} has no freeze authority and no pause switch: its developer cannot block sells`,
    )
  }
  const before = { pool: pool.address, vault: pool.baseVault, state: accountState(world, pool.baseVault) }
  const signature = await freezeAccount(world, mint, pool.baseVault)
  return { ...landed(world, signature), before, after: { ...before, state: accountState(world, pool.baseVault) } }
}

export { NO_FEE_CAP }
