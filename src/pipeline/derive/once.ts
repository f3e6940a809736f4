import type { FactView } from '../signal.ts'

/**
 * What each scan's facts derived so far. A scan hands every signal one FactView (runScan makes one per
 * scan), so a derivation kept with that view — the trade tape, the token's pairs, the authority
 * exemption — is computed by the first signal that asks and read by the others, and goes with the scan.
 * Derivations are pure functions of the view's facts: memoising them changes no outcome.
 */
const derivedByScan = new WeakMap<FactView, Map<string, unknown>>()

/** `derive()`, computed once per scan (per FactView) and `key`; later calls with the same key read it back. */
export function derivedOnce<T>(facts: FactView, key: string, derive: () => T): T {
  let derived = derivedByScan.get(facts)
  if (!derived) {
    derived = new Map()
    derivedByScan.set(facts, derived)
  }
  if (derived.has(key)) return derived.get(key) as T
  const value = derive()
  derived.set(key, value)
  return value
}
