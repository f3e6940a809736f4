/**
 * A watched token's snapshot: what the position guard compares from one change to the next (mint and
 * its Token-2022 extensions, metadata and whether it now reads as a registered asset, pools' reserves,
 * LP supply and the LP held by locks and burn addresses, developer and top holders' balances).
 *
 * Two steps. `discoverSubject` finds, once per watch and through the facts every scan reads
 * (src/facts: mint, metadata, pools, lp_locks, holders, launch, launchpad, issuer, token_list,
 * known_assets), which accounts make the snapshot: the plan. `readSnapshot` then reads those accounts
 * in one getMultipleAccounts (jsonParsed), with `minContextSlot` set to the slot of the change that
 * asked for it — the node answers with state at least as new as that change, and the read is not the
 * answer the source cached for a scan seconds earlier (its key differs by that slot).
 */
import type { Address, Rpc, SolanaRpcApi } from '@solana/kit'
import { assetKey, lookalikeKeys } from '../../src/facts/known-assets.ts'
import { mintOfAccount } from '../../src/facts/mint.ts'
import { withFacts, type Sources } from '../../src/facts/index.ts'
import { decodeMetadata, findMetadataAddress } from '../../src/onchain/metaplex-metadata.ts'
import type { SolanaSource } from '../../src/sources/solana-rpc.ts'
import { CallMeter } from '../../src/sources/upstream.ts'

export interface SnapshotLock {
  /** The token account holding the LP. */
  account: string
  owner: string | null
  kind: 'locker' | 'burn'
  program: string | null
  permanent: boolean
  /** Unix seconds; null for a permanent lock or one not dated. */
  unlocksAt: number | null
  amount: bigint
}

export interface SnapshotPool {
  address: string
  venue: string
  quoteMint: string
  /** The watched token's side and the other side, in atomic units. */
  tokenReserve: bigint | null
  quoteReserve: bigint | null
  lp: { mint: string; supply: bigint | null } | null
  locks: SnapshotLock[]
}

export interface SnapshotInsider {
  wallet: string
  role: 'developer' | 'top_holder'
  /** The token account read. */
  account: string
  amount: bigint
}

export interface SubjectSnapshot {
  mint: string
  /** The slot the read reflects (the RPC's context slot). */
  slot: number
  /** When it was read, ms since epoch. */
  readAt: number
  token: {
    supply: bigint
    mintAuthority: string | null
    freezeAuthority: string | null
    transferFee: { basisPoints: number; newerBasisPoints: number; maximumFee: bigint } | null
    transferHook: string | null
    permanentDelegate: string | null
    defaultAccountState: 'initialized' | 'frozen' | null
    /** null when the mint has no pausable extension. */
    paused: boolean | null
  }
  metadata: { name: string; symbol: string; uri: string } | null
  /** The registered or verified asset the metadata now reads as, or null. */
  impersonates: { mint: string; symbol: string; name: string } | null
  pools: SnapshotPool[]
  insiders: SnapshotInsider[]
}

/** Which accounts make a subject's snapshot, found once per watch. */
export interface SubjectPlan {
  mint: string
  /** The Metaplex metadata PDA (read; when absent the Token-2022 metadata extension is the metadata). */
  metadataAddress: string
  pools: {
    address: string
    venue: string
    quoteMint: string
    tokenVault: string
    quoteVault: string
    lpMint: string | null
    locks: Omit<SnapshotLock, 'amount'>[]
  }[]
  insiders: Omit<SnapshotInsider, 'amount'>[]
  /** What the metadata could be a copy of; empty for a token itself registered or verified. */
  lookalikeTargets: { mint: string; symbol: string; name: string }[]
}

/** The top holders followed besides the developer: the few whose sale moves the price. */
const TOP_HOLDERS_FOLLOWED = 5
/** getMultipleAccounts reads 100 accounts at most. */
const MAX_ACCOUNTS = 100

/**
 * Finds the plan of `mint` through the facts (under `deadlineMs`). The accounts a watch subscribes to
 * are `watchedAccounts(plan)`.
 */
export async function discoverSubject(mint: string, sources: Sources, deadlineMs: number): Promise<SubjectPlan> {
  return withFacts(mint, sources, Date.now() + deadlineMs, async (facts) => {
    const [pools, locks, holders, launch, launchpad, issuer, list, known] = await Promise.all([
      facts.fact('pools'),
      facts.fact('lp_locks'),
      facts.fact('holders'),
      facts.fact('launch'),
      facts.fact('launchpad'),
      facts.fact('issuer'),
      facts.fact('token_list'),
      facts.fact('known_assets'),
    ])
    const [metadataAddress] = await findMetadataAddress(mint as Address)
    const rpc = facts.rpc
    const planPools: SubjectPlan['pools'] = []
    for (const pool of pools?.pools ?? []) {
      const tokenIsBase = pool.baseMint === mint
      const lockFact = locks?.pools.find((entry) => entry.pool === pool.address)
      const planLocks: SubjectPlan['pools'][number]['locks'] = []
      if (lockFact && pool.lp) {
        // The lp_locks fact lists the LP's largest holders in the RPC's order: the same (cached) call
        // names their token accounts.
        const { value: largest } = await rpc.getTokenLargestAccounts(pool.lp.mint as Address).send()
        lockFact.holders.forEach((holder, index) => {
          const account = largest[index]?.address
          if (!account || holder.kind === 'wallet') return
          planLocks.push({
            account,
            owner: holder.owner,
            kind: holder.kind,
            program: holder.lock?.program ?? null,
            permanent: holder.lock?.permanent ?? holder.kind === 'burn',
            unlocksAt: holder.lock?.unlocksAt ?? null,
          })
        })
      }
      planPools.push({
        address: pool.address,
        venue: pool.venue,
        quoteMint: tokenIsBase ? pool.quoteMint : pool.baseMint,
        tokenVault: tokenIsBase ? pool.baseVault : pool.quoteVault,
        quoteVault: tokenIsBase ? pool.quoteVault : pool.baseVault,
        lpMint: pool.lp?.mint ?? null,
        locks: planLocks,
      })
    }
    const insiders: SubjectPlan['insiders'] = []
    const developer = launch?.creator ?? launchpad?.pumpFun?.creator ?? null
    if (developer) {
      const { value } = await rpc
        .getTokenAccountsByOwner(developer as Address, { mint: mint as Address }, { encoding: 'base64' })
        .send()
      for (const entry of value) insiders.push({ wallet: developer, role: 'developer', account: entry.pubkey })
    }
    const wallets = (holders?.accounts ?? []).filter((account) => account.kind === 'wallet')
    for (const holder of wallets.slice(0, TOP_HOLDERS_FOLLOWED))
      if (!insiders.some((insider) => insider.account === holder.address))
        insiders.push({ wallet: holder.owner ?? holder.address, role: 'top_holder', account: holder.address })
    // The real asset, or one the registry or the token list vouches for, is nobody's copy.
    const exempt = Boolean(issuer) || list?.verified === true
    const lookalikeTargets = exempt
      ? []
      : [...(known?.registry ?? []), ...(known?.verified ?? [])]
          .filter((asset) => asset.mint !== mint)
          .map(({ mint: assetMint, symbol, name }) => ({ mint: assetMint, symbol, name }))
    return { mint, metadataAddress, pools: planPools, insiders, lookalikeTargets }
  })
}

/** The accounts whose transactions change the snapshot: what the watch subscribes to (logs mentioning each). */
export function watchedAccounts(plan: SubjectPlan): string[] {
  return [
    ...new Set([
      plan.mint,
      plan.metadataAddress,
      ...plan.pools.map((pool) => pool.address),
      ...plan.pools.flatMap((pool) => pool.locks.map((lock) => lock.account)),
      ...plan.insiders.map((insider) => insider.account),
    ]),
  ]
}

/** The accounts one snapshot reads, in a fixed order. */
function accountsOf(plan: SubjectPlan): string[] {
  const all = [
    plan.mint,
    plan.metadataAddress,
    ...plan.pools.flatMap((pool) => [
      pool.tokenVault,
      pool.quoteVault,
      ...(pool.lpMint ? [pool.lpMint] : []),
      ...pool.locks.map((lock) => lock.account),
    ]),
    ...plan.insiders.map((insider) => insider.account),
  ]
  return [...new Set(all)].slice(0, MAX_ACCOUNTS)
}

type AccountAnswer = { data: unknown; owner: string } | null

/** A token account's or a mint's amount from its jsonParsed data (a mint's supply); null otherwise. */
function parsedAmount(account: AccountAnswer): bigint | null {
  const info = (account?.data as { parsed?: { info?: Record<string, unknown> } } | undefined)?.parsed?.info
  const amount = (info?.tokenAmount as { amount?: unknown } | undefined)?.amount ?? info?.supply
  return typeof amount === 'string' && /^\d+$/.test(amount) ? BigInt(amount) : null
}

/** Which registered or verified asset `metadata` reads as (case, look-alike letters, suffixes aside). */
export function lookalikeOf(
  metadata: { name: string; symbol: string } | null,
  targets: SubjectPlan['lookalikeTargets'],
): SubjectSnapshot['impersonates'] {
  if (!metadata) return null
  const symbols = lookalikeKeys(metadata.symbol)
  const names = lookalikeKeys(metadata.name)
  for (const target of targets) {
    const symbol = assetKey(target.symbol)
    const name = assetKey(target.name)
    if ((symbol !== null && symbols.includes(symbol)) || (name !== null && names.includes(name))) return target
  }
  return null
}

/**
 * The snapshot of `plan` now, or — with `minContextSlot` — at least as new as that slot (the RPC waits
 * for it or refuses; a refusal throws, and the engine reads again).
 */
export async function readSnapshot(
  solana: SolanaSource,
  plan: SubjectPlan,
  options: { minContextSlot?: number; meter?: CallMeter } = {},
): Promise<SubjectSnapshot> {
  const rpc: Rpc<SolanaRpcApi> = solana.rpc(options.meter ?? new CallMeter())
  const addresses = accountsOf(plan)
  const { context, value } = await rpc
    .getMultipleAccounts(addresses as Address[], {
      encoding: 'jsonParsed',
      ...(options.minContextSlot !== undefined ? { minContextSlot: BigInt(options.minContextSlot) } : {}),
    })
    .send()
  const byAddress = new Map(addresses.map((address, index) => [address, (value[index] ?? null) as AccountAnswer]))
  const mintAccount = byAddress.get(plan.mint)
  const mint = mintAccount ? mintOfAccount(mintAccount.data) : undefined
  if (!mint) throw new Error(`${plan.mint} is no longer a token mint`)
  const amountAt = (address: string | null) => (address === null ? null : parsedAmount(byAddress.get(address) ?? null))

  let metadata: SubjectSnapshot['metadata'] = null
  const metadataAccount = byAddress.get(plan.metadataAddress)
  const raw = (metadataAccount?.data as unknown[] | undefined)?.[0]
  const decoded = typeof raw === 'string' ? decodeMetadata(Buffer.from(raw, 'base64')) : undefined
  if (decoded) metadata = { name: decoded.data.name, symbol: decoded.data.symbol, uri: decoded.data.uri }
  else if (mint.extensions.tokenMetadata) {
    const { name, symbol, uri } = mint.extensions.tokenMetadata
    metadata = { name, symbol, uri }
  }
  const fee = mint.extensions.transferFee
  return {
    mint: plan.mint,
    slot: Number(context.slot),
    readAt: Date.now(),
    token: {
      supply: mint.supply,
      mintAuthority: mint.mintAuthority,
      freezeAuthority: mint.freezeAuthority,
      transferFee: fee
        ? { basisPoints: fee.basisPoints, newerBasisPoints: fee.newerBasisPoints, maximumFee: fee.maximumFee }
        : null,
      transferHook: mint.extensions.transferHook?.programId ?? null,
      permanentDelegate: mint.extensions.permanentDelegate,
      defaultAccountState: mint.extensions.defaultAccountState,
      paused: mint.extensions.pausable ? mint.extensions.pausable.paused : null,
    },
    metadata,
    impersonates: lookalikeOf(metadata, plan.lookalikeTargets),
    pools: plan.pools.map((pool) => ({
      address: pool.address,
      venue: pool.venue,
      quoteMint: pool.quoteMint,
      tokenReserve: amountAt(pool.tokenVault),
      quoteReserve: amountAt(pool.quoteVault),
      lp: pool.lpMint ? { mint: pool.lpMint, supply: amountAt(pool.lpMint) } : null,
      locks: pool.locks.map((lock) => ({ ...lock, amount: amountAt(lock.account) ?? 0n })),
    })),
    insiders: plan.insiders.map((insider) => ({ ...insider, amount: amountAt(insider.account) ?? 0n })),
  }
}

/** A snapshot as the store keeps it: JSON, its amounts (bigints) written as `{"$n": "<decimal>"}`. */
export function snapshotToJson(snapshot: SubjectSnapshot): string {
  return JSON.stringify(snapshot, (_key, value) => (typeof value === 'bigint' ? { $n: value.toString() } : value))
}

export function snapshotFromJson(text: string): SubjectSnapshot {
  return JSON.parse(text, (_key, value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof value.$n === 'string' &&
    Object.keys(value).length === 1 &&
    /^\d+$/.test(value.$n)
      ? BigInt(value.$n)
      : value,
  ) as SubjectSnapshot
}
