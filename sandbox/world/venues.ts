import { lamports, type Address, type FixedSizeCodec } from '@solana/kit'
import { trusted as address } from './addresses.ts'
import { findAssociatedTokenAddress } from '../../src/onchain/pda.ts'
import {
  findBondingCurveAddress,
  getBondingCurveCodec,
  BONDING_CURVE_DISCRIMINATOR,
  BONDING_CURVE_SIZE,
} from '../../src/onchain/pump.ts'
import {
  findPumpPoolAddress,
  findPumpPoolAuthorityAddress,
  getPumpPoolCodec,
  PUMP_POOL_DISCRIMINATOR,
  PUMP_POOL_SIZE,
} from '../../src/onchain/pump-amm.ts'
import { AMM_INFO_SIZE, AMM_STATUS, getAmmInfoCodec } from '../../src/onchain/raydium-amm-v4.ts'
import { getWhirlpoolCodec, WHIRLPOOL_DISCRIMINATOR, WHIRLPOOL_SIZE } from '../../src/onchain/orca-whirlpool.ts'
import { getLbPairCodec, LB_PAIR_DISCRIMINATOR, LB_PAIR_SIZE } from '../../src/onchain/meteora-dlmm.ts'
import {
  METEORA_DLMM_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  PUMP_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_AUTHORITY_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
} from '../../src/onchain/programs.ts'
import type { Pool, PoolKind } from './pool-book.ts'
import type { VenueWriter, World } from './world.ts'

/** pump.fun's curve constants (every coin starts with them): 1B supply, 6 decimals. */
export const PUMP_TOTAL_SUPPLY = 1_000_000_000_000_000n
export const PUMP_INITIAL_VIRTUAL_TOKENS = 1_073_000_000_000_000n
export const PUMP_INITIAL_VIRTUAL_SOL = 30_000_000_000n
/** Tokens kept back on the curve for the migration pool; the rest is sold along the curve. */
export const PUMP_RESERVED_TOKENS = 206_900_000_000_000n
/** Whirlpool fees are in hundredths of a basis point. */
const WHIRLPOOL_FEE_UNITS_PER_BPS = 100
const WHIRLPOOL_TICK_SPACING = 64
const DLMM_BIN_STEP = 25
/** Q64.64 fixed point of the whirlpool's sqrt price. */
const Q64 = 2 ** 64

/** A zero-filled value of an account codec (with its discriminator), to fill in. */
function blank<T>(codec: FixedSizeCodec<T>, size: number, discriminator?: ArrayLike<number>): T {
  const bytes = new Uint8Array(size)
  if (discriminator) bytes.set(Array.from(discriminator))
  return codec.decode(bytes)
}

function writeAccount(world: World, key: string, owner: Address, data: Uint8Array): void {
  world.chain.setAccount({
    address: key as Address,
    lamports: lamports(world.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    data,
    programAddress: owner,
    executable: false,
  })
}

/** Price of one atomic base unit in atomic quote units. */
function atomicPrice(world: World, pool: Pool): number {
  const { base, quote } = world.pools.pricingReserves(pool)
  return base === 0n ? 0 : Number(quote) / Number(base)
}

const raydiumAmmV4: VenueWriter = async (world, draft) => {
  const pool = (await world.signer(`${draft.key}:pool`)).address
  Object.assign(draft, { programId: RAYDIUM_AMM_V4_PROGRAM_ADDRESS, dexId: 'raydium', labels: [] })
  return {
    address: pool,
    vaultOwner: RAYDIUM_AMM_V4_AUTHORITY_ADDRESS,
    write(state, lpSupply) {
      const codec = getAmmInfoCodec()
      const info = blank(codec, AMM_INFO_SIZE)
      const fee = BigInt(state.feeBps)
      writeAccount(
        world,
        pool,
        RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
        new Uint8Array(
          codec.encode({
            ...info,
            status: AMM_STATUS.SwapOnly ?? AMM_STATUS.Initialized,
            coinDecimals: BigInt(state.baseDecimals),
            pcDecimals: BigInt(state.quoteDecimals),
            fees: {
              ...info.fees,
              tradeFeeNumerator: fee,
              tradeFeeDenominator: 10_000n,
              swapFeeNumerator: fee,
              swapFeeDenominator: 10_000n,
            },
            stateData: { ...info.stateData, poolOpenTime: BigInt(state.createdAtUnixS) },
            coinVault: address(state.baseVault),
            pcVault: address(state.quoteVault),
            coinVaultMint: address(state.baseMint),
            pcVaultMint: address(state.quoteMint),
            lpMint: address(state.lpMint ?? state.baseMint),
            lpAmount: lpSupply,
          }),
        ),
      )
    },
  }
}

const pumpswap: VenueWriter = async (world, draft) => {
  const [creator] = await findPumpPoolAuthorityAddress(address(draft.baseMint))
  const [pool] = await findPumpPoolAddress(0, creator, address(draft.baseMint), address(draft.quoteMint))
  const base = await findAssociatedTokenAddress(pool, address(draft.baseMint), address(draft.baseTokenProgram))
  const quote = await findAssociatedTokenAddress(pool, address(draft.quoteMint), address(draft.quoteTokenProgram))
  Object.assign(draft, { programId: PUMP_AMM_PROGRAM_ADDRESS, dexId: 'pumpswap', labels: [] })
  return {
    address: pool,
    vaultOwner: pool,
    vaults: { base: base[0], quote: quote[0] },
    write(state, lpSupply) {
      const codec = getPumpPoolCodec()
      const value = blank(codec, PUMP_POOL_SIZE, PUMP_POOL_DISCRIMINATOR)
      writeAccount(
        world,
        pool,
        PUMP_AMM_PROGRAM_ADDRESS,
        new Uint8Array(
          codec.encode({
            ...value,
            creator,
            baseMint: address(state.baseMint),
            quoteMint: address(state.quoteMint),
            lpMint: address(state.lpMint ?? state.baseMint),
            poolBaseTokenAccount: address(state.baseVault),
            poolQuoteTokenAccount: address(state.quoteVault),
            lpSupply,
          }),
        ),
      )
    },
  }
}

const orcaWhirlpool: VenueWriter = async (world, draft) => {
  const pool = (await world.signer(`${draft.key}:pool`)).address
  Object.assign(draft, { programId: ORCA_WHIRLPOOL_PROGRAM_ADDRESS, dexId: 'orca', labels: ['CLMM'] })
  return {
    address: pool,
    vaultOwner: pool,
    write(state) {
      const codec = getWhirlpoolCodec()
      const value = blank(codec, WHIRLPOOL_SIZE, WHIRLPOOL_DISCRIMINATOR)
      const price = atomicPrice(world, state)
      const { base, quote } = world.pools.realReserves(state)
      writeAccount(
        world,
        pool,
        ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
        new Uint8Array(
          codec.encode({
            ...value,
            tickSpacing: WHIRLPOOL_TICK_SPACING,
            feeTierIndexSeed: WHIRLPOOL_TICK_SPACING,
            feeRate: state.feeBps * WHIRLPOOL_FEE_UNITS_PER_BPS,
            liquidity: BigInt(Math.floor(Math.sqrt(Number(base) * Number(quote)))),
            sqrtPrice: BigInt(Math.floor(Math.sqrt(price) * Q64)),
            tickCurrentIndex: price > 0 ? Math.floor(Math.log(price) / Math.log(1.0001)) : 0,
            tokenMintA: address(state.baseMint),
            tokenVaultA: address(state.baseVault),
            tokenMintB: address(state.quoteMint),
            tokenVaultB: address(state.quoteVault),
          }),
        ),
      )
    },
  }
}

const meteoraDlmm: VenueWriter = async (world, draft) => {
  const pool = (await world.signer(`${draft.key}:pool`)).address
  Object.assign(draft, { programId: METEORA_DLMM_PROGRAM_ADDRESS, dexId: 'meteora', labels: ['DLMM'] })
  return {
    address: pool,
    vaultOwner: pool,
    write(state) {
      const codec = getLbPairCodec()
      const value = blank(codec, LB_PAIR_SIZE, LB_PAIR_DISCRIMINATOR)
      const price = atomicPrice(world, state)
      writeAccount(
        world,
        pool,
        METEORA_DLMM_PROGRAM_ADDRESS,
        new Uint8Array(
          codec.encode({
            ...value,
            binStep: DLMM_BIN_STEP,
            binStepSeed: DLMM_BIN_STEP,
            activeId: price > 0 ? Math.floor(Math.log(price) / Math.log(1 + DLMM_BIN_STEP / 10_000)) : 0,
            tokenXMint: address(state.baseMint),
            tokenYMint: address(state.quoteMint),
            reserveX: address(state.baseVault),
            reserveY: address(state.quoteVault),
          }),
        ),
      )
    },
  }
}

/**
 * A pump.fun bonding curve at its real PDA and layout; the token side is the real associated
 * bonding-curve account. The SOL side is held as wrapped SOL in the curve's associated wSOL account
 * (pump.fun keeps lamports on the curve account itself, which only its program can debit offline).
 */
const pumpCurve: VenueWriter = async (world, draft) => {
  const [curve] = await findBondingCurveAddress(address(draft.baseMint))
  const base = await findAssociatedTokenAddress(curve, address(draft.baseMint), address(draft.baseTokenProgram))
  const quote = await findAssociatedTokenAddress(curve, address(draft.quoteMint), address(draft.quoteTokenProgram))
  Object.assign(draft, { programId: PUMP_PROGRAM_ADDRESS, dexId: 'pumpfun', labels: [] })
  return {
    address: curve,
    vaultOwner: curve,
    vaults: { base: base[0], quote: quote[0] },
    write(state) {
      const codec = getBondingCurveCodec()
      void world
      const value = blank(codec, BONDING_CURVE_SIZE, BONDING_CURVE_DISCRIMINATOR)
      const real = world.pools.realReserves(state)
      const sellable = real.base > PUMP_RESERVED_TOKENS ? real.base - PUMP_RESERVED_TOKENS : 0n
      writeAccount(
        world,
        curve,
        PUMP_PROGRAM_ADDRESS,
        new Uint8Array(
          codec.encode({
            ...value,
            virtualTokenReserves: real.base + state.virtualBase,
            virtualQuoteReserves: real.quote + state.virtualQuote,
            realTokenReserves: sellable,
            realQuoteReserves: real.quote,
            tokenTotalSupply: PUMP_TOTAL_SUPPLY,
            complete: sellable === 0n,
            creator: address(draft.creator ?? curve),
          }),
        ),
      )
    },
  }
}

/** The venue writer of every pool kind. */
export const VENUES: Record<PoolKind, VenueWriter> = {
  'raydium-amm-v4': raydiumAmmV4,
  pumpswap,
  'orca-whirlpool': orcaWhirlpool,
  'meteora-dlmm': meteoraDlmm,
  'pump-curve': pumpCurve,
}

/** Pool kinds whose account carries price state that moves with every trade. */
export const STATEFUL_VENUES: ReadonlySet<PoolKind> = new Set(['orca-whirlpool', 'meteora-dlmm', 'pump-curve'])
