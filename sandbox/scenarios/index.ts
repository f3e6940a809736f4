import { freezeAuthorityLive, mintAuthorityLive } from './authority-live.ts'
import { blueChip } from './blue-chip.ts'
import { bundledLaunch } from './bundled-launch.ts'
import { clmmPool, dlmmPool } from './concentrated-liquidity.ts'
import { deadToken } from './dead-token.ts'
import { fakeStablecoin } from './fake-stablecoin.ts'
import { hostileToken2022 } from './hostile-token-2022.ts'
import { lockedLp } from './locked-lp.ts'
import type { Scenario } from './kit.ts'
import { pumpBonding, pumpGraduated } from './pump.ts'
import { rugReady } from './rug-ready.ts'
import { serialRugger } from './serial-rugger.ts'
import { snipedLaunch } from './sniped-launch.ts'
import { usdcStablecoin } from './usdc-stablecoin.ts'
import { washTraded } from './wash-traded.ts'
import { whaleConcentrated } from './whale-concentrated.ts'

/** Every scenario, in the order the world file and the boot banner list them. */
export const SCENARIOS: readonly Scenario[] = [
  blueChip,
  usdcStablecoin,
  mintAuthorityLive,
  freezeAuthorityLive,
  whaleConcentrated,
  pumpBonding,
  pumpGraduated,
  bundledLaunch,
  snipedLaunch,
  washTraded,
  serialRugger,
  clmmPool,
  dlmmPool,
  lockedLp,
  hostileToken2022,
  deadToken,
  fakeStablecoin,
  rugReady,
]

export type { Scenario, ScenarioContext, ScenarioWallet } from './kit.ts'
