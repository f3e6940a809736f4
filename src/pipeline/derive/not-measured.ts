import type { FactName } from '../../facts/types.ts'
import {
  factor,
  ok,
  unknownOutcome,
  type Factor,
  type SignalFields,
  type SignalMeta,
  type SignalOutcome,
} from '../signal.ts'

/**
 * The finding code of an answer field that could not be measured although its facts were gathered
 * (the trades read do not reach back far enough, the quote has no USD price...). The market-intel
 * answer lists `evidence.fields` in `missing_fields` next to the missing facts
 * (docs/scoring/market-intel.md).
 */
export const NOT_MEASURED = 'NOT_MEASURED'

/** An informational factor naming answer fields left null (or at their documented fallback) and why. */
export function notMeasured(meta: Pick<SignalMeta, 'id' | 'title'>, fields: readonly string[], reason: string): Factor {
  return factor(meta, NOT_MEASURED, 'info', 0, `${meta.title}: ${fields.join(', ')} not measured`, reason, {
    fields: [...fields],
  })
}

/**
 * `ok` when every fact the signal read was there; otherwise `unknown` naming the missing ones, with
 * the fields it could still compute from the others and its findings after the UNKNOWN factor.
 */
export function outcomeOf(
  meta: Pick<SignalMeta, 'id' | 'title'>,
  missing: readonly FactName[],
  factors: Factor[],
  fields: SignalFields,
): SignalOutcome {
  if (missing.length === 0) return ok(factors, fields)
  const unknown = unknownOutcome(meta, [...missing], fields)
  return { ...unknown, factors: [...unknown.factors, ...factors] }
}

/**
 * The outcome of a signal when the market lists no pair for the token: the market data is not
 * there, which counts as the `market` fact missing (docs/data-quality.md), with null fields.
 */
export function noMarket(
  meta: Pick<SignalMeta, 'id' | 'title'>,
  fields: SignalFields,
  factors: Factor[] = [],
): SignalOutcome {
  return {
    status: 'unknown',
    missing: ['market'],
    factors: [
      factor(
        meta,
        'UNKNOWN',
        'info',
        0,
        `${meta.title}: not assessed`,
        'No market pair trades this token: there is no price, volume or liquidity to read.',
        { missing: ['market'] },
      ),
      ...factors,
    ],
    fields,
  }
}
