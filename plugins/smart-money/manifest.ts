import { defineManifest } from '../../src/kernel/manifest.ts'
import { FOLLOWS_LAUNCHPAD } from '../../src/launchpad-index/schemas.ts'
import { SMART_INTERVALS, SmartMoneyBody, SmartMoneyResult, type SmartInterval } from './schemas.ts'
import { windowAt } from '../../src/kernel/asked.ts'

export const manifest = defineManifest({
  name: 'smart-money',
  skill: {
    id: 'smart_money',
    name: 'Solana smart money',
    description:
      'Launchpad coins that wallets with a proven record (their own round trips) are buying now: net flow, number of such wallets, and a safety grade.',
    tags: ['solana', 'wallets', 'smart money', 'launchpad'],
    examples: ['What are profitable wallets buying right now?', 'Smart money flows over the last 6 hours'],
  },
  routes: {
    smartMoney: {
      method: 'POST',
      path: '/scan/smart-money',
      summary: 'What wallets with a proven record are buying on the launchpad',
      description:
        'Wallets proven by their own round trips in the launchpad index (3 or more, 60% won, in profit), and the coins ' +
        'they bought in `interval` net of what they sold: `smart_wallets`, `net_flow_sol` (and USD), bonding progress and ' +
        'each coin’s quick-scan grade. Read from the pump.fun program’s events: launchpad coins only. With ' +
        '`token_address`, that coin’s flow whatever it is. Answers within 8 s.',
      price: { usd: '0.05' },
      accounts: { token_address: 'token_mint' },
      body: SmartMoneyBody,
      response: SmartMoneyResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: ['smart money', 'profitable wallets', 'wallets buying', 'proven wallets'],
        read: (text) => windowAt(text, Object.keys(SMART_INTERVALS) as SmartInterval[]),
      },
      tags: ['catalogue'],
      // Answers within 8 s; the grades stop half a second earlier.
      deadlineMs: 7_500,
      requires: [FOLLOWS_LAUNCHPAD],
    },
  },
})
