/**
 * The built-in signals, a sorted registry of static imports (so `bun build --compile` embeds them).
 * Each scanner runs the ones that name it in `meta.scanners`.
 */
import type { Signal } from '../src/pipeline/signal.ts'
import authorityExemption from './authority-exemption/index.ts'
import freezeAuthority from './freeze-authority/index.ts'
import holderConcentration from './holder-concentration/index.ts'
import launchAnomaly from './launch-anomaly/index.ts'
import liquidity from './liquidity/index.ts'
import lpStatus from './lp-status/index.ts'
import metadataMutability from './metadata-mutability/index.ts'
import mintAuthority from './mint-authority/index.ts'
import token2022Extensions from './token-2022-extensions/index.ts'

export const BUILTIN_SIGNALS: readonly Signal[] = [
  authorityExemption,
  freezeAuthority,
  holderConcentration,
  launchAnomaly,
  liquidity,
  lpStatus,
  metadataMutability,
  mintAuthority,
  token2022Extensions,
] as unknown as readonly Signal[]
