import type { Pool } from '../world/pool-book.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import { units, writeMetadata } from './kit.ts'
import { DAY, HOUR, Random, type Timeline } from './timeline.ts'

/** The sandbox's reference price of SOL in USDC, set by the depth of the SOL/USDC pool. */
export const SOL_PRICE_USDC = 150
const POOL_SOL = 20_000
const MARKET_MAKER_SOL = POOL_SOL + 1_000

/**
 * What every scenario builds on: a USDC mint (issuer-controlled like the real one: mint and freeze
 * authorities live, tagged as Jupiter tags the real one — community, strict, verified: there is no
 * stablecoin tag — and registered in the sandbox's issuer registry) and a deep SOL/USDC pool that
 * prices SOL, with a day of trading on it.
 */
export async function scheduleBaseAssets(world: World, timeline: Timeline, now: number) {
  const usdc = (await world.signer('mint:usdc')).address
  let solUsdcPool: Pool | undefined
  const start = now - 35 * DAY
  timeline.at(start, 'base assets: USDC and SOL/USDC', async () => {
    const issuer = await world.wallet('usdc-issuer', 10)
    await world.createMint(
      {
        key: 'usdc',
        name: 'USD Coin',
        symbol: 'USDC',
        decimals: 6,
        mintAuthority: issuer,
        freezeAuthority: issuer.address,
        tags: ['community', 'strict', 'verified'],
      },
      issuer,
    )
    world.usdcMint = usdc
    world.tokens.get(usdc)!.logoURI = 'https://sandbox.solsentry.invalid/usdc.png'
    await writeMetadata(world, usdc, {
      name: 'USD Coin',
      symbol: 'USDC',
      uri: 'https://sandbox.solsentry.invalid/usdc.json',
      updateAuthority: issuer.address,
      isMutable: true,
    })
    const maker = await world.wallet('market-maker', MARKET_MAKER_SOL)
    await world.mintTo(usdc, maker.address, units(POOL_SOL * SOL_PRICE_USDC * 2, 6), issuer)
    solUsdcPool = await world.createPool({
      key: 'sol-usdc',
      kind: 'raydium-amm-v4',
      baseMint: NATIVE_MINT,
      quoteMint: usdc,
      baseAmount: units(POOL_SOL, 9),
      quoteAmount: units(POOL_SOL * SOL_PRICE_USDC, 6),
      provider: maker,
      feeBps: 25,
      lp: 'burn',
    })
  })
  const random = new Random('base-assets')
  const funded = new Set<number>()
  for (let i = 0; i < 30; i++) {
    const at = now - DAY + random.between(0, DAY - HOUR / 2)
    const buy = random.next() < 0.5
    const size = random.between(2, 40)
    timeline.at(at, 'SOL/USDC trade', async () => {
      const trader = await world.wallet(`sol-trader-${i % 6}`, funded.has(i % 6) ? 0 : 200)
      funded.add(i % 6)
      const pool = solUsdcPool!
      if (buy) {
        // Buy SOL with USDC: the trader first gets USDC from the market maker.
        const maker = await world.signer('market-maker')
        const amount = units(size * SOL_PRICE_USDC, 6)
        await world.transfer(usdc, maker, trader.address, amount)
        await world.swap(trader, pool, usdc, amount)
      } else {
        await world.swap(trader, pool, NATIVE_MINT, units(size, 9))
      }
    })
  }
  return { usdc, solUsdcPool: () => solUsdcPool! }
}
