import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleTape, trade, units, type Scenario } from './kit.ts'
import { HOUR, MINUTE } from './timeline.ts'

const SNIPERS = 12
/** Seconds per slot on mainnet: snipers land one to three slots after the pool opens. */
const SLOT_S = 0.4
/** The swing trader's buys and sells, seconds after the pool opens. */
const SWING_TRIPS: readonly [number, number][] = [
  [2.5 * HOUR, 4 * HOUR],
  [4.5 * HOUR, 6 * HOUR],
  [6.5 * HOUR, 8.5 * HOUR],
]

export const snipedLaunch: Scenario = {
  name: 'sniped-launch',
  title: 'Heavily sniped launch',
  description:
    'Twelve unrelated bot wallets bought in the first three slots after the pool opened, taking a large share of the early supply, and sold into the following hours of retail buying.',
  traits: ['sniper_activity_high', 'launch_anomaly', 'new_token'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'sniped-launch')
    let pool: Pool | undefined
    const launchAt = now - 10 * HOUR
    timeline.at(launchAt - HOUR, 'sniped-launch mint and snipers', async () => {
      const dev = await world.wallet('sniped:dev', 80)
      await launch(world, {
        key: 'sniped-launch',
        name: 'Snipe Magnet',
        symbol: 'SNIPE',
        decimals: 6,
        supply: 1_000_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: false },
      })
      // Each sniper is funded from its own source (the faucet stands in for exchanges): no common funder.
      for (let i = 0; i < SNIPERS; i++) await world.wallet(`sniped:sniper-${i}`, 8)
    })
    timeline.at(launchAt, 'sniped-launch pool', async () => {
      // The pool opens in one block, as a single initialize transaction does on mainnet.
      const dev = await world.signer('sniped:dev')
      pool = await world.chain.sameBlock(() =>
        world.createPool({
          key: 'sniped:raydium',
          kind: 'raydium-amm-v4',
          baseMint: mint,
          quoteMint: NATIVE_MINT,
          baseAmount: units(900_000_000, 6),
          quoteAmount: units(50, 9),
          provider: dev,
          feeBps: 25,
          lp: 'burn',
        }),
      )
    })
    // Four snipers land in each of the three slots after the pool opens.
    for (let slot = 1; slot <= 3; slot++)
      timeline.at(launchAt + SLOT_S * slot, 'sniped-launch snipes', async () => {
        await world.chain.sameBlock(async () => {
          for (let i = (slot - 1) * 4; i < slot * 4; i++)
            await trade(world, await world.signer(`sniped:sniper-${i}`), pool!, 'buy', 2 + (i % 4))
        })
      })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 20 }, (_, i) => `sniped:retail-${i}`),
      traderSol: 6,
      from: launchAt + 5 * MINUTE,
      to: now - 60,
      count: 40,
      sizeSol: [0.1, 2],
      buyShare: 0.6,
      label: 'sniped retail trade',
    })
    for (let i = 0; i < SNIPERS; i++)
      timeline.at(launchAt + 30 * MINUTE + i * 9 * MINUTE, 'sniped-launch sniper exit', async () => {
        await trade(world, await world.signer(`sniped:sniper-${i}`), pool!, 'sell', 1_000)
      })
    // A swing trader riding the retail buying: three round trips, each sold out in full.
    for (const [buyAt, sellAt] of SWING_TRIPS) {
      timeline.at(launchAt + buyAt, 'sniped-launch swing buy', async () => {
        await trade(world, await world.wallet('sniped:swing-trader', 4), pool!, 'buy', 0.8)
      })
      timeline.at(launchAt + sellAt, 'sniped-launch swing sell', async () => {
        await trade(world, await world.signer('sniped:swing-trader'), pool!, 'sell', 1_000)
      })
    }
    return {
      mint,
      wallets: [
        {
          role: 'sniper-bot',
          name: 'sniped:sniper-0',
          record: 'bought 2 SOL of SNIPE one slot after the pool opened, sold it all 30 minutes later',
        },
        {
          role: 'profitable-trader',
          name: 'sniped:swing-trader',
          record: 'three round trips of 0.8 SOL on SNIPE, each sold out in full into the retail buying',
        },
      ],
    }
  },
}
