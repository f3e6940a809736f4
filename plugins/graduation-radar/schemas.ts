import { Type } from '@sinclair/typebox'
import { FeedResult } from '../../src/feeds/feed-answer.ts'
import { IndexState, LaunchItem } from '../../src/launchpad-index/schemas.ts'

export const GRADUATION_MIN_PROGRESS = { default: 50, min: 0, max: 100 } as const

export const GraduationRadarResult = FeedResult(
  {
    min_progress_pct: Type.Number(),
    index: IndexState,
    items: Type.Array(LaunchItem),
    focus: Type.Union([LaunchItem, Type.Null()]),
  },
  'Bonding curves close to graduating, soonest first, each with its fill rate and quick-scan grade',
)
