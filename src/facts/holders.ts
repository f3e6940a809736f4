import type { Address } from '@solana/kit'
import {
  BURN_ADDRESSES,
  PUMP_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_AUTHORITY_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from '../onchain/programs.ts'
import { FactUnavailable, need, type TokenContext } from './token-context.ts'
import { readAccounts, tokenAccountOwner } from './onchain-accounts.ts'
import { decodedPools, POOL_PROGRAMS } from './pools.ts'
import type { HolderAccount, HolderKind, HoldersFact } from './types.ts'

/** Token-lock programs: tokens their PDAs hold are locked, not circulating (jup-ag docs: Jupiter Lock mainnet id). */
export const LOCKER_PROGRAMS: ReadonlySet<string> = new Set(['LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn'])
/** Owners that are pool authorities rather than pool accounts (shared by every pool of the venue). */
const POOL_AUTHORITIES: ReadonlySet<string> = new Set([RAYDIUM_AMM_V4_AUTHORITY_ADDRESS])
const BURNS: ReadonlySet<string> = new Set(BURN_ADDRESSES)
/** Programs whose PDAs hold a token's liquidity: the pool programs and pump.fun's bonding curves. */
const LIQUIDITY_PROGRAMS: ReadonlySet<string> = new Set([...POOL_PROGRAMS, PUMP_PROGRAM_ADDRESS])
const TOP_WALLETS = 10

/**
 * The largest token accounts resolved to their owners and classified: pool vaults (a known vault, an
 * owner that is a pool account or pool authority), burn addresses, lockers (an owner that is a PDA of
 * a lock program) and wallets. Concentration counts wallets only, grouped by owner.
 */
export async function loadHolders(facts: TokenContext): Promise<HoldersFact> {
  // A provider known to refuse the largest accounts is not asked again (each call is rate budget).
  if (facts.sources.solana?.refuses('getTokenLargestAccounts')) {
    const fromList = await holdersFromTokenList(facts)
    if (fromList) return fromList
    throw new FactUnavailable('the RPC refuses getTokenLargestAccounts and the token list publishes no top holders')
  }
  try {
    return await holdersOnChain(facts)
  } catch (error) {
    // The public endpoint refuses getTokenLargestAccounts (-32010), a rate limit or an outage may
    // too: the token list's audit is the next source; without it the fact is missing.
    if (error instanceof FactUnavailable) throw error
    const fromList = await holdersFromTokenList(facts)
    if (fromList) return fromList
    throw error
  }
}

/** The holders fact from the token list's audit, when it publishes a top holders' share. */
async function holdersFromTokenList(facts: TokenContext): Promise<HoldersFact | undefined> {
  const [list, mint] = await Promise.all([facts.fact('token_list'), facts.fact('mint')])
  if (list?.topHoldersPct === null || list?.topHoldersPct === undefined) return undefined
  return {
    source: 'token_list',
    supply: mint?.supply ?? 0n,
    accounts: [],
    top10WalletPct: Math.round(list.topHoldersPct * 100) / 100,
    excludedPct: 0,
  }
}

async function holdersOnChain(facts: TokenContext): Promise<HoldersFact> {
  const [{ value: largest }, mint] = await Promise.all([
    facts.rpc.getTokenLargestAccounts(facts.mint as Address).send(),
    need(facts, 'mint'),
  ])
  if (mint.supply === 0n) throw new FactUnavailable('the supply is zero')
  const [tokenAccounts, pools] = await Promise.all([
    readAccounts(
      facts,
      largest.map((entry) => entry.address),
    ),
    decodedPools(facts).catch(() => []),
  ])
  const owners = tokenAccounts.map((account) =>
    account && (account.owner === TOKEN_PROGRAM_ADDRESS || account.owner === TOKEN_2022_PROGRAM_ADDRESS)
      ? tokenAccountOwner(account)
      : null,
  )
  const ownerAccounts = await readAccounts(facts, [
    ...new Set(owners.filter((owner): owner is string => owner !== null)),
  ])
  const ownerProgram = new Map(ownerAccounts.flatMap((account) => (account ? [[account.address, account.owner]] : [])))
  const vaults = new Set(pools.flatMap((pool) => [pool.baseVault, pool.quoteVault]))
  const poolAddresses = new Set(pools.map((pool) => pool.address))

  const classify = (address: string, owner: string | null): HolderKind => {
    if (owner === null) return 'wallet'
    if (BURNS.has(owner)) return 'burn'
    if (vaults.has(address) || poolAddresses.has(owner) || POOL_AUTHORITIES.has(owner)) return 'pool'
    const program = ownerProgram.get(owner)
    if (program && LIQUIDITY_PROGRAMS.has(program)) return 'pool'
    if (program && LOCKER_PROGRAMS.has(program)) return 'locker'
    return 'wallet'
  }
  const accounts: HolderAccount[] = largest.map((entry, index) => {
    const amount = BigInt(entry.amount)
    const owner = owners[index] ?? null
    return {
      address: entry.address,
      owner,
      amount,
      pct: pct(amount, mint.supply),
      kind: classify(entry.address, owner),
    }
  })
  const byOwner = new Map<string, bigint>()
  for (const account of accounts)
    if (account.kind === 'wallet')
      byOwner.set(
        account.owner ?? account.address,
        (byOwner.get(account.owner ?? account.address) ?? 0n) + account.amount,
      )
  const topWallets = [...byOwner.values()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)).slice(0, TOP_WALLETS)
  const excluded = accounts
    .filter((account) => account.kind !== 'wallet')
    .reduce((sum, account) => sum + account.amount, 0n)
  return {
    source: 'rpc',
    supply: mint.supply,
    accounts,
    top10WalletPct: pct(
      topWallets.reduce((sum, amount) => sum + amount, 0n),
      mint.supply,
    ),
    excludedPct: pct(excluded, mint.supply),
  }
}

/** Percent with two decimals. */
function pct(part: bigint, whole: bigint): number {
  return whole === 0n ? 0 : Number((part * 10_000n) / whole) / 100
}

/**
 * Every holder account of the mint, counted with getProgramAccounts (data sliced away). Public RPCs
 * refuse this on the token programs; then the fact is missing, not zero.
 */
export async function loadHolderCount(facts: TokenContext): Promise<number> {
  // The token programs' accounts are kept out of the same secondary indexes: refused alike.
  if (facts.sources.solana?.refuses('getTokenLargestAccounts') || facts.sources.solana?.refuses('getProgramAccounts'))
    throw new FactUnavailable("the RPC refuses the token programs' account indexes (getProgramAccounts)")
  const mint = await need(facts, 'mint')
  const program = (mint.program === 'spl-token-2022' ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS) as Address
  const accounts = await facts.rpc
    .getProgramAccounts(program, {
      encoding: 'base64',
      dataSlice: { offset: 64, length: 8 },
      filters: [{ memcmp: { offset: 0n, bytes: facts.mint as never, encoding: 'base58' } }],
    })
    .send()
  // Holders are accounts with a balance; empty accounts left behind are not holders.
  return accounts.filter((entry) => Buffer.from(entry.account.data[0], 'base64').readBigUInt64LE(0) > 0n).length
}
