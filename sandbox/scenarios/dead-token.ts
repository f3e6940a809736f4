import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, trade, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

export const deadToken: Scenario = {
  name: 'dead-token',
  title: 'Abandoned token: no trades for days, dust liquidity',
  description: 'A month-old token whose pool holds about 0.3 SOL (~$45); its last trade was twelve days ago.',
  traits: ['token_health_dead', 'liquidity_critical', 'no_recent_trades'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'dead-token')
    let pool: Pool | undefined
    const created = now - 32 * DAY
    timeline.at(created, 'dead-token launch', async () => {
      const dev = await world.wallet('dead:dev', 10)
      await launch(world, {
        key: 'dead-token',
        name: 'Ghost Town',
        symbol: 'GHOST',
        decimals: 6,
        supply: 100_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: true },
      })
      pool = await world.createPool({
        key: 'dead:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(50_000_000, 6),
        quoteAmount: units(0.3, 9),
        provider: dev,
        feeBps: 25,
        lp: 'burn',
      })
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'dead:dev',
      prefix: 'dead',
      count: 12,
      amount: () => 1_000_000,
      from: created + HOUR,
      to: created + 2 * DAY,
    })
    for (let i = 0; i < 6; i++)
      timeline.at(now - (20 - i) * DAY, 'dead-token trade', async () => {
        await trade(world, await world.wallet(`dead:trader-${i}`, 1), pool!, i % 2 ? 'sell' : 'buy', 0.02)
      })
    timeline.at(now - 12 * DAY, 'dead-token last trade', async () => {
      await trade(world, await world.signer('dead:trader-0'), pool!, 'sell', 0.01)
    })
    return { mint }
  },
}
