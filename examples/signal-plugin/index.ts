/**
 * A third-party signal package, as an operator would publish one: an object with `meta` (package
 * name, version, namespace, the signal API version it targets) and `signals`. Load it with
 * SIGNAL_PLUGINS=./examples/signal-plugin/index.ts (a package name works too).
 */
import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'
import type { SignalPackage } from '../../src/pipeline/registry.ts'

/** Symbols copycats imitate, with the one genuine mint of each. */
const CANONICAL: Record<string, string> = {
  USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  USDT: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  SOL: 'So11111111111111111111111111111111111111112',
  JUP: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
  BONK: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
}

const meta = signalMeta({
  id: 'example/copycat-symbol',
  version: '1.0.0',
  title: 'Copycat symbol',
  risk: 'The token uses the symbol of a well-known token but is not that token (and not on the verified list).',
  why: 'Copycats rely on buyers matching by ticker; the mint address is the only identity.',
  scanners: ['quick_scan'],
  facts: ['metadata', 'token_list'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ penalty: Type.Number({ maximum: 0 }) }),
  defaults: { penalty: -30 },
  findings: {
    COPYCAT_SYMBOL: {
      severity: 'high',
      points: 'penalty',
      when: "the metadata symbol is a well-known token's and the mint is not that token's (nor verified)",
      why: 'Copycats rely on buyers matching by ticker',
    },
  },
})

const copycatSymbol = defineSignal({
  meta,
  detect(facts, options, { mint }) {
    const metadata = facts.get('metadata')
    if (!metadata) return unknownOutcome(meta, ['metadata'])
    const symbol = metadata.symbol?.trim().toUpperCase() ?? ''
    const genuine = CANONICAL[symbol]
    if (!genuine || genuine === mint || facts.get('token_list')?.verified) return ok([], {})
    return ok(
      [
        finding(
          meta,
          options,
          'COPYCAT_SYMBOL',
          `Uses the ${symbol} symbol`,
          `This is not ${symbol}: the genuine mint is ${genuine}.`,
          { symbol, genuine_mint: genuine },
        ),
      ],
      {},
    )
  },
})

const examplePackage: SignalPackage = {
  meta: { name: 'solsentry-signal-example', version: '1.0.0', namespace: 'example', apiVersion: 1 },
  signals: { 'copycat-symbol': copycatSymbol },
}

export default examplePackage
