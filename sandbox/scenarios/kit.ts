import { lamports, type Address, type Instruction, type KeyPairSigner } from '@solana/kit'
import type { MintExtensionName } from '../token/extension-types.ts'
import {
  getInitializeMetadataPointerInstruction,
  getInitializeTokenMetadataInstruction,
  getMintSizeWithExtensions,
  type TokenMetadataFields,
} from '../token/instructions.ts'
import { trusted as address } from '../world/addresses.ts'
import { encodeMetadataAccount, findMetadataAddress } from '../../src/onchain/metaplex-metadata.ts'
import { TOKEN_METADATA_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import type { Pool } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import { solToLamports, type World } from '../world/world.ts'
import { HOUR, type Random, type Timeline } from './timeline.ts'

/** What every scenario is given to schedule its steps. */
export interface ScenarioContext {
  world: World
  timeline: Timeline
  /** Boot time (Unix s): "now" for the world's history. */
  now: number
  random: Random
  /** The sandbox's USDC mint and the SOL/USDC pool that prices SOL. */
  base: { usdc: string; solUsdcPool: () => Pool }
}

/** A named, deterministic world that shows one or more risks to a scanner. */
export interface Scenario {
  name: string
  title: string
  /** What a scanner should see, in a sentence. */
  description: string
  /** The signals it is built to trigger (or, for clean tokens, to pass). */
  traits: string[]
  /** Schedules the scenario's steps on the timeline; resolves to its token's mint and its wallets of note. */
  schedule(ctx: ScenarioContext): Promise<{ mint: string; wallets?: ScenarioWallet[] }>
}

/** A wallet of a scenario with a known record (what POST /wallet/intel should find). */
export interface ScenarioWallet {
  role: 'profitable-trader' | 'sniper-bot' | 'rugger'
  /** The world signer's name (its address is derived from it). */
  name: string
  record: string
}

/** The mint address a scenario's token will have (derived from its key before anything runs). */
export async function mintAddress(world: World, key: string): Promise<Address> {
  return (await world.signer(`mint:${key}`)).address
}

type MetadataFields = { name: string; symbol: string; uri: string; updateAuthority: string; isMutable: boolean }

/** The Metaplex metadata account of `mint`: its PDA and data. */
async function metadataAccount(mint: string, fields: MetadataFields) {
  const [pda] = await findMetadataAddress(address(mint))
  const data = encodeMetadataAccount({
    updateAuthority: address(fields.updateAuthority),
    mint: address(mint),
    data: { name: fields.name, symbol: fields.symbol, uri: fields.uri, sellerFeeBasisPoints: 0, creators: null },
    primarySaleHappened: false,
    isMutable: fields.isMutable,
    editionNonce: null,
    tokenStandard: 'Fungible',
    collection: null,
    uses: null,
    collectionDetails: null,
    programmableConfig: null,
  })
  return { pda, data }
}

/**
 * Writes Metaplex metadata at the mint's metadata PDA (the Token Metadata program cannot run offline):
 * name, symbol, URI, update authority and whether it may still change.
 */
export async function writeMetadata(world: World, mint: string, fields: MetadataFields): Promise<void> {
  const { pda, data } = await metadataAccount(mint, fields)
  world.chain.setAccount({
    address: pda,
    lamports: lamports(world.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    data,
    programAddress: TOKEN_METADATA_PROGRAM_ADDRESS,
    executable: false,
  })
}

/**
 * A Token-2022 mint's `token2022` spec for World.createMint when it carries its metadata on the mint
 * itself: `extensions` (named in `names`, in order) then the metadata pointer to the mint, and after
 * InitializeMint2 the metadata, both under `authority`. The metadata reallocates the mint, so the
 * account is funded for it up front.
 */
export function token2022WithMetadata(
  names: readonly MintExtensionName[],
  metadata: TokenMetadataFields,
  authority: KeyPairSigner,
  extensions: (mint: Address) => Instruction[],
) {
  const all = [...names, 'metadataPointer'] as const
  return {
    space: getMintSizeWithExtensions(all),
    fundedSpace: getMintSizeWithExtensions(all, metadata),
    extensions: (mint: Address) => [
      ...extensions(mint),
      getInitializeMetadataPointerInstruction({ mint, authority: authority.address, metadataAddress: mint }),
    ],
    after: (mint: Address) => [
      getInitializeTokenMetadataInstruction({
        mint,
        updateAuthority: authority.address,
        mintAuthority: authority,
        ...metadata,
      }),
    ],
  }
}

export interface LaunchSpec {
  key: string
  name: string
  symbol: string
  decimals: number
  /** Whole tokens minted to the developer. */
  supply: number
  dev: KeyPairSigner
  /** What happens to the authorities right after the mint: kept live or revoked. */
  mintAuthority: 'keep' | 'revoke'
  freezeAuthority: 'none' | 'keep' | 'revoke'
  metadata: { mutable: boolean }
  tags?: string[]
}

/** Creates the token, mints its supply to the developer, writes metadata and sets the authorities. */
export async function launch(world: World, spec: LaunchSpec): Promise<Address> {
  const fields = {
    name: spec.name,
    symbol: spec.symbol,
    uri: `https://sandbox.solsentry.invalid/${spec.key}.json`,
    updateAuthority: spec.dev.address,
    isMutable: spec.metadata.mutable,
  }
  // The metadata account is created in the mint's own transaction, as Metaplex's create does: its
  // history starts with the token's creation.
  const metadata = await metadataAccount(await mintAddress(world, spec.key), fields)
  const mint = await world.createMint(
    {
      key: spec.key,
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      mintAuthority: spec.dev,
      freezeAuthority: spec.freezeAuthority === 'none' ? null : spec.dev.address,
      tags: spec.tags,
      alongside: [
        {
          address: metadata.pda,
          lamports: world.chain.svm.minimumBalanceForRentExemption(BigInt(metadata.data.length)),
        },
      ],
    },
    spec.dev,
  )
  await world.mintTo(mint, spec.dev.address, units(spec.supply, spec.decimals), spec.dev)
  await writeMetadata(world, mint, fields)
  if (spec.mintAuthority === 'revoke') await world.setMintAuthority(mint, 'mint', spec.dev, null)
  if (spec.freezeAuthority === 'revoke') await world.setMintAuthority(mint, 'freeze', spec.dev, null)
  return mint
}

/** Whole `amount` in atomic units of a token with `decimals`. */
export function units(amount: number, decimals: number): bigint {
  return BigInt(Math.round(amount * 10 ** Math.min(decimals, 6))) * 10n ** BigInt(Math.max(decimals - 6, 0))
}

export interface TapeSpec {
  pool: () => Pool
  /** Wallet names: each trader is derived and funded on first use. */
  traders: string[]
  /** SOL each trader is funded with before its first trade. */
  traderSol: number
  from: number
  to: number
  count: number
  /** Trade size range in SOL (quote side for buys, the equivalent in tokens for sells). */
  sizeSol: [number, number]
  /** Probability that a trade is a buy. */
  buyShare: number
  label: string
}

/**
 * Schedules a trade tape: `count` swaps at random times in [from, to), by random traders, sized at
 * random in `sizeSol`. Sells sell what the trader holds (up to the drawn size); a trader with nothing
 * to sell buys instead, so every scheduled step is a real trade.
 */
export function scheduleTape(ctx: ScenarioContext, spec: TapeSpec): void {
  const funded = new Set<string>()
  const times = Array.from({ length: spec.count }, () => ctx.random.between(spec.from, spec.to)).sort((a, b) => a - b)
  for (const at of times) {
    const trader = ctx.random.pick(spec.traders)
    const size = ctx.random.between(spec.sizeSol[0], spec.sizeSol[1])
    const wantsBuy = ctx.random.next() < spec.buyShare
    ctx.timeline.at(at, spec.label, async () => {
      const world = ctx.world
      const wallet = await world.wallet(trader, funded.has(trader) ? 0 : spec.traderSol)
      funded.add(trader)
      await trade(world, wallet, spec.pool(), wantsBuy ? 'buy' : 'sell', size)
    })
  }
}

/** Buys with `sizeSol` of the quote, or sells up to `sizeSol` worth of the base the wallet holds. */
export async function trade(
  world: World,
  wallet: KeyPairSigner,
  pool: Pool,
  side: 'buy' | 'sell',
  sizeSol: number,
): Promise<void> {
  const quoteAmount = quoteUnits(world, pool, sizeSol)
  if (side === 'sell') {
    const held = await holding(world, pool.baseMint, wallet.address)
    const price = world.pools.spotPrice(pool)
    const wanted = price > 0 ? units(sizeSol / solPerQuote(world, pool) / price, pool.baseDecimals) : 0n
    const amount = held < wanted ? held : wanted
    if (amount > 0n) {
      await world.swap(wallet, pool, pool.baseMint, amount)
      return
    }
  }
  if (pool.quoteMint === NATIVE_MINT) {
    // A trader short of SOL tops up first (the faucet stands in for an exchange withdrawal).
    const needed = quoteAmount + TRADE_FEE_RESERVE_LAMPORTS
    const balance = world.chain.getBalance(wallet.address)
    if (balance < needed) await world.fund(wallet.address, Number(needed - balance) / 1e9 + 1)
  }
  await world.swap(wallet, pool, pool.quoteMint, quoteAmount)
}

/** SOL a trader keeps for fees and the rent of the accounts a swap opens. */
const TRADE_FEE_RESERVE_LAMPORTS = 20_000_000n

/** How many SOL one unit of the pool's quote is worth (1 for SOL pools; the SOL price for USDC pools). */
function solPerQuote(world: World, pool: Pool): number {
  if (pool.quoteMint === NATIVE_MINT) return 1
  const solPool = world.pools.all().find((p) => p.baseMint === NATIVE_MINT && p.quoteMint === pool.quoteMint)
  return solPool ? 1 / world.pools.spotPrice(solPool) : 1
}

function quoteUnits(world: World, pool: Pool, sizeSol: number): bigint {
  if (pool.quoteMint === NATIVE_MINT) return solToLamports(sizeSol)
  return units(sizeSol / solPerQuote(world, pool), pool.quoteDecimals)
}

/** A wallet's balance of `mint` (0 when it has no associated account). */
export async function holding(world: World, mint: string, owner: string): Promise<bigint> {
  const account = world.chain.getAccount(await world.ata(mint, owner))
  if (!account) return 0n
  return new DataView(account.data.buffer, account.data.byteOffset).getBigUint64(64, true)
}

/** Spreads `count` holders over [from, to): each gets `amount(i)` whole tokens from the `source` wallet. */
export function scheduleHolders(
  ctx: ScenarioContext,
  spec: {
    mint: () => string
    source: string
    prefix: string
    count: number
    amount: (index: number) => number
    from: number
    to: number
  },
): void {
  for (let i = 0; i < spec.count; i++) {
    const at = spec.from + ((spec.to - spec.from) * i) / Math.max(1, spec.count)
    ctx.timeline.at(at, `${spec.prefix} holder ${i}`, async () => {
      const holder = await ctx.world.signer(`${spec.prefix}:holder-${i}`)
      const mint = spec.mint()
      await ctx.world.transfer(
        mint,
        await ctx.world.signer(spec.source),
        holder.address,
        units(spec.amount(i), ctx.world.token(mint).decimals),
      )
    })
  }
}

export { HOUR, NATIVE_MINT }
