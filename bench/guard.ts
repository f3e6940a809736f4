/**
 * The guard against slipping: runs short forms of the benches that carry issue 30's figures — the 402
 * path (`payments`), the cheap paths (`http`), the scanners' round trips and times (`scanners`), cost per
 * scan (`cost`) and the cluster (`cluster`) — and prints every figure beside its baseline in
 * bench/baseline.json, its ratio, and its target where the issues set one. A figure more than 15% worse
 * than its baseline is flagged, as is a missed target; then the command exits 1.
 *
 *   npm run bench -- guard [--update] [--runs 1] [--only http,payments,...] [--verbose] [--margin 15]
 *
 * `--update --runs 3` writes the figures measured as the new baseline: each figure's median over the
 * runs, and its worst run, which later runs are held to (timings on a 2-core machine move 10–20% from
 * one quiet run to the next). Do it on a quiet machine — nothing else running, the load average near
 * 0 — and say so in docs/benchmarks.md. `--verbose` prints each bench's
 * own output as well. About three minutes on the 2-core machine; not part of `npm test` (timings are
 * noisy on shared machines; the round-trip counts are also tests: test/round-trips.test.ts).
 *
 * The short forms are the guard's own: their figures are compared only with a baseline the guard made,
 * never with the long benches' figures in docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import * as cluster from './cluster.ts'
import * as cost from './cost.ts'
import type { BenchContext, Figure } from './figures.ts'
import * as http from './http.ts'
import { numberOption } from './load.ts'
import * as payments from './payments.ts'
import * as scanners from './scanners.ts'

export const BASELINE_PATH = join(import.meta.dir, 'baseline.json')

/** Each bench's short form: the options that keep the whole guard within about three minutes. */
const STEPS: { name: string; run: (args: string[], context: BenchContext) => Promise<Figure[]>; args: string[] }[] = [
  { name: 'http', run: http.run, args: ['--duration', '5'] },
  { name: 'payments', run: payments.run, args: ['--duration', '3', '--paid', '10'] },
  { name: 'scanners', run: scanners.run, args: ['--latency', '100', '--repeat', '2000'] },
  // Last of the three on the shared sandbox: it adds launchpad coins to it.
  { name: 'cost', run: cost.run, args: ['--scans', '1200', '--tokens', '80', '--rate', '60'] },
  { name: 'cluster', run: cluster.run, args: ['--seconds', '3', '--workers', '1', '--lease-ms', '4000'] },
]

export interface Baseline {
  measured: string
  commit: string
  machine: string
  loadAverage: number
  /** How many runs the figures come from. */
  runs: number
  /** Each figure's median over the runs (`value`) and its worst (`worst`): the reference a run is held to. */
  figures: Record<string, Omit<Figure, 'name'> & { worst: number }>
}

export async function run(args: string[]): Promise<Figure[]> {
  const update = args.includes('--update')
  const verbose = args.includes('--verbose')
  const margin = numberOption(args, 'margin', 15) / 100
  const onlyIndex = args.indexOf('--only')
  const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]!.split(',')) : undefined
  const steps = STEPS.filter((step) => !only || only.has(step.name))
  const baseline = readBaseline()
  const load = loadavg()[0]!
  const started = performance.now()
  console.log(
    `bench guard: ${steps.map((step) => step.name).join(', ')}; ${cpus().length} cores, load average ${load.toFixed(2)}; baseline ${baseline ? `of ${baseline.measured} (${baseline.commit}, load ${baseline.loadAverage.toFixed(2)})` : 'none (run with --update on a quiet machine)'}`,
  )
  const runs = Math.max(1, numberOption(args, 'runs', 1))
  const measuredRuns: Figure[][] = []
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) console.log(`run ${run} of ${runs}`)
    measuredRuns.push(await measureOnce(steps, verbose))
  }
  const figures = runs === 1 ? measuredRuns[0]! : combined(measuredRuns)

  const flagged = printTable(figures, baseline, margin, runs > 1 ? measuredRuns : undefined)
  if (runs > 1) console.log(`(now: the median of ${runs} runs; each run's figures above it when --verbose)`)
  console.log(`\nbench guard: ${((performance.now() - started) / 1000).toFixed(0)} s in all`)
  if (update) {
    const commit = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD']).stdout.toString().trim()
    const written: Baseline = {
      measured: new Date().toISOString().slice(0, 10),
      commit,
      machine: `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Bun ${Bun.version}`,
      loadAverage: load,
      runs,
      figures: Object.fromEntries(
        figures.map(({ name, ...rest }) => {
          const worst = worstOf(
            rest,
            measuredRuns.flatMap((run) => run.filter((figure) => figure.name === name).map((figure) => figure.value)),
          )
          return [name, { ...rest, value: round(rest.value), worst: round(worst) }]
        }),
      ),
    }
    // Figures of benches not run this time are kept.
    if (baseline) for (const [name, figure] of Object.entries(baseline.figures)) written.figures[name] ??= figure
    writeFileSync(BASELINE_PATH, `${JSON.stringify(written, null, 2)}\n`)
    console.log(`baseline written: ${BASELINE_PATH}`)
  } else if (flagged > 0) {
    console.log(`${flagged} figure(s) flagged`)
    process.exitCode = 1
  }
  return figures
}

/** One pass over the steps, on one shared sandbox. */
async function measureOnce(steps: typeof STEPS, verbose: boolean): Promise<Figure[]> {
  const needsSandbox = steps.some((step) => ['payments', 'scanners', 'cost'].includes(step.name))
  const sandbox = needsSandbox ? await startSandbox(ephemeralSandboxOptions()) : undefined
  const figures: Figure[] = []
  try {
    for (const step of steps) {
      const stepStarted = performance.now()
      const out = verbose
        ? (text = '') => {
            for (const line of text.split('\n')) console.log(`  ${step.name} │ ${line}`)
          }
        : () => {}
      const measured = await step.run(step.args, { out, sandbox })
      figures.push(...measured)
      console.log(
        `  ${step.name}: ${measured.length} figure(s) in ${((performance.now() - stepStarted) / 1000).toFixed(0)} s${measured.length === 0 ? ' (skipped: see --verbose)' : ''}`,
      )
    }
  } finally {
    await sandbox?.stop()
  }
  return figures
}

/** Each figure's median over the runs (the figures of the first run, in its order). */
function combined(runs: Figure[][]): Figure[] {
  return runs[0]!.map((figure) => {
    const values = runs
      .flatMap((run) => run.filter((other) => other.name === figure.name).map((other) => other.value))
      .sort((a, b) => a - b)
    return { ...figure, value: values[Math.floor(values.length / 2)]! }
  })
}

/** The worst of `values` the figure's way. */
export function worstOf(figure: Pick<Figure, 'better'>, values: number[]): number {
  return figure.better === 'lower' ? Math.max(...values) : Math.min(...values)
}

function readBaseline(): Baseline | undefined {
  try {
    return JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as Baseline
  } catch {
    return undefined
  }
}

/** How much worse `now` is than `then` (0.2: 20% worse; negative: better). */
export function worseBy(figure: Pick<Figure, 'better'>, then: number, now: number): number {
  if (then === now) return 0
  if (figure.better === 'lower') return then === 0 ? Number.POSITIVE_INFINITY : now / then - 1
  return now === 0 ? Number.POSITIVE_INFINITY : then / now - 1
}

/** Whether `value` meets the figure's target (true where there is none). */
export function meetsTarget(figure: Pick<Figure, 'better' | 'target'>, value: number): boolean {
  if (figure.target === undefined) return true
  return figure.better === 'lower' ? value <= figure.target : value >= figure.target
}

/**
 * Prints the figures against the baseline (with each run's value when there were several); answers how
 * many are flagged.
 */
function printTable(figures: Figure[], baseline: Baseline | undefined, margin: number, runs?: Figure[][]): number {
  const nameWidth = Math.max(...figures.map((figure) => figure.name.length), 10) + 2
  console.log(
    `\n${'figure'.padEnd(nameWidth)}${'baseline'.padStart(12)}${'now'.padStart(12)}${'ratio'.padStart(9)}  target    verdict${runs ? '  (each run)' : ''}`,
  )
  let flagged = 0
  for (const figure of figures) {
    const base = baseline?.figures[figure.name]
    const then = base?.value
    const ratio = then === undefined || then === 0 ? '' : `×${(figure.value / then).toFixed(2)}`
    // Held to the baseline's worst run (its noise), not its median.
    const reference = base?.worst ?? then
    const worse = reference === undefined ? 0 : worseBy(figure, reference, figure.value)
    const target =
      figure.target === undefined ? '' : `${figure.better === 'lower' ? '≤' : '≥'} ${show(figure.target, figure.unit)}`
    const problems: string[] = []
    const beyondSlack = reference === undefined || Math.abs(figure.value - reference) > (figure.slack ?? 0)
    if (worse > margin && beyondSlack) problems.push(`${(worse * 100).toFixed(0)}% worse`)
    if (!meetsTarget(figure, figure.value)) problems.push('target missed')
    if (problems.length > 0) flagged++
    const verdict = problems.length > 0 ? `⚠ ${problems.join(', ')}` : then === undefined ? 'new' : 'ok'
    const each = runs
      ? `  (${runs
          .map((run) => run.find((other) => other.name === figure.name))
          .map((other) => (other ? show(other.value, figure.unit) : '—'))
          .join(', ')})`
      : ''
    console.log(
      `${figure.name.padEnd(nameWidth)}${(then === undefined ? '—' : show(then, figure.unit)).padStart(12)}${show(figure.value, figure.unit).padStart(12)}${ratio.padStart(9)}  ${target.padEnd(9)} ${verdict}${each}`,
    )
  }
  console.log(
    `(flagged: more than ${(margin * 100).toFixed(0)}% worse than the baseline's worst run — lower or higher is better per figure — or a target missed; ratio: now / the baseline's median)`,
  )
  return flagged
}

function show(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3
  const text = value.toFixed(digits)
  if (unit === '$') return `$${text}`
  if (unit === '×') return `×${text}`
  return unit ? `${text} ${unit}` : text
}

function round(value: number): number {
  return Number(value.toPrecision(4))
}
