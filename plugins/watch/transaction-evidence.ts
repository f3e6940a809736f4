/**
 * The events a snapshot cannot show, read from the transaction that a notification names: a freeze of
 * a holder's account (the mint's state does not change) and a transfer or burn by the permanent
 * delegate (a holder's balance falls without its owner signing). Pure over what the transaction says.
 */
import type { DetectedEvent } from './watch-events.ts'

export interface TransactionFacts {
  /** The transaction's log lines (logsSubscribe gives them). */
  logs: readonly string[]
  /** The accounts that signed it. */
  signers: readonly string[]
  /** Balance changes of the watched mint, by owner (post − pre, atomic units). */
  changes: readonly { owner: string; delta: bigint }[]
}

/** Log lines the token programs write for a freeze (Token and Token-2022 alike). */
const FREEZE_LOG = 'Program log: Instruction: FreezeAccount'

/**
 * Events of a transaction that mentioned the watched mint. `permanentDelegate` is the mint's (null when
 * it has none: no transaction read is needed then).
 */
export function transactionEvents(facts: TransactionFacts, permanentDelegate: string | null): DetectedEvent[] {
  const events: DetectedEvent[] = []
  const freezes = facts.logs.filter((line) => line === FREEZE_LOG).length
  if (freezes > 0)
    events.push({
      kind: 'freeze_used',
      severity: 'high',
      key: 'freeze',
      before: {},
      after: { accounts_frozen: freezes },
      sentence: `The freeze authority froze ${freezes === 1 ? 'a holder’s account' : `${freezes} holders’ accounts`}: a frozen account can neither sell nor transfer.`,
    })
  if (permanentDelegate && facts.signers.includes(permanentDelegate)) {
    const taken = facts.changes.filter((change) => change.owner !== permanentDelegate && change.delta < 0n)
    for (const change of taken)
      events.push({
        kind: 'permanent_delegate_used',
        severity: 'critical',
        key: change.owner,
        before: { owner: change.owner },
        after: { owner: change.owner, taken: (-change.delta).toString(), delegate: permanentDelegate },
        sentence: `The permanent delegate moved ${(-change.delta).toString()} atomic units out of a holder’s account without the holder signing.`,
      })
  }
  return events
}
