import { getMintSizeWithExtensions } from '../token/instructions.ts'
import type { KeyPairSigner } from '@solana/kit'
import type { Pool } from '../world/pool-book.ts'
import {
  PUMP_INITIAL_VIRTUAL_SOL,
  PUMP_INITIAL_VIRTUAL_TOKENS,
  PUMP_RESERVED_TOKENS,
  PUMP_TOTAL_SUPPLY,
} from '../world/venues.ts'
import { pumpCoinUri } from '../world/launchpad-events.ts'
import type { World } from '../world/world.ts'
import { holding, mintAddress, NATIVE_MINT, scheduleTape, trade, writeMetadata, type Scenario } from './kit.ts'
import { DAY, HOUR, MINUTE } from './timeline.ts'

const PUMP_FEE_BPS = 100

/**
 * A pump.fun launch: 1B tokens (6 decimals) minted into the curve's associated account, mint
 * authority revoked, immutable metadata, the curve account at its PDA with the program's initial
 * virtual reserves, and the creator's first buy in the same block. `token2022`: a coin of pump.fun's
 * `create_v2`, a Token-2022 mint whose curve account is associated under Token-2022 (today's launches).
 */
export async function pumpLaunch(
  world: World,
  key: string,
  name: string,
  symbol: string,
  dev: KeyPairSigner,
  devBuySol: number,
  token2022 = false,
): Promise<Pool> {
  const mint = await world.createMint(
    {
      key,
      name,
      symbol,
      decimals: 6,
      mintAuthority: dev,
      ...(token2022 ? { token2022: { space: getMintSizeWithExtensions([]), extensions: () => [] } } : {}),
    },
    dev,
  )
  await world.mintTo(mint, dev.address, PUMP_TOTAL_SUPPLY, dev)
  await writeMetadata(world, mint, {
    name,
    symbol,
    uri: pumpCoinUri(mint),
    updateAuthority: dev.address,
    isMutable: false,
  })
  await world.setMintAuthority(mint, 'mint', dev, null)
  return world.chain.sameBlock(async () => {
    const pool = await world.createPool({
      key: `${key}:curve`,
      kind: 'pump-curve',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: PUMP_TOTAL_SUPPLY,
      quoteAmount: 0n,
      provider: dev,
      feeBps: PUMP_FEE_BPS,
      virtualBase: PUMP_INITIAL_VIRTUAL_TOKENS - PUMP_TOTAL_SUPPLY,
      virtualQuote: PUMP_INITIAL_VIRTUAL_SOL,
      reservedBase: PUMP_RESERVED_TOKENS,
      creator: dev.address,
    })
    await trade(world, dev, pool, 'buy', devBuySol)
    return pool
  })
}

export const pumpBonding: Scenario = {
  name: 'pump-bonding',
  title: 'Launchpad token still on its bonding curve',
  description:
    "Launched on pump.fun six hours ago with create_v2, as today's coins are: a Token-2022 mint, the curve's token account associated under Token-2022. The bonding-curve account at its PDA is not complete, there is no AMM pool yet, and 60 small trades moved along the curve. Mint authority revoked, no freeze authority.",
  traits: ['pump_launchpad_launched', 'bonding_curve_active', 'new_token', 'lp_not_applicable'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'pump-bonding')
    let pool: Pool | undefined
    const created = now - 6 * HOUR
    timeline.at(created, 'pump-bonding launch', async () => {
      pool = await pumpLaunch(
        world,
        'pump-bonding',
        'Curvy Cat',
        'CURVY',
        await world.wallet('pump-bonding:dev', 20),
        1,
        true,
      )
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 25 }, (_, i) => `pump-bonding:trader-${i}`),
      traderSol: 8,
      from: created + MINUTE,
      to: now - 60,
      count: 60,
      sizeSol: [0.05, 1.5],
      buyShare: 0.65,
      label: 'pump-bonding trade',
    })
    return { mint }
  },
}

export const pumpGraduated: Scenario = {
  name: 'pump-graduated',
  title: 'Launchpad token that graduated to an AMM with burned LP',
  description:
    'Launched on pump.fun three days ago; buyers filled the curve (complete), its reserves migrated to a PumpSwap pool whose LP was burned, and trading continued there.',
  traits: ['pump_launchpad_launched', 'bonding_curve_complete', 'lp_burned', 'graduated'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'pump-graduated')
    let curve: Pool | undefined
    let amm: Pool | undefined
    const created = now - 3 * DAY
    timeline.at(created, 'pump-graduated launch', async () => {
      curve = await pumpLaunch(
        world,
        'pump-graduated',
        'Moon Grad',
        'GRAD',
        await world.wallet('pump-graduated:dev', 20),
        2,
      )
    })
    // Twenty buyers fill the curve within two hours (about 85 SOL sells out its 793M tokens).
    for (let i = 0; i < 20; i++)
      timeline.at(created + 5 * MINUTE + i * 6 * MINUTE, 'pump-graduated curve buy', async () => {
        const buyer = await world.wallet(`pump-graduated:buyer-${i}`, 10)
        const pool = curve!
        const left = world.pools.realReserves(pool).base - PUMP_RESERVED_TOKENS
        if (left <= 0n) return
        await trade(world, buyer, pool, 'buy', i === 19 ? 9 : 4.6)
      })
    timeline.at(created + 3 * HOUR, 'pump-graduated migration', async () => {
      // The migration moves the curve's reserves to a PumpSwap pool and burns the LP.
      const migrator = await world.wallet('pump-migrator', 5)
      const pool = curve!
      await world.removeLiquidity(pool, migrator, 1)
      // The deposit takes the wrapped SOL straight from the migrator's wSOL account.
      amm = await world.createPool({
        key: 'pump-graduated:pumpswap',
        kind: 'pumpswap',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: await holding(world, mint, migrator.address),
        quoteAmount: await holding(world, NATIVE_MINT, migrator.address),
        provider: migrator,
        feeBps: 25,
        lp: 'burn',
      })
    })
    scheduleTape(ctx, {
      pool: () => amm!,
      traders: Array.from({ length: 20 }, (_, i) => `pump-graduated:trader-${i}`),
      traderSol: 15,
      from: created + 4 * HOUR,
      to: now - 60,
      count: 70,
      sizeSol: [0.1, 3],
      buyShare: 0.5,
      label: 'pump-graduated trade',
    })
    return { mint }
  },
}
