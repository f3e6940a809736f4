import type { Address } from '@solana/kit'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../onchain/programs.ts'
import { decodeBase58 } from '../onchain/base58.ts'
import type { TokenContext } from './token-context.ts'
import { creation } from './launch.ts'
import { signatures, transactions, SIGNATURES_PAGE, type ParsedTransaction } from './history.ts'
import type { DevHistoryFact } from './types.ts'

/** Token instructions that initialise a mint (InitializeMint, InitializeMint2). */
const INITIALIZE_MINT = new Set([0, 20])
const TOKEN_PROGRAMS: ReadonlySet<string> = new Set([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])

/**
 * The developer wallet (the launch's creator): SOL balance, the tokens it created (mint initialisations
 * it paid for) and liquidity pulls (transactions where it received both the token and its quote from
 * others). A rug is an earlier token of its own whose liquidity it pulled.
 */
export async function loadDevHistory(facts: TokenContext): Promise<DevHistoryFact> {
  const { wallet, source } = await developerWallet(facts)
  // The developer wallet's newest transactions, as many as the provider's limits allow in a deep dive.
  const depth = Math.min(SIGNATURES_PAGE, facts.historyDepth.developerTransactions)
  const [{ value: balance }, recent] = await Promise.all([
    facts.rpc.getBalance(wallet as Address).send(),
    signatures(facts, wallet, depth),
  ])
  const list = await transactions(
    facts,
    recent.filter((entry) => !entry.failed).map((entry) => entry.signature),
  )
  const created = list
    .flatMap((transaction) => createdMints(transaction, wallet))
    .filter((entry) => entry.mint !== facts.mint)
  const pulls = list.flatMap((transaction) => liquidityPull(transaction, wallet))
  const createdSet = new Set(created.map((entry) => entry.mint))
  const pulled = new Set(pulls.map((pull) => pull.mint))
  // What became of the earlier tokens: their market now (one call for up to 30), when market data is reachable.
  const pairs = await Promise.resolve()
    .then(() => facts.source('dexscreener').pairsOfTokens([...createdSet], facts.meter))
    .catch(() => undefined)
  const earlierTokens = [...createdSet].map((mint) => {
    const listed = pairs?.filter((pair) => pair.baseToken.address === mint || pair.quoteToken.address === mint) ?? []
    return {
      mint,
      pulled: pulled.has(mint),
      listed: listed.length > 0,
      liquidityUsd: listed.length === 0 ? null : listed.reduce((sum, pair) => sum + (pair.liquidity?.usd ?? 0), 0),
    }
  })
  return {
    wallet,
    walletSource: source,
    solBalance: balance,
    createdTokens: created.sort((a, b) => (a.at ?? 0) - (b.at ?? 0)),
    liquidityPulls: pulls,
    previousRugs: [...new Set(pulls.map((pull) => pull.mint).filter((mint) => createdSet.has(mint)))],
    earlierTokens,
    complete: recent.length < depth,
  }
}

/**
 * The developer wallet: the fee payer of the mint's creation — from the creation transaction alone, not
 * the whole launch fact (fewer round trips). When the creation cannot be read (an established token's
 * history is longer than the pages walked), the creator its pump.fun bonding curve records.
 */
async function developerWallet(
  facts: TokenContext,
): Promise<{ wallet: string; source: DevHistoryFact['walletSource'] }> {
  try {
    return { wallet: (await creation(facts)).feePayer, source: 'creation' }
  } catch (error) {
    const creator = (await facts.fact('launchpad'))?.pumpFun?.creator
    if (creator) return { wallet: creator, source: 'launchpad' }
    throw error
  }
}

/** The mints `wallet` initialised (paid for) in `transaction`. */
export function createdMints(transaction: ParsedTransaction, wallet: string) {
  if (transaction.feePayer !== wallet || transaction.failed) return []
  return transaction.instructions.flatMap((instruction) => {
    if (!TOKEN_PROGRAMS.has(instruction.program) || instruction.accounts.length === 0) return []
    const data = decodeBase58(instruction.data)
    return INITIALIZE_MINT.has(data[0] ?? -1)
      ? [{ mint: instruction.accounts[0]!, signature: transaction.signature, at: transaction.blockTime }]
      : []
  })
}

/**
 * The wallet received two tokens (the token and its quote, wrapped SOL counting) that other owners gave
 * up in the same transaction: a withdrawal of liquidity. (A swap gives one side away; LP burned in
 * the same withdrawal is allowed.)
 */
export function liquidityPull(transaction: ParsedTransaction, wallet: string) {
  if (transaction.failed) return []
  const othersLost = new Set(
    transaction.tokenDeltas.filter((entry) => entry.owner !== wallet && entry.delta < 0n).map((entry) => entry.mint),
  )
  const sides = transaction.tokenDeltas.filter(
    (entry) => entry.owner === wallet && entry.delta > 0n && othersLost.has(entry.mint),
  )
  if (sides.length < 2) return []
  const token = sides.find((entry) => entry.mint !== WRAPPED_SOL_MINT_ADDRESS) ?? sides[0]!
  return [{ mint: token.mint, signature: transaction.signature, at: transaction.blockTime }]
}
