import { decodeDammV2Pool } from '../onchain/meteora-damm-v2.ts'
import { decodeLbPair } from '../onchain/meteora-dlmm.ts'
import { decodeWhirlpool } from '../onchain/orca-whirlpool.ts'
import {
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
} from '../onchain/programs.ts'
import { decodePumpPool } from '../onchain/pump-amm.ts'
import { decodeAmmInfo } from '../onchain/raydium-amm-v4.ts'
import { decodeCpmmPoolState } from '../onchain/raydium-cpmm.ts'
import type { TokenContext } from './token-context.ts'
import { mintDerivedAccounts, perAccount, readAccounts, type RawAccount } from './onchain-accounts.ts'
import type { PoolFact, PoolsFact } from './types.ts'

/** A pool account decoded, before its vaults and LP mint are read (reserves and LP supply come after). */
export type DecodedPool = Omit<PoolFact, 'baseReserve' | 'quoteReserve' | 'lp' | 'liquidityUsd'> & {
  /** Traditional AMMs: the LP mint and the LP the pool has minted (the reference for the burned share). */
  lp: { mint: string; minted: bigint } | null
}

type Decoder = (account: RawAccount) => Omit<DecodedPool, 'address' | 'program'> | undefined

/** The pool layouts we read, by owning program (src/onchain). */
const DECODERS: Record<string, Decoder> = {
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS]: (account) => {
    const pool = decodeAmmInfo(account.data)
    return (
      pool && {
        venue: 'Raydium AMM v4',
        model: 'TRADITIONAL_AMM',
        baseMint: pool.coinVaultMint,
        quoteMint: pool.pcVaultMint,
        baseVault: pool.coinVault,
        quoteVault: pool.pcVault,
        lp: { mint: pool.lpMint, minted: pool.lpAmount },
      }
    )
  },
  [RAYDIUM_CPMM_PROGRAM_ADDRESS]: (account) => {
    const pool = decodeCpmmPoolState(account.data)
    return (
      pool && {
        venue: 'Raydium CPMM',
        model: 'TRADITIONAL_AMM',
        baseMint: pool.token0Mint,
        quoteMint: pool.token1Mint,
        baseVault: pool.token0Vault,
        quoteVault: pool.token1Vault,
        lp: { mint: pool.lpMint, minted: pool.lpSupply },
      }
    )
  },
  [PUMP_AMM_PROGRAM_ADDRESS]: (account) => {
    const pool = decodePumpPool(account.data)
    return (
      pool && {
        venue: 'PumpSwap',
        model: 'TRADITIONAL_AMM',
        baseMint: pool.baseMint,
        quoteMint: pool.quoteMint,
        baseVault: pool.poolBaseTokenAccount,
        quoteVault: pool.poolQuoteTokenAccount,
        lp: { mint: pool.lpMint, minted: pool.lpSupply },
      }
    )
  },
  [ORCA_WHIRLPOOL_PROGRAM_ADDRESS]: (account) => {
    const pool = decodeWhirlpool(account.data)
    return (
      pool && {
        venue: 'Orca Whirlpool',
        model: 'CLMM_DLMM',
        baseMint: pool.tokenMintA,
        quoteMint: pool.tokenMintB,
        baseVault: pool.tokenVaultA,
        quoteVault: pool.tokenVaultB,
        lp: null,
      }
    )
  },
  [METEORA_DLMM_PROGRAM_ADDRESS]: (account) => {
    const pool = decodeLbPair(account.data)
    return (
      pool && {
        venue: 'Meteora DLMM',
        model: 'CLMM_DLMM',
        baseMint: pool.tokenXMint,
        quoteMint: pool.tokenYMint,
        baseVault: pool.reserveX,
        quoteVault: pool.reserveY,
        lp: null,
      }
    )
  },
  [METEORA_DAMM_V2_PROGRAM_ADDRESS]: (account) => {
    const pool = decodeDammV2Pool(account.data)
    // DAMM v2 liquidity sits in position NFTs, as on a CLMM: no fungible LP to burn.
    return (
      pool && {
        venue: 'Meteora DAMM v2',
        model: 'CLMM_DLMM',
        baseMint: pool.tokenAMint,
        quoteMint: pool.tokenBMint,
        baseVault: pool.tokenAVault,
        quoteVault: pool.tokenBVault,
        lp: null,
      }
    )
  },
}

/** A pool account decoded by its program's layout (undefined for another program's), once per answer. */
const decodedPool = perAccount((account) => DECODERS[account.owner]?.(account))

/** Programs whose accounts are pools (their PDAs own pool vaults). */
export const POOL_PROGRAMS: ReadonlySet<string> = new Set(Object.keys(DECODERS))

/**
 * The pool accounts of the token, decoded: every pair the market lists plus the canonical PumpSwap
 * pool derived from the mint. Shared by `pools` and `holders` (which excludes pool vaults).
 */
export function decodedPools(facts: TokenContext): Promise<DecodedPool[]> {
  return facts.shared('decoded-pools', async () => {
    const [market, derived] = await Promise.all([facts.fact('market'), mintDerivedAccounts(facts)])
    const candidates = new Set(market?.pairs.map((pair) => pair.pairAddress) ?? [])
    candidates.delete(derived.addresses.pumpSwapPool)
    const listed = await readAccounts(facts, [...candidates])
    const accounts = [...listed, derived.pumpSwapPool]
    const pools: DecodedPool[] = []
    for (const account of accounts) {
      if (!account) continue
      const decoded = decodedPool(account)
      if (decoded && (decoded.baseMint === facts.mint || decoded.quoteMint === facts.mint))
        pools.push({ ...decoded, address: account.address, program: account.owner })
    }
    if (!market && pools.length === 0) throw new Error('market data is missing and no pool was found on chain')
    return pools
  })
}

const TOKEN_AMOUNT_OFFSET = 64
const MINT_SUPPLY_OFFSET = 36

/** Reserves from the vaults and, for traditional AMMs, the LP supply still in circulation. */
export async function loadPools(facts: TokenContext): Promise<PoolsFact> {
  const [decoded, market] = await Promise.all([decodedPools(facts), facts.fact('market')])
  const addresses = decoded.flatMap((pool) => [pool.baseVault, pool.quoteVault, ...(pool.lp ? [pool.lp.mint] : [])])
  const accounts = new Map(
    (await readAccounts(facts, [...new Set(addresses)])).flatMap((account) =>
      account ? [[account.address, account]] : [],
    ),
  )
  const u64 = (address: string, offset: number): bigint | null => {
    const account = accounts.get(address)
    if (!account || account.data.length < offset + 8) return null
    return new DataView(account.data.buffer, account.data.byteOffset).getBigUint64(offset, true)
  }
  const pools = decoded.map((pool): PoolFact => {
    const supply = pool.lp ? u64(pool.lp.mint, MINT_SUPPLY_OFFSET) : null
    const pair = market?.pairs.find((entry) => entry.pairAddress === pool.address)
    return {
      ...pool,
      baseReserve: u64(pool.baseVault, TOKEN_AMOUNT_OFFSET),
      quoteReserve: u64(pool.quoteVault, TOKEN_AMOUNT_OFFSET),
      lp:
        pool.lp && supply !== null
          ? { mint: pool.lp.mint, minted: pool.lp.minted, supply, burnedPct: burnedPct(pool.lp.minted, supply) }
          : null,
      liquidityUsd: pair?.liquidity?.usd ?? null,
    }
  })
  return { pools }
}

/** Share of the LP the pool minted that no longer exists (burned), percent, 0–100. */
export function burnedPct(minted: bigint, supply: bigint): number {
  if (minted <= 0n) return 0
  const burned = minted > supply ? minted - supply : 0n
  return Math.round((Number(burned) / Number(minted)) * 10_000) / 100
}
