import type { Pool } from '../world/pool-book.ts'
import {
  launch,
  mintAddress,
  NATIVE_MINT,
  scheduleHolders,
  scheduleTape,
  units,
  type Scenario,
  type ScenarioContext,
} from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

/** A mid-sized token whose only flaw is one live authority, so that flaw is what a scanner sees. */
function authorityScenario(kind: 'mint' | 'freeze'): Scenario {
  const name = `${kind}-authority-live`
  return {
    name,
    title: kind === 'mint' ? 'Developer can still mint' : 'Developer can still freeze holders',
    description:
      kind === 'mint'
        ? 'The developer kept the mint authority: supply can be inflated at will. Freeze authority never set, LP burned, 40 holders, two weeks old.'
        : 'The developer kept the freeze authority: any holder account can be frozen, so holders may be unable to sell. Mint authority revoked, LP burned, 40 holders.',
    traits:
      kind === 'mint' ? ['mint_authority_live', 'lp_burned'] : ['freeze_authority_live', 'lp_burned', 'honeypot_risk'],
    async schedule(ctx: ScenarioContext) {
      const { world, timeline, now } = ctx
      const mint = await mintAddress(world, name)
      let pool: Pool | undefined
      const created = now - 14 * DAY
      timeline.at(created, `${name} launch`, async () => {
        const dev = await world.wallet(`${name}:dev`, 400)
        await launch(world, {
          key: name,
          name: kind === 'mint' ? 'Printer' : 'Icebox',
          symbol: kind === 'mint' ? 'PRNT' : 'ICE',
          decimals: 6,
          supply: 500_000_000,
          dev,
          mintAuthority: kind === 'mint' ? 'keep' : 'revoke',
          freezeAuthority: kind === 'freeze' ? 'keep' : 'none',
          metadata: { mutable: true },
        })
        pool = await world.createPool({
          key: `${name}:raydium`,
          kind: 'raydium-amm-v4',
          baseMint: mint,
          quoteMint: NATIVE_MINT,
          baseAmount: units(200_000_000, 6),
          quoteAmount: units(300, 9),
          provider: dev,
          feeBps: 25,
          lp: 'burn',
        })
      })
      scheduleHolders(ctx, {
        mint: () => mint,
        source: `${name}:dev`,
        prefix: name,
        count: 40,
        amount: (i) => 3_000_000 + i * 100_000,
        from: created + HOUR,
        to: created + 5 * DAY,
      })
      scheduleTape(ctx, {
        pool: () => pool!,
        traders: Array.from({ length: 15 }, (_, i) => `${name}:trader-${i}`),
        traderSol: 20,
        from: now - 2 * DAY,
        to: now - 120,
        count: 40,
        sizeSol: [0.2, 4],
        buyShare: 0.5,
        label: `${name} trade`,
      })
      return { mint }
    },
  }
}

export const mintAuthorityLive = authorityScenario('mint')
export const freezeAuthorityLive = authorityScenario('freeze')
