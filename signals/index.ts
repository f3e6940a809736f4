/**
 * The built-in signals, a sorted registry of static imports (so `bun build --compile` embeds them).
 * Each scanner runs the ones that name it in `meta.scanners`.
 */
import type { Signal } from '../src/pipeline/signal.ts'
import authorityExemption from './authority-exemption/index.ts'
import bundledLaunch from './bundled-launch/index.ts'
import buySellPressure from './buy-sell-pressure/index.ts'
import devHistory from './dev-history/index.ts'
import freezeAuthority from './freeze-authority/index.ts'
import holderConcentration from './holder-concentration/index.ts'
import honeypot from './honeypot/index.ts'
import impersonation from './impersonation/index.ts'
import largeTransactions from './large-transactions/index.ts'
import launchAnomaly from './launch-anomaly/index.ts'
import launchPattern from './launch-pattern/index.ts'
import launchpad from './launchpad/index.ts'
import liquidity from './liquidity/index.ts'
import liquidityLock from './liquidity-lock/index.ts'
import lpStatus from './lp-status/index.ts'
import metadataMutability from './metadata-mutability/index.ts'
import mintAuthority from './mint-authority/index.ts'
import momentum from './momentum/index.ts'
import priceAction from './price-action/index.ts'
import sniperActivity from './sniper-activity/index.ts'
import token2022Extensions from './token-2022-extensions/index.ts'
import tokenHealth from './token-health/index.ts'
import volatility from './volatility/index.ts'
import walletClustering from './wallet-clustering/index.ts'
import washTrading from './wash-trading/index.ts'

export const BUILTIN_SIGNALS: readonly Signal[] = [
  authorityExemption,
  bundledLaunch,
  buySellPressure,
  devHistory,
  freezeAuthority,
  holderConcentration,
  honeypot,
  impersonation,
  largeTransactions,
  launchAnomaly,
  launchPattern,
  launchpad,
  liquidity,
  liquidityLock,
  lpStatus,
  metadataMutability,
  mintAuthority,
  momentum,
  priceAction,
  sniperActivity,
  token2022Extensions,
  tokenHealth,
  volatility,
  walletClustering,
  washTrading,
] as unknown as readonly Signal[]
