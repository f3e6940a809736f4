/**
 * Grading a token, written once: open its facts under a deadline, run a policy's scan, close the facts
 * (logging the scan's upstream cost) whether the scan answered or threw. Every service that grades a
 * token comes through here; a service that also reads the same facts (an exit check's quotes, the
 * developer's history) does it before they close.
 */
import { createTokenContext, type FactsLogger, type Sources, type TokenContext, withFacts } from '../facts/index.ts'
import type { Tape } from '../sources/tape.ts'
import type { SignalRegistry } from './registry.ts'
import { factsOf, runScan, type ScanPolicy, type ScanResult } from './scan.ts'

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

/** A scan begun ahead of its answer: its facts open and every read it needs under way. */
export interface BegunScan<T> {
  /** Runs the scan over its facts, answers `beforeClose`'s value, and closes the facts. */
  finish(): Promise<T>
  /** Closes the facts unused (the request was refused): their reads not yet sent are dropped. */
  abandon(): void
}

/**
 * Opens the facts of `mint` and starts gathering every fact `policy` reads, so each read goes out as
 * early as its inputs allow — beside other work of the same request (a scanner route's account check,
 * src/http/define-route.ts). `finish` scans and answers; `abandon` closes the facts unanswered.
 */
export function beginScan<T>(
  scope: ScanScope,
  mint: string,
  policy: ScanPolicy,
  deadlineAt: number,
  options: ScanTokenOptions & { beforeClose: (scan: ScanResult, facts: TokenContext) => T | Promise<T> },
): BegunScan<T> {
  const facts = createTokenContext(mint, scope.sources, deadlineAt, options.tape)
  try {
    // A fact never rejects (a failure makes it missing): the gathering needs no catch.
    void facts.gather(factsOf(scope.signals, policy))
  } catch {
    // A registry that cannot list the signals throws again when the scan runs, in `finish`.
  }
  let open = true
  const close = (logger?: FactsLogger) => {
    if (!open) return
    open = false
    facts.close(logger)
  }
  return {
    async finish() {
      try {
        return await options.beforeClose(await runScan(facts, scope.signals, policy), facts)
      } finally {
        close(scope.logger)
      }
    },
    abandon: () => close(),
  }
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
  const { beforeClose = (scan: ScanResult) => scan } = options
  return beginScan<T | ScanResult>(scope, mint, policy, deadlineAt, { ...options, beforeClose }).finish()
}
