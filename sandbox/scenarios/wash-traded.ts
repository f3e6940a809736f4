import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, trade, units, type Scenario } from './kit.ts'
import { DAY, HOUR, MINUTE } from './timeline.ts'

const WASHERS = 4
const ROUND_TRIPS = 45

export const washTraded: Scenario = {
  name: 'wash-traded',
  title: 'Volume made by a few linked wallets trading in circles',
  description:
    'Four wallets funded by one source buy and sell the same size back and forth 45 times in a day: high volume, almost no unique traders, flat price.',
  traits: ['wash_trading', 'wallet_clustering', 'low_unique_traders'],
  async schedule(ctx) {
    const { world, timeline, now, random } = ctx
    const mint = await mintAddress(world, 'wash-traded')
    let pool: Pool | undefined
    const created = now - 5 * DAY
    timeline.at(created, 'wash-traded launch', async () => {
      const dev = await world.wallet('wash:dev', 150)
      await launch(world, {
        key: 'wash-traded',
        name: 'Spin Cycle',
        symbol: 'SPIN',
        decimals: 6,
        supply: 1_000_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: true },
      })
      pool = await world.createPool({
        key: 'wash:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(600_000_000, 6),
        quoteAmount: units(100, 9),
        provider: dev,
        feeBps: 25,
        lp: 'burn',
      })
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'wash:dev',
      prefix: 'wash',
      count: 15,
      amount: () => 10_000_000,
      from: created + HOUR,
      to: created + DAY,
    })
    timeline.at(now - 26 * HOUR, 'wash funding', async () => {
      const funder = await world.wallet('wash:funder', 200)
      for (let i = 0; i < WASHERS; i++) await world.wallet(`wash:washer-${i}`, 30, funder)
    })
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const at = now - DAY + i * 30 * MINUTE + random.between(0, 60)
      const washer = `wash:washer-${i % WASHERS}`
      timeline.at(at, 'wash buy', async () => trade(world, await world.signer(washer), pool!, 'buy', 8))
      timeline.at(at + 90, 'wash sell', async () => trade(world, await world.signer(washer), pool!, 'sell', 1_000))
    }
    return { mint }
  },
}
