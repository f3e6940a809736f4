/**
 * What a bench measures, as figures the guard (`npm run bench -- guard`) compares with
 * bench/baseline.json; and what a bench may be given: where to print, a sandbox already running.
 */
import type { RunningSandbox } from '../sandbox/index.ts'

export interface Figure {
  /** Unique across benches: the key in bench/baseline.json. */
  name: string
  value: number
  unit: string
  /** Which way is better: a figure is flagged when it moves the other way by more than the guard's margin. */
  better: 'lower' | 'higher'
  /** The target where there is one (at most for `lower`, at least for `higher`). */
  target?: number
  /** A change smaller than this (in the figure's unit) is never flagged: the figure's own noise. */
  slack?: number
}

export type Out = (line?: string) => void

export interface BenchContext {
  /** Where the bench prints (console.log unless given). */
  out?: Out
  /** A sandbox to use instead of starting one (the guard shares one between benches); left running. */
  sandbox?: RunningSandbox
}

/** The context's sandbox (`release` leaves it running), or a fresh ephemeral one (`release` stops it). */
export async function sandboxOf(
  context: BenchContext,
): Promise<{ sandbox: RunningSandbox; release: () => Promise<void> }> {
  if (context.sandbox) return { sandbox: context.sandbox, release: async () => {} }
  const { startSandbox } = await import('../sandbox/index.ts')
  const { ephemeralSandboxOptions } = await import('../sandbox/options.ts')
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  return { sandbox, release: () => sandbox.stop() }
}
