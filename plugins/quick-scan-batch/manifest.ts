import { addressesIn, dollarsIn, saysPhrase } from '../../src/kernel/asked.ts'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { mintsCharged } from './service.ts'
import { BATCH_UNIT_USD, BatchAnswer, BatchRequest, MAX_BATCH_MINTS } from './schemas.ts'

/**
 * How long a batch may take from its arrival, in ms: the order's reads (1.5 s at most), then every scan
 * at once, each scan's facts stopping by the single route's 4.5 s, or by this deadline at the latest.
 * Measured (`npm run bench -- batch`, docs/benchmarks.md): 50 mints in ~0.5 s on the sandbox, ~0.9 s
 * with 100 ms added to every upstream answer, ~2.1 s with 300 ms.
 */
export const BATCH_DEADLINE_MS = 8_000

export const manifest = defineManifest({
  name: 'quick-scan-batch',
  dependsOn: ['quick-scan'],
  skill: {
    id: 'sol_quick_scan_batch',
    name: 'Solana quick scans in a batch',
    description:
      'The quick scan of up to 50 Solana tokens in one paid call, priced per mint — or of every token a wallet holds, up to a spending cap.',
    tags: ['solana', 'token', 'risk', 'portfolio'],
    examples: [
      'Quick scan these mints at once: DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      'Scan every token in wallet 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM, spending at most 0.30 USD',
    ],
  },
  routes: {
    batch: {
      method: 'POST',
      path: '/scan/quick/batch',
      summary: 'Quick scans of many tokens, or of a wallet’s holdings, in one payment',
      description: `Up to ${MAX_BATCH_MINTS} mints (token_addresses, fewer on a rate-limited RPC plan: its 400 says how many; a mint given twice is scanned once), or every token a wallet holds (wallet_address with max_usd, the most to spend): each item answered exactly as POST /scan/quick answers it, or with the error that route answers for that mint. Priced per mint that is a token: addresses that are no token are item errors and cost nothing; a wallet holding nothing is answered free. One payment, settled when at least one mint is answered. Answers within ${BATCH_DEADLINE_MS / 1000} s.`,
      price: { usd: BATCH_UNIT_USD, per: { unit: 'mint', max: MAX_BATCH_MINTS, count: mintsCharged } },
      body: BatchRequest,
      response: BatchAnswer,
      askedBy: {
        phrases: [
          'quick scan these',
          'scan these',
          'at once',
          'in one call',
          'every token',
          'all my tokens',
          'portfolio',
          'batch',
        ],
        read: wordsOfBatch,
      },
      errors: ['NOT_A_WALLET', 'UPSTREAM_UNAVAILABLE'],
      rateLimit: 'scanner',
      tags: ['scanners'],
      deadlineMs: BATCH_DEADLINE_MS,
    },
  },
})

/**
 * What a batch asked in words states: a wallet ("every token in wallet <address>, spending at most 0.30
 * USD") with its cap, or the mints the text lists. A wallet without a cap is left to ask for `max_usd`.
 */
function wordsOfBatch(text: string): Record<string, unknown> {
  const addresses = addressesIn(text)
  const wallet = /\bwallet\s+([1-9A-HJ-NP-Za-km-z]{32,44})\b/i.exec(text)?.[1]
  if (wallet || saysPhrase(text, 'every token') || saysPhrase(text, 'all my tokens')) {
    const dollars = dollarsIn(text)
    return {
      ...(wallet ? { wallet_address: wallet } : {}),
      ...(dollars === undefined ? {} : { max_usd: dollars }),
    }
  }
  return addresses.length > 0 ? { token_addresses: addresses } : {}
}
