/**
 * A trade asked in words ("Swap 0.5 SOL for <mint> from wallet <address>"), as the A2A server reads a
 * text-only message (src/kernel/asked.ts): the amount and the tokens of the swap, and the wallet. A token
 * is a symbol of `SYMBOLS` or a mint's address; an amount is converted to atomic units only for a symbol,
 * whose decimals are known — for a mint, the words do not say its decimals and `amount_in` is left out.
 */
import { ADDRESS_WORD, atomicUnits } from '../../src/kernel/asked.ts'
import { USDC_MINT_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'

/** The symbols a trade may be said with: the two every Solana wallet knows, with their decimals. */
const SYMBOLS: Record<string, { mint: string; decimals: number }> = {
  SOL: { mint: WRAPPED_SOL_MINT_ADDRESS, decimals: 9 },
  USDC: { mint: USDC_MINT_ADDRESS, decimals: 6 },
}

const ADDRESS = ADDRESS_WORD.source
const TOKEN = `(${ADDRESS}|[A-Za-z]{2,10})`
/** "swap|sell|trade|exchange <amount> <token> for|to|into <token>". */
const SWAP = new RegExp(
  `\\b(?:swap|sell|trade|exchange)\\s+(\\d+(?:\\.\\d+)?)\\s+${TOKEN}\\s+(?:for|to|into)\\s+${TOKEN}`,
  'i',
)
/** "wallet <address>" or "from <address>". */
const WALLET = new RegExp(`\\b(?:wallet|from)\\s+(${ADDRESS})`, 'i')

/** The quote's members a trade's words state (`POST /trade/quote`'s body); nothing defaulted. */
export function readTrade(text: string): Record<string, unknown> {
  const said: Record<string, unknown> = {}
  const swap = SWAP.exec(text)
  if (swap) {
    const [, amount, sold, bought] = swap as unknown as [string, string, string, string]
    const input = tokenOf(sold)
    const output = tokenOf(bought)
    if (input) said.input_mint = input.mint
    if (output) said.output_mint = output.mint
    const units = input?.decimals === undefined ? undefined : atomicUnits(amount, input.decimals)
    if (units) said.amount_in = units
  }
  const wallet = WALLET.exec(text)
  if (wallet) said.user_public_key = wallet[1]
  return said
}

function tokenOf(word: string): { mint: string; decimals?: number } | undefined {
  const symbol = SYMBOLS[word.toUpperCase()]
  if (symbol) return symbol
  return new RegExp(`^${ADDRESS}$`).test(word) ? { mint: word } : undefined
}
