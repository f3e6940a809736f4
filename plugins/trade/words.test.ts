import { describe, expect, test } from 'bun:test'
import { readTrade } from './words.ts'

const SOL = 'So11111111111111111111111111111111111111112'
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const MINT = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'
const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU'

describe('readTrade: what the words of a trade state, nothing defaulted', () => {
  const cases: [string, Record<string, unknown>][] = [
    [
      `Swap 0.5 SOL for ${MINT} from wallet ${WALLET} if it is safe`,
      { input_mint: SOL, output_mint: MINT, amount_in: '500000000', user_public_key: WALLET },
    ],
    [
      `Sell 100 USDC for SOL from wallet ${WALLET}`,
      { input_mint: USDC, output_mint: SOL, amount_in: '100000000', user_public_key: WALLET },
    ],
    // No wallet named: left out (the A2A server says to send user_public_key).
    ['Sell 100 USDC for SOL from my wallet', { input_mint: USDC, output_mint: SOL, amount_in: '100000000' }],
    // A mint sold: its decimals are not in the words, so the amount is left out, not guessed.
    [`swap 5 ${MINT} to SOL`, { input_mint: MINT, output_mint: SOL }],
    // A symbol it does not know: that side is left out.
    ['swap 1 BONK for SOL', { output_mint: SOL }],
    ['what should I trade?', {}],
  ]
  for (const [text, said] of cases) test(text, () => expect(readTrade(text)).toEqual(said))
})
