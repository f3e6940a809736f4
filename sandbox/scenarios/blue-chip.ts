import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, scheduleTape, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

const SUPPLY = 1_000_000_000
const POOL_SOL = 2_500
const POOL_TOKENS = 300_000_000

export const blueChip: Scenario = {
  name: 'blue-chip',
  title: 'Clean, widely held token with deep burned liquidity',
  description:
    'Mint and freeze authorities revoked, immutable metadata, 80 holders with no dominant wallet, a deep Raydium AMM v4 pool against SOL whose LP is burned, a month old, traded steadily all week.',
  traits: [
    'mint_authority_revoked',
    'freeze_authority_revoked',
    'lp_burned',
    'liquidity_deep',
    'dispersed_holders',
    'immutable_metadata',
    'active_trading',
  ],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'blue-chip')
    let pool: Pool | undefined
    const created = now - 30 * DAY
    timeline.at(created, 'blue-chip launch', async () => {
      const dev = await world.wallet('blue-chip:dev', 3_000)
      await launch(world, {
        key: 'blue-chip',
        name: 'Solid Blue',
        symbol: 'BLUE',
        decimals: 6,
        supply: SUPPLY,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: false },
      })
      pool = await world.createPool({
        key: 'blue-chip:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(POOL_TOKENS, 6),
        quoteAmount: units(POOL_SOL, 9),
        provider: dev,
        feeBps: 25,
        lp: 'burn',
      })
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'blue-chip:dev',
      prefix: 'blue-chip',
      count: 80,
      amount: (i) => 4_000_000 + (i % 10) * 900_000,
      from: created + HOUR,
      to: created + 20 * DAY,
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 40 }, (_, i) => `blue-chip:trader-${i}`),
      traderSol: 60,
      from: now - 7 * DAY,
      to: now - 60,
      count: 160,
      sizeSol: [0.5, 12],
      buyShare: 0.55,
      label: 'blue-chip trade',
    })
    return { mint }
  },
}
