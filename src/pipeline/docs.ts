import { BUILTIN_SIGNALS } from '../../signals/index.ts'
import { SignalRegistry } from './registry.ts'
import type { FindingSpec, ScannerId } from './signal.ts'
import { RISK_GROUPS } from './vocabulary.ts'

// The scoring tables of docs/, generated from the signal registry (scripts/docs.ts writes them).

const builtins = () => new SignalRegistry(BUILTIN_SIGNALS)

/** The signal catalogue of docs/signals.md. */
export function signalCatalogue(registry = builtins()): string {
  return registry
    .all()
    .map((signal) => {
      const { meta } = signal
      const defaults = Object.entries(meta.defaults as Record<string, unknown>)
        .map(([key, value]) => `\`${key}\` = ${JSON.stringify(value)}`)
        .join(', ')
      return [
        `### \`${meta.id}\` — ${meta.title} (v${meta.version})`,
        '',
        `- **Detects:** ${meta.risk}`,
        `- **Why it matters:** ${meta.why}`,
        `- **Scanners:** ${meta.scanners.join(', ')} · **Risk group:** ${meta.riskGroup ?? 'contract_risk (not declared)'} · **Facts:** ${meta.facts.join(', ')} · **Impact:** ${meta.impact} · **Confidence:** ${meta.confidence}`,
        `- **Options:** ${defaults || 'none'}`,
        `- **Findings:** ${Object.keys(meta.findings)
          .map((code) => `\`${code}\``)
          .join(', ')}`,
      ].join('\n')
    })
    .join('\n\n')
}

/** A number as the docs write it (a true minus sign). */
const signed = (value: number) => (value < 0 ? `−${-value}` : String(value))

/** A finding's points under the defaults: the option that holds them, and a hard fail, named. */
function pointsCell(spec: FindingSpec, defaults: Record<string, unknown>): string {
  const points =
    typeof spec.points === 'number'
      ? signed(spec.points)
      : `${signed(defaults[spec.points] as number)} (\`${spec.points}\`)`
  if (spec.hardFail) return `${points}, **hard fail**`
  return spec.ceiling ? `${points}, **grade ≤ ${spec.ceiling}**` : points
}

/** A finding's condition with each option it names followed by its default: `highPct` = 60. */
function whenCell(spec: FindingSpec, defaults: Record<string, unknown>): string {
  return spec.when.replace(/`(\w+)`/g, (whole, name: string) =>
    name in defaults ? `\`${name}\` = ${JSON.stringify(defaults[name])}` : whole,
  )
}

/** The findings a scanner can report, with severity, points under the default options, when and why. */
export function findingsTable(scanner: ScannerId, registry = builtins()): string {
  const rows = registry.forScanner(scanner).flatMap(({ meta }) =>
    Object.entries(meta.findings).map(([code, spec]) => {
      const cells = [
        `\`${code}\``,
        meta.id,
        spec.severity,
        pointsCell(spec, meta.defaults as Record<string, unknown>),
        whenCell(spec, meta.defaults as Record<string, unknown>),
        spec.why ?? '',
      ]
      return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`
    }),
  )
  return ['| Finding | Signal | Severity | Points | When | Why |', '|---|---|---|---:|---|---|', ...rows].join('\n')
}

/** The deep dive's risk groups and the signals each one's findings count in. */
export function riskGroupTable(registry = builtins()): string {
  const signals = registry.forScanner('deep_dive')
  const rows = RISK_GROUPS.map((group) => {
    const members = signals
      .filter((signal) => (signal.meta.riskGroup ?? 'contract_risk') === group)
      .map((signal) => signal.meta.id)
    const extra = group === 'contract_risk' ? ' (and third-party signals that declare no group)' : ''
    return `| \`${group}\` | ${members.join(', ')}${extra} |`
  })
  return ['| Group | Signals |', '|---|---|', ...rows].join('\n')
}
