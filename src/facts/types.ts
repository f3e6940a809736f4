import type { LpLock } from '../onchain/locks.ts'
import type { IssuerEntry, IssuerKind } from '../onchain/issuers.ts'
import type { DexPair } from '../sources/dexscreener.ts'

/**
 * The facts a scan gathers, by the names that appear in `missing_fields`. Names are stable: they are
 * part of the wire contract and of docs/data-quality.md.
 */
export type FactName =
  | 'mint'
  | 'metadata'
  | 'token_list'
  | 'issuer'
  | 'holders'
  | 'holder_count'
  | 'pools'
  | 'launchpad'
  | 'market'
  | 'launch'
  | 'dev_history'
  | 'funding'
  | 'trades'
  | 'lp_locks'
  | 'known_assets'

export interface Facts {
  mint: MintFact
  metadata: MetadataFact
  token_list: TokenListFact
  /** The mint's entry in the issuer registry (src/onchain/issuers.ts), or null when it is not registered. */
  issuer: IssuerEntry | null
  holders: HoldersFact
  holder_count: number
  pools: PoolsFact
  launchpad: LaunchpadFact
  market: MarketFact
  launch: LaunchFact
  dev_history: DevHistoryFact
  funding: FundingFact
  trades: TradesFact
  lp_locks: LpLocksFact
  known_assets: KnownAssetsFact
}

/** The mint account: program, supply, authorities and every Token-2022 extension. */
export interface MintFact {
  program: 'spl-token' | 'spl-token-2022'
  supply: bigint
  decimals: number
  mintAuthority: string | null
  freezeAuthority: string | null
  extensions: MintExtensions
}

export interface MintExtensions {
  transferFee: {
    basisPoints: number
    maximumFee: bigint
    configAuthority: string | null
    newerBasisPoints: number
    newerEpoch: bigint
  } | null
  permanentDelegate: string | null
  transferHook: { programId: string | null; authority: string | null } | null
  nonTransferable: boolean
  defaultAccountState: 'initialized' | 'frozen' | null
  mintCloseAuthority: string | null
  pausable: { authority: string | null; paused: boolean } | null
  metadataPointer: { authority: string | null; metadataAddress: string | null } | null
  tokenMetadata: { name: string; symbol: string; uri: string; updateAuthority: string | null } | null
  /** Names of the other extensions present, as the RPC names them. */
  other: string[]
}

/** Name, symbol, URI and who can change them: Metaplex metadata, else the Token-2022 metadata extension. */
export interface MetadataFact {
  source: 'metaplex' | 'token-2022' | 'none'
  name: string | null
  symbol: string | null
  uri: string | null
  updateAuthority: string | null
  /** Whether the update authority may still change the metadata; null when there is no metadata. */
  isMutable: boolean | null
  /** The token's logo from the token list, else from the market data; null when neither has one. */
  logoUri: string | null
}

/** What the aggregator's token list says of the mint. */
export interface TokenListFact {
  listed: boolean
  verified: boolean
  tags: string[]
  logoUri: string | null
  /** Holders as the list counts them; null when it does not publish a count. */
  holderCount: number | null
  /** Share of the supply its top holders hold, 0–100 (Jupiter's audit: pools are not excluded); null if unpublished. */
  topHoldersPct: number | null
  /** The list's organic-trading score (0–100) and its label; null when unpublished. */
  organicScore: number | null
  organicScoreLabel: string | null
  /** Flagged suspicious by the list (Jupiter's `audit.isSus`, present only when flagged). */
  suspicious: boolean
  /**
   * The token's own USD price change per window, percent, as the list measures it over all its swaps;
   * null where unpublished. What prices a token that is only ever a pair's quote (USDC in SOL/USDC).
   */
  priceChangePct: Record<'m5' | 'h1' | 'h6' | 'h24', number | null>
  /** Centralised exchanges the list says trade it (Jupiter's `cexes`); empty when unpublished. */
  cexes: string[]
}

export type HolderKind = 'wallet' | 'pool' | 'burn' | 'locker'

export interface HolderAccount {
  /** The token account. */
  address: string
  owner: string | null
  amount: bigint
  /** Share of the supply, percent. */
  pct: number
  kind: HolderKind
}

/** The largest token accounts (up to 20), resolved to owners and classified. */
export interface HoldersFact {
  /**
   * Where the figures come from: `rpc`, the largest token accounts read on chain and classified; or
   * `token_list`, the aggregator's audit (when the RPC refuses getTokenLargestAccounts, as the public
   * endpoint does): its top holders' share, with no accounts and pools not excluded.
   */
  source: HoldersSource
  supply: bigint
  /** The largest accounts, classified (empty from the token list). */
  accounts: HolderAccount[]
  /**
   * Share of supply in the ten largest wallet owners (pools, burns and lockers excluded), percent; from
   * the token list, its top holders' share as published.
   */
  top10WalletPct: number
  /** Share of supply in pool vaults, burn addresses and lockers among the largest accounts (0 from the token list). */
  excludedPct: number
}

export type { PoolModel } from '../kernel/vocabulary.ts'
import type { DevWalletSource, HoldersSource, PoolModel } from '../kernel/vocabulary.ts'

export interface PoolFact {
  address: string
  /** Program that owns the pool account. */
  program: string
  venue: string
  model: PoolModel
  baseMint: string
  quoteMint: string
  baseVault: string
  quoteVault: string
  baseReserve: bigint | null
  quoteReserve: bigint | null
  /** Fungible LP of a traditional AMM: the LP the pool minted, what is left in circulation, the burned share. */
  lp: { mint: string; minted: bigint; supply: bigint; burnedPct: number } | null
  /** From the market data when the pair is listed there. */
  liquidityUsd: number | null
}

export interface PoolsFact {
  pools: PoolFact[]
}

/** Launchpad state read from the chain (not guessed from a DEX name). */
export interface LaunchpadFact {
  pumpFun: {
    bondingCurve: string
    complete: boolean
    realQuoteReserves: bigint
    creator: string | null
    /** The canonical PumpSwap pool the coin migrates to, when it exists. */
    graduatedPool: string | null
  } | null
}

/** Market data: every DexScreener pair of the token, the deepest first. */
export interface MarketFact {
  pairs: DexPair[]
}

/** One swap of the scanned token, read from a transaction's balance changes. */
export interface SwapRecord {
  signature: string
  slot: bigint
  blockTime: number | null
  /** `buy`: the wallet received the token. */
  side: 'buy' | 'sell'
  wallet: string
  tokenAmount: bigint
  quoteMint: string
  quoteAmount: bigint
}

/** How the token came to be. */
export interface LaunchFact {
  creationSignature: string
  /** The fee payer of the mint's first transaction: the developer wallet. */
  creator: string
  createdSlot: bigint
  createdAt: number | null
  /** The deepest pool (or the bonding curve) whose first trades are read. */
  mainPool: string | null
  poolOpenedSlot: bigint | null
  /** The first trades against the token's liquidity, oldest first. */
  firstTrades: SwapRecord[]
  /** False when the main pool's history was too long to reach its first transaction. */
  firstTradesComplete: boolean
}

/** The developer wallet's past: its SOL, the tokens it created, and liquidity it pulled. */
export interface DevHistoryFact {
  wallet: string
  /**
   * How the wallet is known: `creation`, the fee payer of the mint's first transaction; `launchpad`, the
   * creator a pump.fun bonding curve records — for a token whose creation could not be read (a history
   * longer than the pages walked, or the read failed).
   */
  walletSource: DevWalletSource
  solBalance: bigint
  /** Tokens this wallet created other than the scanned one, oldest first. */
  createdTokens: { mint: string; signature: string; at: number | null }[]
  /** Transactions in which the wallet took both sides of a pool's liquidity out. */
  liquidityPulls: { mint: string; signature: string; at: number | null }[]
  /** Earlier tokens of this wallet whose liquidity it pulled. */
  previousRugs: string[]
  /** What became of each earlier token: pulled by the wallet, and its market now (DexScreener). */
  earlierTokens: { mint: string; pulled: boolean; listed: boolean; liquidityUsd: number | null }[]
  /** Whether the wallet's whole history was read (else earlier creations may be unseen). */
  complete: boolean
}

/** Where wallets got their first SOL from: links between holders, early buyers and the developer. */
export interface FundingFact {
  wallets: { wallet: string; funder: string | null; amount: bigint; slot: bigint | null }[]
}

/** Recent swaps on the main pool, newest first, for the scanners' windows (5 m to 24 h). */
export interface TradesFact {
  pool: string | null
  swaps: SwapRecord[]
  /** The oldest time covered: trades before it were not read (the window may be incomplete). */
  coveredSince: number | null
  /** True when every trade of the last 24 hours was read. */
  complete24h: boolean
}

/** Who holds the LP of each traditional pool that still has LP in circulation. */
export interface LpLocksFact {
  pools: {
    pool: string
    lpMint: string
    /** Shares of the LP the pool minted, percent: burned, held by lock programs, by the largest other holder. */
    burnedPct: number
    lockedPct: number
    /** Of `lockedPct`, the share no instruction can ever release (Raydium Burn & Earn, Meteora lock escrows). */
    permanentLockedPct: number
    largestHolderPct: number
    /**
     * The time-locked shares, soonest first: days until each is fully released (0 when already due),
     * null when its lock could not be dated. Read when the fact was gathered.
     */
    unlocks: { inDays: number | null; pct: number; program: LpLock['program'] }[]
    holders: { owner: string | null; kind: 'locker' | 'burn' | 'wallet'; pct: number; lock: LpLock | null }[]
  }[]
}

/** An asset a token could pass itself off as: a registered issuer-controlled asset or a verified token. */
export interface KnownAsset {
  mint: string
  symbol: string
  name: string
  source: 'issuer_registry' | 'verified_list'
  /** The registry's issuer and kind; null for a token-list entry. */
  issuer: string | null
  kind: IssuerKind | null
}

/**
 * What a token could impersonate (src/facts/known-assets.ts): every asset of the issuer registry, and
 * the verified tokens the token list finds for the token's symbol.
 */
export interface KnownAssetsFact {
  registry: KnownAsset[]
  /**
   * The verified tokens found for the token's symbol; empty when there was nothing to search (no symbol,
   * or the token is itself registered or verified); null when the token list could not be searched.
   */
  verified: KnownAsset[] | null
}
