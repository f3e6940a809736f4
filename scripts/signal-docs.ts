import { BUILTIN_SIGNALS } from '../signals/index.ts'
import { SignalRegistry } from '../src/pipeline/registry.ts'
import type { FindingSpec, ScannerId } from '../src/pipeline/signal.ts'
import { RISK_GROUPS } from '../src/kernel/vocabulary.ts'

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

/**
 * The findings that never stand together (`excludes`, docs/scoring.md "One story per fact"), as
 * groups of which an answer carries at most one: each group grown from a pair not yet listed by every
 * finding excluded with all of its members.
 */
export function exclusionTable(registry = builtins()): string {
  const pairs = registry.exclusions()
  const excluded = new Set(pairs.map(([a, b]) => `${a} ${b}`))
  const apart = (a: string, b: string) => excluded.has(`${a} ${b}`) || excluded.has(`${b} ${a}`)
  const order = registry.all().flatMap(({ meta }) => Object.keys(meta.findings).map((code) => `${meta.id}/${code}`))
  const listed = new Set<string>()
  const groups: string[][] = []
  for (const [a, b] of pairs) {
    if (listed.has(`${a} ${b}`)) continue
    const group = [a, b]
    for (const key of order) if (!group.includes(key) && group.every((member) => apart(member, key))) group.push(key)
    group.sort((x, y) => order.indexOf(x) - order.indexOf(y))
    for (const x of group) for (const y of group) listed.add(`${x} ${y}`)
    groups.push(group)
  }
  const cell = (group: string[]) => {
    const bySignal = new Map<string, string[]>()
    for (const key of group) {
      const cut = key.lastIndexOf('/')
      const signal = key.slice(0, cut)
      bySignal.set(signal, [...(bySignal.get(signal) ?? []), `\`${key.slice(cut + 1)}\``])
    }
    return [...bySignal].map(([signal, codes]) => `${signal}: ${codes.join(', ')}`).join('; ')
  }
  return ['| At most one of these in an answer |', '|---|', ...groups.map((group) => `| ${cell(group)} |`)].join('\n')
}
