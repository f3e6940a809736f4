/**
 * The events a snapshot cannot show, read from the transaction that a notification names: a freeze of
 * a holder's account (the mint's state does not change) and a transfer or burn by the permanent
 * delegate (a holder's balance falls without its owner signing). Pure over what the transaction says.
 *
 * Freezes are read from the instructions, not the logs: the token program now deployed (p-token, as on
 * the sandbox chain) no longer writes "Instruction: FreezeAccount" to the logs.
 */
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { tokenAmount } from '../../src/rendering/format.ts'
import type { DetectedEvent } from './watch-events.ts'

/** One instruction of the transaction, top-level or inner, its accounts resolved to addresses. */
export interface ReadInstruction {
  program: string
  accounts: readonly string[]
  data: Uint8Array
}

export interface TransactionFacts {
  instructions: readonly ReadInstruction[]
  /** The watched mint's token accounts the transaction touched, with their owners (its token balances). */
  tokenAccounts: ReadonlyMap<string, string>
  /** The mint's decimals as the transaction's token balances state them (null when it touched none). */
  decimals: number | null
}

/** The token programs' FreezeAccount discriminator (one byte, the same in Token and Token-2022). */
const FREEZE_ACCOUNT = 10
/**
 * The instructions that take tokens out of an account, by discriminator: where their source account and
 * their authority sit among the accounts (Transfer, TransferChecked, Burn, BurnChecked; the same layout
 * in Token and Token-2022), the amount a u64 after the discriminator.
 */
const TAKING: ReadonlyMap<number, { verb: 'moved' | 'burned'; source: number; authority: number }> = new Map([
  [3, { verb: 'moved', source: 0, authority: 2 }],
  [12, { verb: 'moved', source: 0, authority: 3 }],
  [8, { verb: 'burned', source: 0, authority: 2 }],
  [15, { verb: 'burned', source: 0, authority: 2 }],
])
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
  // The delegate's own signature on a transfer or burn out of someone else's account of this mint. A
  // transaction it merely signed (its own pool's withdrawal, paid out by the pool's authority) is not one.
  if (permanentDelegate) {
    const taken = new Map<string, { amount: bigint; verbs: Set<string> }>()
    for (const instruction of facts.instructions) {
      const layout = TOKEN_PROGRAMS.has(instruction.program) ? TAKING.get(instruction.data[0] ?? -1) : undefined
      if (!layout || instruction.accounts[layout.authority] !== permanentDelegate) continue
      const owner = facts.tokenAccounts.get(instruction.accounts[layout.source] ?? '')
      if (!owner || owner === permanentDelegate || instruction.data.length < 9) continue
      const amount = new DataView(instruction.data.buffer, instruction.data.byteOffset + 1, 8).getBigUint64(0, true)
      const entry = taken.get(owner) ?? { amount: 0n, verbs: new Set<string>() }
      entry.amount += amount
      entry.verbs.add(layout.verb)
      taken.set(owner, entry)
    }
    for (const [owner, { amount, verbs }] of taken)
      events.push({
        kind: 'permanent_delegate_used',
        severity: 'critical',
        key: owner,
        before: { owner },
        after: { owner, taken: amount.toString(), delegate: permanentDelegate },
        sentence: `The permanent delegate ${[...verbs].join(' and ')} ${
          facts.decimals === null
            ? `${amount} atomic units of the token`
            : `${tokenAmount(amount, facts.decimals)} tokens`
        } out of a holder’s account without the holder signing.`,
      })
  }
  return events
}
