import { SCENARIOS, type ScenarioWallet } from './scenarios/index.ts'
import { scheduleBaseAssets } from './scenarios/base-assets.ts'
import { DAY, Random, Timeline } from './scenarios/timeline.ts'
import { VENUES } from './world/venues.ts'
import { World } from './world/world.ts'

/** How far back the sandbox chain's history starts. */
const HISTORY_DAYS = 40

export interface BuiltScenario {
  name: string
  title: string
  description: string
  traits: string[]
  mint: string
  /** Its wallets with a known record, by role. */
  wallets: { role: ScenarioWallet['role']; address: string; record: string }[]
}

/**
 * Builds the sandbox world as of `now`: the base assets and every scenario, their steps played in
 * time order on a chain whose history starts HISTORY_DAYS ago. Deterministic: the same keys, mints
 * and trades on every boot (times shift with `now`).
 */
export async function buildWorld(now: number): Promise<{ world: World; scenarios: BuiltScenario[]; steps: number }> {
  const world = await World.create({ genesisUnixS: now - HISTORY_DAYS * DAY, venues: VENUES })
  const timeline = new Timeline()
  const base = await scheduleBaseAssets(world, timeline, now)
  const scenarios: BuiltScenario[] = []
  for (const scenario of SCENARIOS) {
    const { mint, wallets = [] } = await scenario.schedule({
      world,
      timeline,
      now,
      random: new Random(scenario.name),
      base,
    })
    scenarios.push({
      name: scenario.name,
      title: scenario.title,
      description: scenario.description,
      traits: scenario.traits,
      mint,
      wallets: await Promise.all(
        wallets.map(async (wallet) => ({
          role: wallet.role,
          address: (await world.signer(wallet.name)).address as string,
          record: wallet.record,
        })),
      ),
    })
  }
  const steps = timeline.size
  await timeline.play(world.chain)
  world.chain.advanceTo(now)
  return { world, scenarios, steps }
}
