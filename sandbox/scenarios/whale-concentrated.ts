import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, scheduleTape, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

export const whaleConcentrated: Scenario = {
  name: 'whale-concentrated',
  title: 'Supply concentrated in a few wallets',
  description:
    'One wallet holds 70% of the supply and nine more hold about 2.7% each: the top 10 hold over 94% (pool vault excluded). Authorities revoked, LP burned, so only concentration flags it.',
  traits: ['top_10_holder_pct_high', 'single_holder_dominant', 'mint_authority_revoked', 'lp_burned'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'whale-concentrated')
    let pool: Pool | undefined
    const created = now - 10 * DAY
    timeline.at(created, 'whale launch', async () => {
      const dev = await world.wallet('whale:dev', 200)
      await launch(world, {
        key: 'whale-concentrated',
        name: 'Whale Pod',
        symbol: 'POD',
        decimals: 6,
        supply: 1_000_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: false },
      })
      pool = await world.createPool({
        key: 'whale:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(30_000_000, 6),
        quoteAmount: units(120, 9),
        provider: dev,
        feeBps: 25,
        lp: 'burn',
      })
      const whale = await world.signer('whale:whale')
      await world.transfer(mint, dev, whale.address, units(700_000_000, 6))
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'whale:dev',
      prefix: 'whale-top',
      count: 9,
      amount: () => 27_000_000,
      from: created + HOUR,
      to: created + 2 * HOUR,
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'whale:dev',
      prefix: 'whale-small',
      count: 20,
      amount: () => 500_000,
      from: created + DAY,
      to: created + 3 * DAY,
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 10 }, (_, i) => `whale:trader-${i}`),
      traderSol: 10,
      from: now - DAY,
      to: now - 300,
      count: 20,
      sizeSol: [0.1, 2],
      buyShare: 0.5,
      label: 'whale trade',
    })
    return { mint }
  },
}
