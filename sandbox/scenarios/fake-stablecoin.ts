import type { Pool } from '../world/pool-book.ts'
import { launch, mintAddress, NATIVE_MINT, scheduleHolders, scheduleTape, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

/** Whole tokens minted; most go into the pool, the rest to the buyers it lures. */
const SUPPLY = 100_000
const POOL_TOKENS = 60_000
/** SOL beside them: about $1 a token at the sandbox's SOL price, as a stablecoin copy wants to look. */
const POOL_SOL = 400

/**
 * A copy of the sandbox USDC on a new mint, as public deny lists of 2026 record for USDC, USDY and WETH:
 * the same symbol and name, a live freeze authority (buyers can be frozen and kept from selling), its
 * own pool priced near $1, burned LP and scattered holders, so the copy itself is what a scanner must
 * see. Nothing in it names the real mint: the scanner has to find it.
 */
export const fakeStablecoin: Scenario = {
  name: 'fake-stablecoin',
  title: 'A copy of USDC on another mint, its freeze authority live',
  description:
    "Symbol USDC and name USD Coin, as the sandbox USDC, on a new mint the copier controls: freeze authority live, mint authority revoked, its own SOL pool priced near $1 (LP burned), 40 holders, three days old. A scanner should flag the impersonation and name the real USDC's mint.",
  traits: ['impersonation', 'freeze_authority_live', 'honeypot_risk', 'lp_burned'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'fake-stablecoin')
    let pool: Pool | undefined
    const created = now - 3 * DAY
    timeline.at(created, 'fake-stablecoin launch', async () => {
      const dev = await world.wallet('fake-usdc:dev', POOL_SOL + 50)
      await launch(world, {
        key: 'fake-stablecoin',
        name: 'USD Coin',
        symbol: 'USDC',
        decimals: 6,
        supply: SUPPLY,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'keep',
        metadata: { mutable: true },
      })
      pool = await world.createPool({
        key: 'fake-usdc:raydium',
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
      source: 'fake-usdc:dev',
      prefix: 'fake-usdc',
      count: 40,
      amount: (i) => 500 + i * 20,
      from: created + HOUR,
      to: created + 2 * DAY,
    })
    // Buyers who took it for USDC: mostly buys.
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 12 }, (_, i) => `fake-usdc:buyer-${i}`),
      traderSol: 20,
      from: now - 2 * DAY,
      to: now - 300,
      count: 30,
      sizeSol: [0.2, 3],
      buyShare: 0.8,
      label: 'fake-stablecoin trade',
    })
    return { mint }
  },
}
