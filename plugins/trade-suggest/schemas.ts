/** What POST /trade/suggest takes, and the literal unions its manifest's schemas read. */
import { Type } from '@sinclair/typebox'
import { JUPITER_INTERVALS } from '../../src/sources/jupiter.ts'
import { RISK_APPETITES } from './rules.ts'

export const SUGGEST_SOURCES = ['signal', 'launch', 'both'] as const
export type SuggestSource = (typeof SUGGEST_SOURCES)[number]
export const BUDGET_USD = { default: 100, min: 1, max: 1_000_000 } as const

/** A union of string literals, typed as them. */
export const Literals = <Value extends string>(values: readonly Value[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description === undefined ? {} : { description },
  )

/** What the route takes (its manifest's body). */
export const SuggestBody = Type.Object({
  risk_appetite: Type.Optional(Literals(RISK_APPETITES, 'conservative, balanced (default) or aggressive')),
  source: Type.Optional(
    Literals(SUGGEST_SOURCES, 'signal (the signal radar), launch (curves near completion) or both (default)'),
  ),
  interval: Type.Optional(
    Literals(JUPITER_INTERVALS, 'The window the signal radar reads: 5m, 1h (default), 6h or 24h'),
  ),
  budget_usd: Type.Optional(
    Type.Number({
      minimum: BUDGET_USD.min,
      maximum: BUDGET_USD.max,
      default: BUDGET_USD.default,
      description: `The most you would put in, USD (default ${BUDGET_USD.default}); the suggested size is a share of it`,
    }),
  ),
})
