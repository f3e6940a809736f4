import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedResult, FocusToken } from '../../src/feeds/feed-answer.ts'
import { IndexState, LAUNCH_LIMIT, LaunchItem } from '../../src/launchpad-index/schemas.ts'

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

/** What the route takes (its manifest's body). */
export const GraduationRadarBody = Type.Object({
  token_address: FocusToken,
  min_progress_pct: Type.Optional(
    Type.Number({
      minimum: GRADUATION_MIN_PROGRESS.min,
      maximum: GRADUATION_MIN_PROGRESS.max,
      default: GRADUATION_MIN_PROGRESS.default,
      description: `Least bonding progress to list, percent (default ${GRADUATION_MIN_PROGRESS.default})`,
    }),
  ),
  limit: FeedLimit(LAUNCH_LIMIT.default, LAUNCH_LIMIT.max),
})
