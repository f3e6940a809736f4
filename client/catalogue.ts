/**
 * How the SDK and the CLI call each route the service offers to agents: docs/client.md's table is
 * generated from it beside the service's own list (src/kernel/catalogue.ts), and
 * test/discovery-lists.test.ts checks that every offered route is here, each method is the SDK's and
 * each command the CLI's.
 */
import type { RouteKey } from './routes.ts'

export interface ClientCall {
  /** The `Solsentry` method (every route is also `solsentry.call(route, input)`). */
  sdk: string
  /** The `solsentry` command, with its arguments. */
  cli: string
}

export const CLIENT_CALLS = {
  'POST /scan/quick': { sdk: 'quickScan', cli: 'quick <mint>' },
  'POST /scan/quick/batch': { sdk: 'quickScanBatch', cli: 'batch <mint…> (or --wallet <address> --max-usd <usd>)' },
  'POST /watch': { sdk: 'watch', cli: 'watch <mint> --hours <n> [--webhook <url>] [--follow]' },
  'POST /market/intel': { sdk: 'marketIntel', cli: 'intel <mint>' },
  'POST /scan/deep': { sdk: 'deepDive', cli: 'deep <mint>' },
  'POST /trade/quote': { sdk: 'quote', cli: 'trade <mint> --amount <amount> (quote, sign, execute)' },
  'POST /trade/execute': { sdk: 'execute', cli: 'trade <mint> --amount <amount> (quote, sign, execute)' },
  'GET /trade/status/:job_id': { sdk: 'status', cli: 'status <job_id>' },
  'GET /trade/pairs': { sdk: 'pairs', cli: 'pairs' },
  'GET /trade/currencies': { sdk: 'currencies', cli: 'currencies' },
  'POST /exit/check': { sdk: 'exitCheck', cli: 'exit <mint>' },
  'POST /exit/cross-check': { sdk: 'exitCrossCheck', cli: 'exit <mint> --home <chain>' },
  'POST /scan/trending': { sdk: 'trending', cli: 'trending' },
  'POST /signal/radar': { sdk: 'signalRadar', cli: 'radar' },
  'POST /wallet/intel': { sdk: 'walletIntel', cli: 'wallet <address>' },
  'POST /launch/radar': { sdk: 'launchRadar', cli: 'launches' },
  'POST /graduation/radar': { sdk: 'graduationRadar', cli: 'graduating' },
  'POST /graduation/momentum': { sdk: 'graduationMomentum', cli: 'momentum' },
  'POST /scan/smart-money': { sdk: 'smartMoney', cli: 'smart-money' },
  'POST /news/pulse': { sdk: 'newsPulse', cli: 'news [<ticker or mint>] --mode pulse' },
  'POST /news/brief': { sdk: 'newsBrief', cli: 'news [<ticker or mint>] --mode brief' },
  'POST /news/pulse_plus': { sdk: 'newsPulsePlus', cli: 'news [<ticker or mint>] --mode cohorts' },
  'POST /news/report': { sdk: 'newsReport', cli: 'news [<ticker or mint>] --mode report' },
  'POST /trade/suggest': { sdk: 'tradeSuggest', cli: 'suggest' },
} as const satisfies Partial<Record<RouteKey, ClientCall>>

/** The SDK and CLI call of a route, by its `METHOD path` key. */
export function clientCall(route: string): ClientCall | undefined {
  return (CLIENT_CALLS as Record<string, ClientCall>)[route]
}
