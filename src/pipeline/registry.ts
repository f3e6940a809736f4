import { Kind, type TObject } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { LOADERS } from '../facts/index.ts'
import { SCANNER_IDS, SIGNAL_API_VERSION, type ScannerId, type Signal } from './signal.ts'
import { RISK_GROUPS, SEVERITIES, GRADES } from '../kernel/vocabulary.ts'

/** A third-party signal package (ESLint-plugin style), named in SIGNAL_PLUGINS. */
export interface SignalPackage {
  meta: { name: string; version: string; namespace: string; apiVersion: number }
  signals: Record<string, Signal>
}

/** A signal or package that cannot be registered; the service must not start. */
export class SignalRegistryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SignalRegistryError'
  }
}

const ID = /^[a-z][a-z0-9-]*$/
const SEMVER = /^\d+\.\d+\.\d+(?:-[\w.]+)?$/
const IMPACTS = new Set(['high', 'medium', 'low', 'informational'])
const CONFIDENCES = new Set(['high', 'medium', 'low'])
const FACTS = new Set(Object.keys(LOADERS))
const CODE = /^[A-Z][A-Z0-9_]*$/
/** Codes the pipeline itself raises (docs/scoring.md); no signal declares them. */
const PIPELINE_CODES = new Set(['UNKNOWN', 'SIGNAL_ERROR', 'NOT_MEASURED', 'CORE_NOT_READ'])

/** Why a findings catalogue is invalid, or undefined when it is valid. */
function findingsProblem(findings: unknown, defaults: Record<string, unknown>): string | undefined {
  if (typeof findings !== 'object' || findings === null || Object.keys(findings).length === 0)
    return 'needs a findings catalogue (code → severity, points, when)'
  for (const [code, spec] of Object.entries(findings as Record<string, Record<string, unknown>>)) {
    if (!CODE.test(code)) return `finding "${code}" must be UPPER_SNAKE_CASE`
    if (PIPELINE_CODES.has(code)) return `finding ${code} is the pipeline's own code`
    if (!SEVERITIES.includes(spec?.severity as never))
      return `finding ${code}: severity must be one of ${SEVERITIES.join(', ')}`
    const points = typeof spec.points === 'string' ? defaults[spec.points] : spec.points
    if (typeof points !== 'number' || !Number.isFinite(points) || points > 0)
      return `finding ${code}: points must be a number ≤ 0 or the name of a numeric option (got ${JSON.stringify(spec.points)})`
    if (spec.hardFail !== undefined && typeof spec.hardFail !== 'boolean')
      return `finding ${code}: hardFail is a boolean`
    if (spec.ceiling !== undefined && !GRADES.includes(spec.ceiling as never))
      return `finding ${code}: ceiling must be one of ${GRADES.join(', ')}`
    if (spec.ceiling !== undefined && typeof spec.why !== 'string') return `finding ${code}: a ceiling needs its "why"`
    if (typeof spec.when !== 'string' || spec.when === '')
      return `finding ${code}: needs "when" (the condition in words)`
    const excludes = spec.excludes
    if (excludes === undefined) continue
    if (!Array.isArray(excludes)) return `finding ${code}: excludes is a list of finding codes`
    for (const entry of excludes) {
      const reference = typeof entry === 'string' ? EXCLUDED.exec(entry) : null
      if (!reference) return `finding ${code}: excludes ${JSON.stringify(entry)}, which is not CODE or signal-id/CODE`
      if (reference[1] === undefined && !(reference[2]! in (findings as object)))
        return `finding ${code}: excludes ${entry}, which its own catalogue does not declare`
      if (reference[1] === undefined && reference[2] === code) return `finding ${code}: excludes itself`
    }
  }
  return undefined
}

/** A finding `excludes` names: its own signal's code, or `<signal id>/<CODE>` (ids may carry a namespace). */
const EXCLUDED = /^(?:([a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)?)\/)?([A-Z][A-Z0-9_]*)$/

/** Two findings, each `<signal id>/<CODE>`, that never stand in one answer (sorted within and between pairs). */
export type ExcludedPair = readonly [string, string]

/** A factor's key in the exclusions: `<signal id>/<CODE>`. */
const keyOf = (entry: { signal: string; code: string }) => `${entry.signal}/${entry.code}`

/**
 * Every signal the scanners may run, validated at boot: unique ids, semver, known scanners and facts,
 * an options schema whose defaults it accepts. Third-party signals carry their package's namespace.
 */
export class SignalRegistry {
  readonly #signals = new Map<string, Signal>()
  readonly #exclusions: ExcludedPair[]

  constructor(builtins: readonly Signal[], packages: readonly SignalPackage[] = []) {
    for (const signal of builtins) this.#add(signal, undefined)
    for (const pkg of packages) {
      const label = `signal package ${pkg?.meta?.name ?? '(unnamed)'}`
      const meta = pkg?.meta
      if (!meta || typeof meta.name !== 'string' || typeof meta.namespace !== 'string' || !ID.test(meta.namespace))
        throw new SignalRegistryError(`${label}: meta must have name, version and a kebab-case namespace`)
      if (!SEMVER.test(String(meta.version)))
        throw new SignalRegistryError(`${label}: version "${meta.version}" is not semver`)
      if (meta.apiVersion !== SIGNAL_API_VERSION)
        throw new SignalRegistryError(
          `${label}: written for signal API ${meta.apiVersion}, this service speaks ${SIGNAL_API_VERSION}`,
        )
      if (typeof pkg.signals !== 'object' || pkg.signals === null)
        throw new SignalRegistryError(`${label}: exports no signals`)
      for (const signal of Object.values(pkg.signals)) this.#add(signal, meta.namespace)
    }
    this.#exclusions = this.#resolveExclusions()
  }

  /**
   * Every pair of findings declared unable to stand together (`excludes`, either side), once each:
   * the property test/common-sense.test.ts checks every answer against (docs/scoring.md).
   */
  exclusions(): readonly ExcludedPair[] {
    return this.#exclusions
  }

  /** The excluded pairs both of whose findings are among `factors` (none, in a coherent answer). */
  conflicts(factors: readonly { signal: string; code: string }[]): ExcludedPair[] {
    const present = new Set(factors.map(keyOf))
    return this.#exclusions.filter(([a, b]) => present.has(a) && present.has(b))
  }

  /** The declared exclusions as pairs, each naming a registered signal's declared finding (else the boot fails). */
  #resolveExclusions(): ExcludedPair[] {
    const pairs = new Map<string, ExcludedPair>()
    for (const { meta } of this.#signals.values())
      for (const [code, spec] of Object.entries(meta.findings))
        for (const entry of spec.excludes ?? []) {
          const [, signalId = meta.id, other] = EXCLUDED.exec(entry)!
          if (!this.#signals.get(signalId)?.meta.findings[other!])
            throw new SignalRegistryError(
              `signal ${meta.id}: finding ${code} excludes ${entry}, which no registered signal declares`,
            )
          const pair = [`${meta.id}/${code}`, `${signalId}/${other}`].sort() as [string, string]
          if (pair[0] === pair[1]) throw new SignalRegistryError(`signal ${meta.id}: finding ${code} excludes itself`)
          pairs.set(pair.join(' '), pair)
        }
    return [...pairs.values()].sort((a, b) => a.join(' ').localeCompare(b.join(' ')))
  }

  get(id: string): Signal | undefined {
    return this.#signals.get(id)
  }

  all(): Signal[] {
    return [...this.#signals.values()]
  }

  /** The signals serving a scanner, in registration order. */
  forScanner(scanner: ScannerId): Signal[] {
    return this.all().filter((signal) => signal.meta.scanners.includes(scanner))
  }

  #add(signal: Signal, namespace: string | undefined): void {
    const meta = signal?.meta
    const where = `signal ${meta?.id ?? '(no id)'}`
    if (!meta || typeof signal.detect !== 'function')
      throw new SignalRegistryError(`${where}: must export { meta, detect }`)
    const [prefix, local] = meta.id.includes('/') ? meta.id.split('/') : [undefined, meta.id]
    if (namespace === undefined && prefix !== undefined)
      throw new SignalRegistryError(`${where}: built-in ids have no namespace`)
    if (namespace !== undefined && prefix !== namespace)
      throw new SignalRegistryError(`${where}: third-party ids are "${namespace}/<id>" (the package's namespace)`)
    if (!local || !ID.test(local)) throw new SignalRegistryError(`${where}: id must be kebab-case`)
    if (this.#signals.has(meta.id)) throw new SignalRegistryError(`${where}: registered twice`)
    if (!SEMVER.test(meta.version)) throw new SignalRegistryError(`${where}: version "${meta.version}" is not semver`)
    if (!meta.title || !meta.risk || !meta.why)
      throw new SignalRegistryError(`${where}: needs a title, the risk it detects and why it matters`)
    if (meta.scanners.length === 0 || meta.scanners.some((scanner) => !SCANNER_IDS.includes(scanner)))
      throw new SignalRegistryError(`${where}: scanners must be among ${SCANNER_IDS.join(', ')}`)
    if (meta.riskGroup !== undefined && !RISK_GROUPS.includes(meta.riskGroup))
      throw new SignalRegistryError(`${where}: riskGroup must be one of ${RISK_GROUPS.join(', ')}`)
    const unknownFact = meta.facts.find((fact) => !FACTS.has(fact))
    if (unknownFact)
      throw new SignalRegistryError(`${where}: needs unknown fact "${unknownFact}" (known: ${[...FACTS].join(', ')})`)
    if (!IMPACTS.has(meta.impact) || !CONFIDENCES.has(meta.confidence))
      throw new SignalRegistryError(
        `${where}: impact must be high/medium/low/informational and confidence high/medium/low`,
      )
    if ((meta.options as TObject)?.[Kind] !== 'Object')
      throw new SignalRegistryError(`${where}: options must be a TypeBox object schema`)
    if (!Value.Check(meta.options, meta.defaults)) {
      const first = Value.Errors(meta.options, meta.defaults).First()
      throw new SignalRegistryError(
        `${where}: defaults do not match the options schema (${first?.path} ${first?.message})`,
      )
    }
    const problem = findingsProblem(meta.findings, meta.defaults as Record<string, unknown>)
    if (problem) throw new SignalRegistryError(`${where}: ${problem}`)
    this.#signals.set(meta.id, signal)
  }
}

/**
 * Imports the third-party signal packages named in SIGNAL_PLUGINS (comma-separated package names or
 * paths). Only when running from source: a compiled binary embeds static imports only.
 */
export async function loadSignalPackages(spec: string | undefined): Promise<SignalPackage[]> {
  if (!spec) return []
  const packages: SignalPackage[] = []
  for (const name of spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    let module: { default?: SignalPackage } & Partial<SignalPackage>
    try {
      module = await import(name.startsWith('.') ? `${process.cwd()}/${name}` : name)
    } catch (error) {
      throw new SignalRegistryError(`SIGNAL_PLUGINS: cannot load "${name}" (${(error as Error).message})`)
    }
    packages.push((module.default ?? module) as SignalPackage)
  }
  return packages
}
