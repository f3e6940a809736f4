import { PUMP_AMM_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS } from '../onchain/programs.ts'
import { decodeBondingCurve } from '../onchain/pump.ts'
import type { TokenContext } from './token-context.ts'
import { mintDerivedAccounts, perAccount } from './onchain-accounts.ts'
import type { LaunchpadFact } from './types.ts'

const ZERO_KEY = '11111111111111111111111111111111'

/** A bonding curve account decoded, once per answer. */
const curveOf = perAccount((account) => decodeBondingCurve(account.data))

/**
 * Launchpad state from the chain: the pump.fun bonding curve at its PDA (not a guess from a DEX name),
 * whether it completed, and whether the canonical PumpSwap pool it graduates to exists.
 */
export async function loadLaunchpad(facts: TokenContext): Promise<LaunchpadFact> {
  const { bondingCurve, pumpSwapPool, addresses } = await mintDerivedAccounts(facts)
  if (!bondingCurve || bondingCurve.owner !== PUMP_PROGRAM_ADDRESS) return { pumpFun: null }
  const curve = curveOf(bondingCurve)
  if (!curve) return { pumpFun: null }
  return {
    pumpFun: {
      bondingCurve: addresses.bondingCurve,
      complete: curve.complete,
      realQuoteReserves: curve.realQuoteReserves,
      creator: curve.creator === ZERO_KEY ? null : curve.creator,
      graduatedPool: pumpSwapPool && pumpSwapPool.owner === PUMP_AMM_PROGRAM_ADDRESS ? addresses.pumpSwapPool : null,
    },
  }
}
