import type { Pool, PoolKind } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, scheduleTape, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

/** A token whose only pool is concentrated liquidity: positions are NFTs, so LP burn does not apply. */
function concentrated(
  name: string,
  kind: Extract<PoolKind, 'orca-whirlpool' | 'meteora-dlmm'>,
  title: string,
  symbol: string,
): Scenario {
  return {
    name,
    title,
    description: `Traded only on ${kind === 'orca-whirlpool' ? 'an Orca Whirlpool (CLMM)' : 'a Meteora DLMM pair'}: liquidity is held in positions, so there is no fungible LP to burn (lp_status NOT_APPLICABLE, lp_model CLMM_DLMM). Authorities revoked, healthy trading.`,
    traits: ['lp_model_clmm_dlmm', 'lp_not_applicable', 'mint_authority_revoked'],
    async schedule(ctx) {
      const { world, timeline, now } = ctx
      const mint = await mintAddress(world, name)
      let pool: Pool | undefined
      const created = now - 9 * DAY
      timeline.at(created, `${name} launch`, async () => {
        const dev = await world.wallet(`${name}:dev`, 700)
        await launch(world, {
          key: name,
          name: title.split(' ')[0]!,
          symbol,
          decimals: 6,
          supply: 200_000_000,
          dev,
          mintAuthority: 'revoke',
          freezeAuthority: 'none',
          metadata: { mutable: false },
        })
        pool = await world.createPool({
          key: `${name}:pool`,
          kind,
          baseMint: mint,
          quoteMint: NATIVE_MINT,
          baseAmount: units(80_000_000, 6),
          quoteAmount: units(600, 9),
          provider: dev,
          feeBps: 30,
        })
      })
      scheduleHolders(ctx, {
        mint: () => mint,
        source: `${name}:dev`,
        prefix: name,
        count: 30,
        amount: (i) => 1_000_000 + i * 50_000,
        from: created + HOUR,
        to: created + 4 * DAY,
      })
      scheduleTape(ctx, {
        pool: () => pool!,
        traders: Array.from({ length: 20 }, (_, i) => `${name}:trader-${i}`),
        traderSol: 25,
        from: now - 3 * DAY,
        to: now - 60,
        count: 60,
        sizeSol: [0.5, 6],
        buyShare: 0.5,
        label: `${name} trade`,
      })
      return { mint }
    },
  }
}

export const clmmPool = concentrated('clmm-pool', 'orca-whirlpool', 'Orbit concentrated-liquidity token', 'ORBIT')
export const dlmmPool = concentrated('dlmm-pool', 'meteora-dlmm', 'Binomial DLMM token', 'BINS')
