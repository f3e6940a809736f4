import { Type } from '@sinclair/typebox'
import { FeedResult } from '../../src/feeds/feed-answer.ts'
import { IndexState, LaunchItem } from '../../src/launchpad-index/schemas.ts'

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
