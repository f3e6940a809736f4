import type { Pool } from '../world/pool-book.ts'
import {
  launch,
  mintAddress,
  NATIVE_MINT,
  scheduleTape,
  trade,
  units,
  type Scenario,
  type ScenarioContext,
} from './kit.ts'
import { DAY, HOUR, MINUTE } from './timeline.ts'

const EARLIER_TOKENS = 3

/** One launch by the rugger: pool with the LP kept, buyers come in, then the developer pulls the liquidity. */
function scheduleRug(ctx: ScenarioContext, index: number, launchAt: number): void {
  const { world, timeline } = ctx
  const key = `rug-${index}`
  let pool: Pool | undefined
  timeline.at(launchAt, `serial-rugger earlier launch ${index}`, async () => {
    const dev = await world.signer('rugger:dev')
    const mint = await launch(world, {
      key,
      name: `Safe Moon ${index + 1}`,
      symbol: `SAFE${index + 1}`,
      decimals: 6,
      supply: 1_000_000_000,
      dev,
      mintAuthority: 'revoke',
      freezeAuthority: 'none',
      metadata: { mutable: true },
    })
    pool = await world.createPool({
      key: `${key}:raydium`,
      kind: 'raydium-amm-v4',
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      baseAmount: units(900_000_000, 6),
      quoteAmount: units(40, 9),
      provider: dev,
      feeBps: 25,
      lp: 'keep',
    })
  })
  for (let i = 0; i < 8; i++)
    timeline.at(launchAt + HOUR + i * 20 * MINUTE, `serial-rugger victim buy ${index}`, async () => {
      await trade(world, await world.wallet(`rugger:victim-${index}-${i}`, 6), pool!, 'buy', 3)
    })
  timeline.at(launchAt + 2 * DAY, `serial-rugger pull ${index}`, async () => {
    await world.removeLiquidity(pool!, await world.signer('rugger:dev'), 0.98)
  })
}

export const serialRugger: Scenario = {
  name: 'serial-rugger',
  title: 'Token from a developer who rugged three earlier tokens',
  description:
    'The developer wallet created three tokens over the past month; each time it kept the LP, let buyers in, and pulled 98% of the liquidity two days later. Its new token launched six hours ago the same way.',
  traits: ['dev_previous_rugs', 'created_tokens_count', 'lp_unburned', 'new_token'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'serial-rugger')
    let pool: Pool | undefined
    timeline.at(now - 27 * DAY, 'serial-rugger dev funding', async () => {
      await world.wallet('rugger:dev', 200)
    })
    for (let index = 0; index < EARLIER_TOKENS; index++) scheduleRug(ctx, index, now - (25 - index * 7) * DAY)
    const created = now - 6 * HOUR
    timeline.at(created, 'serial-rugger launch', async () => {
      const dev = await world.signer('rugger:dev')
      await launch(world, {
        key: 'serial-rugger',
        name: 'Totally Legit',
        symbol: 'LEGIT',
        decimals: 6,
        supply: 1_000_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: true },
      })
      pool = await world.createPool({
        key: 'serial-rugger:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(900_000_000, 6),
        quoteAmount: units(40, 9),
        provider: dev,
        feeBps: 25,
        lp: 'keep',
      })
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 12 }, (_, i) => `serial-rugger:trader-${i}`),
      traderSol: 6,
      from: created + 10 * MINUTE,
      to: now - 60,
      count: 25,
      sizeSol: [0.2, 2],
      buyShare: 0.8,
      label: 'serial-rugger trade',
    })
    return {
      mint,
      wallets: [
        {
          role: 'rugger',
          name: 'rugger:dev',
          record: `created ${EARLIER_TOKENS + 1} tokens and pulled the liquidity of the ${EARLIER_TOKENS} earlier ones`,
        },
      ],
    }
  },
}
