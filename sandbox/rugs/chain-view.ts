/**
 * What the rug controls read before and after they act, and whose key signs: a mint as getAccountInfo's
 * jsonParsed shows it, the token's main pool, its holders, and the world's key for an authority.
 */

import { getFreezeAccountInstruction } from '@solana-program/token'
import type { KeyPairSigner } from '@solana/kit'
import { base58Encode } from '../chain/base58.ts'
import { readMint, readTokenAccount } from '../chain/token-balances.ts'
import { accountParser } from '../rpc/parsers.ts'
import type { UiExtension } from '../token/extensions.ts'
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

/** The mint's base fields and, for Token-2022, its extensions as getAccountInfo's jsonParsed shows them. */
export function mintView(world: World, mint: string) {
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
export function extension<N extends WithState['extension']>(world: World, mint: string, name: N): ExtensionStates[N] {
  const found = mintView(world, mint).extensions.find((entry) => entry.extension === name)
  if (!found) throw new RugRefusal('NOT_POSSIBLE', `mint ${mint} has no ${name} extension`)
  return (found as unknown as { state: ExtensionStates[N] }).state
}

/** The world's key for an authority, or a refusal naming what is missing. */
export async function keyOf(
  world: World,
  authority: string | null,
  what: string,
  mint: string,
): Promise<KeyPairSigner> {
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

export function landed(world: World, signature: string): { signature: string; slot: bigint } {
  const stored = world.chain.getTransaction(signature)
  if (!stored) throw new Error(`transaction ${signature} was not stored`)
  if (stored.meta.err !== null) throw new Error(`transaction ${signature} failed: ${JSON.stringify(stored.meta.err)}`)
  return { signature, slot: stored.slot }
}

export function tokenOf(world: World, mint: string) {
  const token = world.tokens.get(mint)
  if (!token) throw new RugRefusal('UNKNOWN_MINT', `${mint} is not a token of the sandbox`)
  return token
}

/** The token's deepest pool that can still swap (most quote reserves). */
export function mainPool(world: World, mint: string): Pool {
  const pools = world.pools
    .poolsOf(mint)
    .filter((pool) => pool.baseMint === mint)
    .sort((a, b) => Number(world.pools.realReserves(b).quote - world.pools.realReserves(a).quote))
  if (pools.length === 0) throw new RugRefusal('NOT_POSSIBLE', `${mint} has no pool on the sandbox`)
  return pools[0]!
}

export async function balanceOf(world: World, mint: string, owner: string): Promise<bigint> {
  const account = world.chain.getAccount(await world.ata(mint, owner))
  return account ? readTokenAccount(account.data).amount : 0n
}

export function reservesOf(world: World, pool: Pool) {
  const { base, quote } = world.pools.realReserves(pool)
  return { pool: pool.address, base_reserve: base.toString(), quote_reserve: quote.toString() }
}

/** The LP token accounts of a pool with a balance, by owner. */
export function lpAccounts(world: World, lpMint: string) {
  return world.chain
    .tokenAccountsOfMint(lpMint)
    .map((key) => ({ key, ...readTokenAccount(world.chain.getAccount(key)!.data) }))
    .filter((account) => account.amount > 0n)
}

/** `percent` of an amount, rounded down. */
export function share(amount: bigint, percent: number): bigint {
  return (amount * BigInt(Math.round(percent * 10_000))) / 1_000_000n
}

/**
 * The token account a holder-directed event targets: `holder` (a wallet or one of its token accounts),
 * else the largest holder that is neither the developer nor a pool vault.
 */
export async function holderAccount(
  world: World,
  mint: string,
  holder?: string,
): Promise<{ account: string; owner: string }> {
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

export const STATES = ['uninitialized', 'initialized', 'frozen'] as const
export function accountState(world: World, account: string): string {
  return STATES[readTokenAccount(world.chain.getAccount(account)!.data).state] ?? 'unknown'
}

export async function freezeAccount(world: World, mint: string, account: string): Promise<string> {
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
