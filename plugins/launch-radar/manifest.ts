import { defineManifest } from '../../src/kernel/manifest.ts'
import { FOLLOWS_LAUNCHPAD } from '../../src/launchpad-index/schemas.ts'
import { LaunchRadarBody, LaunchRadarResult } from './schemas.ts'
import type { PRESETS } from './schemas.ts'

export const manifest = defineManifest({
  name: 'launch-radar',
  skill: {
    id: 'launch_radar',
    name: 'Solana launch radar',
    description:
      'Live pump.fun launches by stage (new creations, near completion) with bonding progress, market cap, manipulation indicators (bundled launch, sniper share, wash trading) and a safety grade.',
    tags: ['solana', 'launchpad', 'pump.fun', 'risk'],
    examples: [
      'What is launching on pump.fun right now, and is it safe?',
      'Show new pump.fun coins with the safe preset',
    ],
  },
  routes: {
    launchRadar: {
      method: 'POST',
      path: '/launch/radar',
      summary: 'Live launchpad tokens by stage, with manipulation indicators and a grade',
      description:
        'pump.fun coins followed live from the program’s events: new creations and curves near completion, each with ' +
        'bonding progress, market cap, traders, fill rate, manipulation indicators (bundled launch, sniper share, ' +
        'round-trip volume, creator sold) and its quick-scan grade; presets `safe` and `strict` leave the risky ones out. ' +
        'With `token_address`, that coin is read whatever the filters. Answers within 8 s.',
      price: { usd: '0.05' },
      accounts: { token_address: 'token_mint' },
      body: LaunchRadarBody,
      response: LaunchRadarResult,
      rateLimit: 'scanner',
      askedBy: {
        phrases: [
          'launch radar',
          'launching on pump.fun',
          'new pump.fun coins',
          'new pump.fun',
          'launching',
          'launches',
          'new coins',
          'just launched',
        ],
        // "… with the safe preset": a preset named beside the word preset (a bare "safe" asks, it does not filter).
        read: (text) => {
          const preset = /\b(none|safe|strict)\s+preset\b|\bpreset\s+(none|safe|strict)\b/i.exec(text)
          const named = (preset?.[1] ?? preset?.[2])?.toLowerCase() as (typeof PRESETS)[number] | undefined
          return named ? { preset: named } : {}
        },
      },
      tags: ['catalogue'],
      // Answers within 8 s; the grades stop half a second earlier.
      deadlineMs: 7_500,
      requires: [FOLLOWS_LAUNCHPAD],
    },
  },
})
