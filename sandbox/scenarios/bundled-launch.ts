import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleTape, trade, units, type Scenario } from './kit.ts'
import { HOUR, MINUTE } from './timeline.ts'

const BUNDLE_WALLETS = 6

export const bundledLaunch: Scenario = {
  name: 'bundled-launch',
  title: 'Bundled launch: the creator buys through its own wallets in the creation slot',
  description:
    'Ten minutes before launch the creator funded six fresh wallets; in the same slot as the pool was created those six wallets bought about 40% of the pool, then dumped on later buyers.',
  traits: ['bundled_launch_detected', 'dev_wallet_linked', 'wallet_clustering', 'insider_control'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'bundled-launch')
    let pool: Pool | undefined
    const launchAt = now - 20 * HOUR
    timeline.at(launchAt - 30 * MINUTE, 'bundled-launch mint', async () => {
      const dev = await world.wallet('bundled:dev', 120)
      await launch(world, {
        key: 'bundled-launch',
        name: 'Bundle Bros',
        symbol: 'BNDL',
        decimals: 6,
        supply: 1_000_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: true },
      })
    })
    timeline.at(launchAt - 10 * MINUTE, 'bundled-launch funding', async () => {
      const dev = await world.signer('bundled:dev')
      for (let i = 0; i < BUNDLE_WALLETS; i++) await world.wallet(`bundled:wallet-${i}`, 6, dev)
    })
    timeline.at(launchAt, 'bundled-launch pool and bundle', async () => {
      const dev = await world.signer('bundled:dev')
      await world.chain.sameBlock(async () => {
        pool = await world.createPool({
          key: 'bundled:raydium',
          kind: 'raydium-amm-v4',
          baseMint: mint,
          quoteMint: NATIVE_MINT,
          baseAmount: units(800_000_000, 6),
          quoteAmount: units(60, 9),
          provider: dev,
          feeBps: 25,
          lp: 'keep',
        })
        for (let i = 0; i < BUNDLE_WALLETS; i++)
          await trade(world, await world.signer(`bundled:wallet-${i}`), pool, 'buy', 5)
      })
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 15 }, (_, i) => `bundled:retail-${i}`),
      traderSol: 5,
      from: launchAt + MINUTE,
      to: launchAt + 3 * HOUR,
      count: 30,
      sizeSol: [0.2, 2],
      buyShare: 0.9,
      label: 'bundled retail buy',
    })
    for (let i = 0; i < BUNDLE_WALLETS; i++)
      timeline.at(launchAt + 3 * HOUR + i * 7 * MINUTE, 'bundled dump', async () => {
        await trade(world, await world.signer(`bundled:wallet-${i}`), pool!, 'sell', 1_000)
      })
    return { mint }
  },
}
