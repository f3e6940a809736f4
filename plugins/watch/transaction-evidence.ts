/**
 * The events a snapshot cannot show, read from the transaction that a notification names: a freeze of
 * a holder's account (the mint's state does not change) and a transfer or burn by the permanent
 * delegate (a holder's balance falls without its owner signing). Pure over what the transaction says.
 *
 * Freezes are read from the instructions, not the logs: the token program now deployed (p-token, as on
 * the sandbox chain) no longer writes "Instruction: FreezeAccount" to the logs.
 */
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import type { DetectedEvent } from './watch-events.ts'

/** One instruction of the transaction, top-level or inner, its accounts resolved to addresses. */
export interface ReadInstruction {
  program: string
  accounts: readonly string[]
  data: Uint8Array
}

export interface TransactionFacts {
  instructions: readonly ReadInstruction[]
  /** The accounts that signed it. */
  signers: readonly string[]
  /** Balance changes of the watched mint, by owner (post − pre, atomic units). */
  changes: readonly { owner: string; delta: bigint }[]
}

/** The token programs' FreezeAccount discriminator (one byte, the same in Token and Token-2022). */
const FREEZE_ACCOUNT = 10
const TOKEN_PROGRAMS: ReadonlySet<string> = new Set([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])

/** Events of a transaction that mentioned `mint`; `permanentDelegate` is the mint's (null when it has none). */
export function transactionEvents(
  facts: TransactionFacts,
  mint: string,
  permanentDelegate: string | null,
): DetectedEvent[] {
  const events: DetectedEvent[] = []
  // FreezeAccount's accounts: the account frozen, the mint, the freeze authority.
  const frozen = facts.instructions
    .filter(
      (instruction) =>
        TOKEN_PROGRAMS.has(instruction.program) &&
        instruction.data[0] === FREEZE_ACCOUNT &&
        instruction.accounts[1] === mint,
    )
    .map((instruction) => instruction.accounts[0]!)
  if (frozen.length > 0)
    events.push({
      kind: 'freeze_used',
      severity: 'high',
      key: 'freeze',
      before: {},
      after: { accounts_frozen: frozen.length, accounts: frozen.join(',') },
      sentence: `The freeze authority froze ${frozen.length === 1 ? 'a holder’s account' : `${frozen.length} holders’ accounts`}: a frozen account can neither sell nor transfer.`,
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
