import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { focusItem, graduationCandidates, itemOf, launchpadFeed, stageOf } from '../../src/launchpad-index/reading.ts'
import { LAUNCH_LIMIT } from '../../src/launchpad-index/schemas.ts'
import { GRADUATION_MIN_PROGRESS, type GraduationRadarBody, type GraduationRadarResult } from './schemas.ts'
import { count, inAbout, pct } from '../../src/rendering/format.ts'

/** The graduation radar: curves still bonding with at least `min_progress_pct` sold, soonest to graduate first. */
export function graduationRadar(
  ctx: ServiceContext,
  request: Static<typeof GraduationRadarBody>,
  deadlineAt: number,
): Promise<Static<typeof GraduationRadarResult>> {
  const minProgress = request.min_progress_pct ?? GRADUATION_MIN_PROGRESS.default
  const limit = request.limit ?? LAUNCH_LIMIT.default
  return launchpadFeed(ctx, request.token_address, deadlineAt, {
    solPrice: true,
    select({ reads }) {
      const ranked = graduationCandidates(reads, minProgress, limit)
      return { ranked, mints: ranked.map((read) => read.curve.mint) }
    },
    answer({ index, sol }, { ranked }, { grades, focusRead, focusGrade }) {
      const items = ranked.map((read, i) =>
        itemOf(read, i + 1, stageOf(read.curve, read.reading), grades[i] ?? null, sol),
      )
      const focus = focusItem(items, focusRead, (read) =>
        itemOf(read, null, stageOf(read.curve, read.reading), focusGrade, sol),
      )
      const next = items[0]
      return {
        body: { min_progress_pct: minProgress, index, items, focus },
        summary: () =>
          next
            ? `${count(items.length, 'curve')} at ${pct(minProgress)} or more; next to graduate: ${next.symbol || next.token_address} at ${pct(next.bonding_progress_pct)}${next.minutes_to_graduation === null ? '' : `, ${inAbout(next.minutes_to_graduation * 60)}`}.`
            : `No curve at ${pct(minProgress)} or more is bonding now.`,
      }
    },
  })
}
