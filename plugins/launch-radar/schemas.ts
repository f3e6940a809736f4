import { Type } from '@sinclair/typebox'
import { FeedLimit, FeedResult, FocusToken } from '../../src/feeds/feed-answer.ts'
import { IndexState, LAUNCH_LIMIT, LaunchItem, NEW_WITHIN_MIN } from '../../src/launchpad-index/schemas.ts'

export const STAGES = ['new_creation', 'near_completion', 'both'] as const
export const PRESETS = ['none', 'safe', 'strict'] as const

export const LaunchRadarResult = FeedResult(
  {
    stage: Type.Union(STAGES.map((stage) => Type.Literal(stage))),
    preset: Type.Union(PRESETS.map((preset) => Type.Literal(preset))),
    index: IndexState,
    items: Type.Array(LaunchItem),
    filtered_out: Type.Integer({ minimum: 0, description: 'Curves of the stage the preset left out' }),
    focus: Type.Union([LaunchItem, Type.Null()]),
  },
  'Live launchpad tokens by stage, each with its manipulation indicators and quick-scan grade',
)

export const Stage = Type.Optional(
  Type.Union(
    STAGES.map((stage) => Type.Literal(stage)),
    { default: 'both', description: 'new_creation, near_completion, or both (default)' },
  ),
)
export const Preset = Type.Optional(
  Type.Union(
    PRESETS.map((preset) => Type.Literal(preset)),
    {
      default: 'none',
      description:
        'safe: leave out bundled, sniped (> 20%), wash-traded (> 50%), creator-sold and D/F-graded curves; strict: also C grades, under 10 traders and under 10% progress',
    },
  ),
)

/** What the route takes (its manifest's body). */
export const LaunchRadarBody = Type.Object({
  token_address: FocusToken,
  stage: Stage,
  preset: Preset,
  new_within_minutes: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: NEW_WITHIN_MIN.max,
      default: NEW_WITHIN_MIN.default,
      description: `What counts as a new creation: created within this many minutes, 1 to ${NEW_WITHIN_MIN.max} (default ${NEW_WITHIN_MIN.default})`,
    }),
  ),
  limit: FeedLimit(LAUNCH_LIMIT.default, LAUNCH_LIMIT.max),
})
