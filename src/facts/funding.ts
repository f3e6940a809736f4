import { FactUnavailable, type TokenContext } from './token-context.ts'
import { type ParsedTransaction, signatures, transactions, SIGNATURES_PAGE } from './history.ts'
import type { FundingFact } from './types.ts'

/**
 * Where wallets got their first SOL: for the largest wallet holders and the first buyers, the first
 * transaction that credited the wallet with SOL and who paid it. A wallet with more history than one
 * page has an unknown funder (null), not a guessed one.
 */
export async function loadFunding(token: TokenContext): Promise<FundingFact> {
  const [facts, launch] = await Promise.all([token.fact('holders'), token.fact('launch')])
  // Holders from the token list name no wallet: only holders read on chain can be traced.
  const holders = facts?.source === 'rpc' ? facts : undefined
  if (!holders && !launch)
    throw new FactUnavailable(
      'no wallet to trace: the largest holders (on chain) and the first buyers are both unknown',
    )
  // Top holders and early buyers, as many of each as the provider's limits allow (two calls each).
  const traced = token.historyDepth.tracedWallets
  const wallets = [
    ...new Set([
      ...(
        holders?.accounts
          .filter((account) => account.kind === 'wallet' && account.owner)
          .map((account) => account.owner!) ?? []
      ).slice(0, traced),
      ...(launch?.firstTrades.filter((trade) => trade.side === 'buy').map((trade) => trade.wallet) ?? []).slice(
        0,
        traced,
      ),
    ]),
  ]
  const histories = await Promise.all(wallets.map((wallet) => signatures(token, wallet)))
  const oldest = histories.map((entries) =>
    entries.length > 0 && entries.length < SIGNATURES_PAGE ? entries.at(-1)!.signature : null,
  )
  const known = oldest.filter((signature): signature is string => signature !== null)
  const bySignature = new Map(
    (await transactions(token, known)).map((transaction) => [transaction.signature, transaction]),
  )
  return {
    wallets: wallets.map((wallet, index) => {
      const transaction = oldest[index] ? bySignature.get(oldest[index]!) : undefined
      return { wallet, ...funderOf(transaction, wallet) }
    }),
  }
}

/**
 * Who paid `wallet` SOL in `transaction` (its first): whoever lost the most SOL in it; null when the
 * transaction is unknown or did not credit the wallet.
 */
export function funderOf(
  transaction: ParsedTransaction | undefined,
  wallet: string,
): { funder: string | null; amount: bigint; slot: bigint | null } {
  const received = transaction?.solDeltas.get(wallet) ?? 0n
  if (!transaction || received <= 0n) return { funder: null, amount: 0n, slot: transaction?.slot ?? null }
  let funder: string | null = null
  let paid = 0n
  for (const [account, delta] of transaction.solDeltas)
    if (account !== wallet && -delta > paid) {
      funder = account
      paid = -delta
    }
  return { funder, amount: received, slot: transaction.slot }
}
