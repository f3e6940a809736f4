import { defineManifest } from '../../src/kernel/manifest.ts'
import { FOLLOWS_LAUNCHPAD } from '../../src/launchpad-index/schemas.ts'
import { GraduationRadarBody, GraduationRadarResult } from './schemas.ts'
import { percentAt } from '../../src/kernel/asked.ts'

export const manifest = defineManifest({
  name: 'graduation-radar',
  skill: {
    id: 'graduation_radar',
    name: 'Solana graduation radar',
    description:
      'pump.fun bonding curves close to graduating: bonding progress, fill rate per minute, estimated minutes to graduation and a safety grade.',
    tags: ['solana', 'launchpad', 'pump.fun', 'graduation'],
    examples: ['Which pump.fun curves graduate next?', 'Curves above 80% bonded'],
  },
  routes: {
    graduationRadar: {
      method: 'POST',
      path: '/graduation/radar',
      summary: 'Bonding curves close to graduating, soonest first',
      description:
        'pump.fun curves not yet complete with at least `min_progress_pct` sold, ordered by the estimated minutes to ' +
        'graduation at their last-10-minute fill rate: bonding progress, fill rate per minute, minutes to graduation, ' +
        'manipulation indicators and the quick-scan grade. Answers within 8 s.',
      price: { usd: '0.06' },
      accounts: { token_address: 'token_mint' },
      body: GraduationRadarBody,
      response: GraduationRadarResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: ['graduation radar', 'graduate next', 'close to graduating', 'graduating', 'bonded', 'bonding curves'],
        // "Curves above 80% bonded": the least bonding progress to list.
        read: (text) => percentAt(text, 'min_progress_pct'),
      },
      tags: ['catalogue'],
      // Answers within 8 s; the grades stop half a second earlier.
      deadlineMs: 7_500,
      requires: [FOLLOWS_LAUNCHPAD],
    },
  },
})
