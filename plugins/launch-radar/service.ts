import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import type { CurveReading } from '../../src/launchpad-index/curves.ts'
import type { Snapshot } from '../../src/feeds/feed-answer.ts'
import {
  BUNDLE_MIN,
  focusItem,
  itemOf,
  launchpadFeed,
  SNIPED_PCT,
  stageOf,
  WASH_PCT,
} from '../../src/launchpad-index/reading.ts'
import { LAUNCH_LIMIT, NEW_WITHIN_MIN } from '../../src/launchpad-index/schemas.ts'
import type { LaunchRadarBody, LaunchRadarResult, PRESETS } from './schemas.ts'
import { count, num } from '../../src/rendering/format.ts'

/** Whether a preset keeps a curve (the grade is judged after grading: see `keepGraded`). */
function presetKeeps(preset: (typeof PRESETS)[number], reading: CurveReading): boolean {
  if (preset === 'none') return true
  const risky =
    reading.bundledBuyers >= BUNDLE_MIN ||
    (reading.sniperSharePct ?? 0) > SNIPED_PCT ||
    (reading.roundTripSharePct ?? 0) > WASH_PCT ||
    reading.creatorSold
  if (risky) return false
  return preset === 'safe' || (reading.uniqueTraders >= 10 && reading.progressPct >= 10)
}

function keepGraded(preset: (typeof PRESETS)[number], grade: Snapshot): boolean {
  if (preset === 'none' || !grade) return true
  if (grade.grade === 'D' || grade.grade === 'F') return false
  return preset === 'safe' || grade.grade !== 'C'
}

/**
 * The launch radar: curves of the stage asked (new creations newest first, then curves near completion
 * by progress), the preset's filters, each graded by the quick scan before `deadlineAt`.
 */
export function launchRadar(
  ctx: ServiceContext,
  request: Static<typeof LaunchRadarBody>,
  deadlineAt: number,
): Promise<Static<typeof LaunchRadarResult>> {
  const stageAsked = request.stage ?? 'both'
  const preset = request.preset ?? 'none'
  const newWithinS = (request.new_within_minutes ?? NEW_WITHIN_MIN.default) * 60
  const limit = request.limit ?? LAUNCH_LIMIT.default
  return launchpadFeed(ctx, request.token_address, deadlineAt, {
    solPrice: true,
    select({ reads }) {
      const staged = reads
        .map((read) => ({ read, stage: stageOf(read.curve, read.reading, newWithinS) }))
        .filter(({ stage }) =>
          stageAsked === 'both' ? stage === 'new_creation' || stage === 'near_completion' : stage === stageAsked,
        )
        .sort(
          (a, b) =>
            Number(b.stage === 'new_creation') - Number(a.stage === 'new_creation') ||
            (a.stage === 'new_creation'
              ? (a.read.reading.ageS ?? 0) - (b.read.reading.ageS ?? 0)
              : b.read.reading.progressPct - a.read.reading.progressPct),
        )
      const kept = staged.filter(({ read }) => presetKeeps(preset, read.reading))
      // Graded a little beyond the limit, so a preset that drops D/F grades still fills it.
      const candidates = kept.slice(0, preset === 'none' ? limit : limit * 2)
      return { staged, kept, candidates, mints: candidates.map(({ read }) => read.curve.mint) }
    },
    answer({ index, sol }, { staged, kept, candidates }, { grades, focusRead, focusGrade }) {
      const graded = candidates.map((entry, i) => ({ ...entry, grade: grades[i] ?? null }))
      const passing = graded.filter(({ grade }) => keepGraded(preset, grade))
      const listed = passing.slice(0, limit)
      const items = listed.map(({ read, stage, grade }, i) => itemOf(read, i + 1, stage, grade, sol))
      const focus = focusItem(items, focusRead, (read) =>
        itemOf(read, null, stageOf(read.curve, read.reading, newWithinS), focusGrade, sol),
      )
      return {
        body: {
          stage: stageAsked,
          preset,
          index,
          items,
          filtered_out: staged.length - kept.length + (graded.length - passing.length),
          focus,
        },
        summary: () => {
          const flagged = items.filter((item) => item.flags.length > 0).length
          const coins = items.length === 0 ? 'No launchpad coins' : count(items.length, 'launchpad coin')
          const carry = flagged === 0 ? 'none carries' : flagged === 1 ? '1 carries' : `${num(flagged)} carry`
          return `${coins} (${stageAsked.replace('_', ' ')}, preset ${preset}); ${carry} manipulation flags.`
        },
      }
    },
  })
}
