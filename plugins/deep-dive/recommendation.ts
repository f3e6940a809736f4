import type { Static } from '@sinclair/typebox'
import type { DataQuality } from '../../src/facts/data-quality.ts'
import type { FactName } from '../../src/facts/types.ts'
import type { Grade } from '../../src/pipeline/grade.ts'
import type { KeyDriver, Recommendation, RiskGroup, RISK_LEVELS } from './schemas.ts'

type Level = (typeof RISK_LEVELS)[number]
type Action = Static<typeof Recommendation>['action']
type Horizon = Static<typeof Recommendation>['time_horizon']

/** Facts without which clean behaviour is not established: CONSIDER needs every one of them. */
export const BEHAVIOUR_FACTS: readonly FactName[] = ['launch', 'dev_history', 'funding', 'trades']
/** CONSIDER needs a token at least a day old: most rugs happen in the first hours (quick-scan NEW_TOKEN). */
export const CONSIDER_MIN_AGE_DAYS = 1
/** Younger than a week, a verdict holds for the short term only: the picture changes by the hour. */
export const SHORT_TERM_DAYS = 7
/** A month of history with permanent safety (revoked authorities, burned or locked LP) supports a long-term view. */
export const LONG_TERM_DAYS = 30
/**
 * How sure each rule is before data completeness: a certain finding (a hard fail, a honeypot, a
 * rugging developer) is near-certain; risk-based verdicts less so; DYOR says we do not know.
 */
export const RULE_CONFIDENCE = {
  AVOID_CERTAIN: 0.95,
  AVOID_GRADE: 0.8,
  DYOR_LIMITED_DATA: 0.4,
  CONSIDER: 0.75,
  WATCH: 0.65,
} as const
export type RuleId = keyof typeof RULE_CONFIDENCE

export interface RecommendationInput {
  grade: Grade
  hardFail: boolean
  quality: DataQuality
  missing: readonly FactName[]
  /** Share of requested facts gathered, 0–1. */
  completeness: number
  breakdown: Record<RiskGroup, Level>
  isHoneypot?: boolean
  previousRugs?: boolean
  /** The findings whose grade ceiling decided the grade (below the score's band): named in the reason. */
  capping: readonly { code: string; title: string }[]
  /** Token age in days (creation, else the oldest pair); null when unknown. */
  ageDays: number | null
  /** Authorities revoked (or issuer-exempt) and LP burned, locked or not applicable. */
  permanentSafety: boolean
  drivers: readonly Static<typeof KeyDriver>[]
}

/**
 * The recommendation, by the first rule that applies (docs/scoring/deep-dive.md) — a table of the grade
 * (which already carries every finding's ceiling), the data, the certain findings and the age:
 * 1. AVOID_CERTAIN — a hard fail (grade F by rule), a honeypot, or a developer that rugged before;
 * 2. AVOID_GRADE — grade D or F: the score, or a finding that caps the grade (named in the reason);
 * 3. DYOR_LIMITED_DATA — a core fact or a behaviour fact is missing: clean behaviour is not established;
 * 4. CONSIDER — grade A or B, contract and behavioural risk LOW, no group HIGH, at least a day old;
 * 5. WATCH — everything else: grade C, or A/B not yet clean or a day old.
 * Confidence is the rule's, scaled by data completeness: × (0.5 + 0.5 × completeness).
 */
export function recommend(input: RecommendationInput): Static<typeof Recommendation> {
  const { breakdown } = input
  const young = input.ageDays === null || input.ageDays < SHORT_TERM_DAYS
  const top = input.drivers.slice(0, 3).map((driver) => `${driver.title} (${driver.code})`)
  const because = top.length > 0 ? ` Main findings: ${top.join('; ')}.` : ''
  const decide = (rule: RuleId, action: Action, horizon: Horizon, reason: string) => ({
    action,
    reason: reason + because,
    confidence: Math.round(RULE_CONFIDENCE[rule] * (0.5 + 0.5 * input.completeness) * 100) / 100,
    time_horizon: horizon,
    rule,
  })

  const certain = [
    input.hardFail && 'a finding that fails the token outright (grade F)',
    input.isHoneypot && 'holders cannot sell (honeypot)',
    input.previousRugs && 'the developer pulled the liquidity of its earlier tokens',
  ].filter(Boolean)
  if (certain.length > 0)
    return decide('AVOID_CERTAIN', 'AVOID', 'LONG_TERM', `Avoid: ${certain.join('; ')}. These do not go away.`)

  if (input.grade === 'D' || input.grade === 'F') {
    const capped = input.capping.map((entry) => `${entry.title} (${entry.code})`)
    const why =
      capped.length > 0
        ? `grade ${input.grade}, capped by ${capped.join('; ')}: a finding that alone rules the token out`
        : `grade ${input.grade}: the risks found add up`
    return decide('AVOID_GRADE', 'AVOID', young ? 'SHORT_TERM' : 'MEDIUM_TERM', `Avoid: ${why}.`)
  }

  const behaviourMissing = BEHAVIOUR_FACTS.filter((name) => input.missing.includes(name))
  if (input.quality === 'LIMITED' || behaviourMissing.length > 0)
    return decide(
      'DYOR_LIMITED_DATA',
      'DYOR',
      'SHORT_TERM',
      `Do your own research: the data is too limited for a verdict (missing: ${input.missing.join(', ')}). Nothing found so far rules the token out; scan again when the sources recover.`,
    )

  const gradeOk = input.grade === 'A' || input.grade === 'B'
  const clean =
    breakdown.contract_risk === 'LOW' &&
    breakdown.behavioral_risk === 'LOW' &&
    breakdown.liquidity_risk !== 'HIGH' &&
    breakdown.market_risk !== 'HIGH'
  const oldEnough = input.ageDays !== null && input.ageDays >= CONSIDER_MIN_AGE_DAYS
  if (gradeOk && clean && oldEnough) {
    const horizon: Horizon =
      input.ageDays! >= LONG_TERM_DAYS && input.permanentSafety ? 'LONG_TERM' : young ? 'SHORT_TERM' : 'MEDIUM_TERM'
    return decide(
      'CONSIDER',
      'CONSIDER',
      horizon,
      `Consider: grade ${input.grade}, clean contract and behaviour (no insider links, bundles, wash trading or rug history found).`,
    )
  }

  const why = [
    !gradeOk && `grade ${input.grade}`,
    breakdown.contract_risk !== 'LOW' && `contract risk ${breakdown.contract_risk}`,
    breakdown.behavioral_risk !== 'LOW' && `behavioural risk ${breakdown.behavioral_risk}`,
    breakdown.liquidity_risk === 'HIGH' && 'liquidity risk HIGH',
    breakdown.market_risk === 'HIGH' && 'market risk HIGH',
    !oldEnough && 'less than a day of history',
  ].filter(Boolean)
  return decide(
    'WATCH',
    'WATCH',
    young ? 'SHORT_TERM' : 'MEDIUM_TERM',
    `Watch: ${why.join('; ')}. Nothing rules the token out, but it does not pass for a position yet.`,
  )
}

/** The recommendation table of docs/scoring/deep-dive.md, from the rules' constants (generated by `npm run docs`). */
export function recommendationTable(): string {
  const rows: [RuleId, Action, string, string][] = [
    [
      'AVOID_CERTAIN',
      'AVOID',
      'a hard fail (grade F by rule), `is_honeypot`, or `previous_rugs`',
      'LONG_TERM (these do not go away)',
    ],
    [
      'AVOID_GRADE',
      'AVOID',
      'grade D or F — the reason names the findings whose ceiling capped it (a bundled launch, a permanent delegate, LP one wallet can pull, liquidity too thin to sell into, fake volume — wash score ≥ 90…), else says the risks add up',
      `SHORT_TERM under ${SHORT_TERM_DAYS} days old, else MEDIUM_TERM`,
    ],
    [
      'DYOR_LIMITED_DATA',
      'DYOR',
      `\`data_quality\` LIMITED, or ${BEHAVIOUR_FACTS.map((name) => `\`${name}\``).join(', ')} missing (clean behaviour not established)`,
      'SHORT_TERM (scan again)',
    ],
    [
      'CONSIDER',
      'CONSIDER',
      `grade A or B, contract and behavioural risk LOW, liquidity and market risk not HIGH, at least **${CONSIDER_MIN_AGE_DAYS} day** old`,
      `LONG_TERM at ≥ ${LONG_TERM_DAYS} days with permanent safety (authorities revoked or exempt, LP burned/locked/not applicable); SHORT_TERM under ${SHORT_TERM_DAYS} days; else MEDIUM_TERM`,
    ],
    [
      'WATCH',
      'WATCH',
      'everything else: grade C (a live authority, wash trading scored 60–89, a sniper swarm cap there), or A/B not clean or under a day old',
      `SHORT_TERM under ${SHORT_TERM_DAYS} days (or age unknown), else MEDIUM_TERM`,
    ],
  ]
  return [
    '| Rule | Action | When | Horizon | Base confidence |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([rule, action, when, horizon]) =>
        `| \`${rule}\` | ${action} | ${when} | ${horizon} | ${RULE_CONFIDENCE[rule]} |`,
    ),
  ].join('\n')
}
