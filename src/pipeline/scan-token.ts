/**
 * Grading a token, written once: open its facts under a deadline, run a policy's scan, close the facts
 * (logging the scan's upstream cost) whether the scan answered or threw. Every service that grades a
 * token comes through here; a service that also reads the same facts (an exit check's quotes, the
 * developer's history) does it before they close.
 */
import { type FactsLogger, type Sources, type TokenContext, withFacts } from '../facts/index.ts'
import type { Tape } from '../sources/tape.ts'
import type { SignalRegistry } from './registry.ts'
import { runScan, type ScanPolicy, type ScanResult } from './scan.ts'

/** What a scan runs with: the sources its facts read, the signals its policy names, where it logs. */
export interface ScanScope {
  sources: Sources
  signals: SignalRegistry
  logger?: FactsLogger
}

/** One token's open facts, and its scans over them: every `scan(policy)` reads the same facts. */
export interface TokenScan {
  readonly facts: TokenContext
  scan(policy: ScanPolicy): Promise<ScanResult>
}

export interface ScanTokenOptions {
  /** Records every upstream exchange of the scan (RECORD_DIR). */
  tape?: Tape
}

/**
 * One TokenContext for `mint`, answering by `deadlineAt` (ms since epoch), open while `use` runs: for a
 * service that runs several scans on one set of facts (the trade suggestion's battery), or a scan and
 * its own reads of the same facts side by side (graduation momentum's exit check). Closed after `use`,
 * whether it answers or throws.
 */
export function withTokenScan<T>(
  scope: ScanScope,
  mint: string,
  deadlineAt: number,
  use: (token: TokenScan) => Promise<T>,
  options: ScanTokenOptions = {},
): Promise<T> {
  return withFacts(
    mint,
    scope.sources,
    deadlineAt,
    (facts) => use({ facts, scan: (policy) => runScan(facts, scope.signals, policy) }),
    { logger: scope.logger, tape: options.tape },
  )
}

/**
 * The scan of `mint` under `policy`, its facts answering by `deadlineAt` (ms since epoch), on facts of
 * its own, closed before it returns. `beforeClose` reads the scan and the same facts while they are
 * still open (what a route answers from the scan, or a read the scan did not make); its value is the
 * call's.
 */
export function scanToken(
  scope: ScanScope,
  mint: string,
  policy: ScanPolicy,
  deadlineAt: number,
  options?: ScanTokenOptions,
): Promise<ScanResult>
export function scanToken<T>(
  scope: ScanScope,
  mint: string,
  policy: ScanPolicy,
  deadlineAt: number,
  options: ScanTokenOptions & { beforeClose: (scan: ScanResult, facts: TokenContext) => T | Promise<T> },
): Promise<T>
export function scanToken<T>(
  scope: ScanScope,
  mint: string,
  policy: ScanPolicy,
  deadlineAt: number,
  options: ScanTokenOptions & { beforeClose?: (scan: ScanResult, facts: TokenContext) => T | Promise<T> } = {},
): Promise<T | ScanResult> {
  return withTokenScan(
    scope,
    mint,
    deadlineAt,
    async ({ facts, scan }) => {
      const result = await scan(policy)
      return options.beforeClose ? await options.beforeClose(result, facts) : result
    },
    options,
  )
}
