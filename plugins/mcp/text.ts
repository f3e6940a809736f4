/**
 * The words beside a tool's JSON answer (its second text content): what an agent, or the person it
 * reports to, must not miss — the verdict in a sentence, the deciding findings in the answer's order,
 * the members that were not measured (their placeholders are not values) and what the scan did not
 * examine. From the same table the CLI and the web card read (src/rendering/answer-prose.ts).
 */
import { type RenderedAnswer, scopeLine, unmeasuredMembers } from '../../src/rendering/answer-prose.ts'

/** The routes whose answers' members the table knows, by route key. */
const KINDS: Readonly<Record<string, RenderedAnswer>> = {
  'POST /scan/quick': 'quick_scan',
  'POST /market/intel': 'market_intel',
  'POST /scan/deep': 'deep_dive',
  'POST /exit/check': 'exit_check',
}

/** Deciding findings named in the text: as many as the CLI shows first. */
export const TEXT_FINDINGS = 4

interface Finding {
  code: string
  title: string
  severity: string
  impact: number
  hard_fail?: boolean
  grade_ceiling?: string | null
}

/** The answer of `route` in words, or undefined for a route with nothing to add to its JSON. */
export function answerText(route: string, answer: Record<string, unknown>): string | undefined {
  const kind = KINDS[route]
  const scope = answer.scope as { excludes?: unknown } | undefined
  if (!kind && !Array.isArray(scope?.excludes)) return undefined
  const lines: string[] = []
  const summary =
    typeof answer.summary === 'string'
      ? answer.summary
      : typeof answer.market_summary === 'string'
        ? answer.market_summary
        : typeof answer.full_risk_report === 'string'
          ? answer.full_risk_report.split('\n\n')[0]
          : undefined
  if (summary) lines.push(summary)
  const findings = Array.isArray(answer.factors) ? (answer.factors as Finding[]) : []
  // The answer's order is the deciding order (hard fails, grade ceilings, severity, impact).
  const deciding = findings
    .filter((finding) => finding.hard_fail || finding.grade_ceiling || finding.impact < 0)
    .slice(0, TEXT_FINDINGS)
  if (deciding.length > 0)
    lines.push(
      `Deciding findings: ${deciding
        .map((finding) => {
          const cap = finding.hard_fail
            ? ', fails the token'
            : finding.grade_ceiling
              ? `, caps the grade at ${finding.grade_ceiling}`
              : ''
          return `${finding.title} [${finding.code}, ${finding.severity}${cap}]`
        })
        .join('; ')}.`,
    )
  if (kind && Array.isArray(answer.missing_fields)) {
    const members = unmeasuredMembers(answer as { missing_fields: string[] }, kind)
    if (members.length > 0)
      lines.push(
        `Not measured (their values in the answer are null or placeholders, not readings): ${members.join(', ')}.`,
      )
  }
  if (Array.isArray(scope?.excludes)) {
    const line = scopeLine({ excludes: scope.excludes as string[] })
    if (line) lines.push(line)
  }
  return lines.length > 0 ? lines.join('\n') : undefined
}
