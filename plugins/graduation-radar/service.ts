import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { feedEnvelope } from '../../src/feeds/feed-answer.ts'
import {
  graduationCandidates,
  gradeWithFocus,
  indexMissing,
  itemOf,
  NO_INDEX_SUMMARY,
  type Read,
  readIndex,
  solUsd,
  stageOf,
} from '../../src/launchpad-index/reading.ts'
import { LAUNCH_LIMIT, NEW_WITHIN_MIN } from '../../src/launchpad-index/schemas.ts'
import { GRADUATION_MIN_PROGRESS, type GraduationRadarBody, type GraduationRadarResult } from './schemas.ts'

/** The graduation radar: curves still bonding with at least `min_progress_pct` sold, soonest to graduate first. */
export async function graduationRadar(
  ctx: ServiceContext,
  request: Static<typeof GraduationRadarBody>,
  deadlineAt: number,
): Promise<Static<typeof GraduationRadarResult>> {
  const nowS = Math.floor(Date.now() / 1000)
  const minProgress = request.min_progress_pct ?? GRADUATION_MIN_PROGRESS.default
  const limit = request.limit ?? LAUNCH_LIMIT.default
  const missing = new Set<string>()
  const [{ reads, index }, sol] = await Promise.all([readIndex(ctx, nowS), solUsd(ctx)])
  const noFeed = indexMissing(index, missing)
  if (sol === null) missing.add('sol_usd')
  const ranked = graduationCandidates(reads, minProgress, limit)
  const { grades, focusRead, focusGrade } = await gradeWithFocus(
    ctx,
    reads,
    ranked.map((read) => read.curve.mint),
    request.token_address,
    deadlineAt,
    missing,
  )
  const stage = (read: Read) => stageOf(read.curve, read.reading, NEW_WITHIN_MIN.default * 60)
  const items = ranked.map((read, i) => itemOf(read, i + 1, stage(read), grades[i] ?? null, sol))
  const focus = focusRead
    ? (items.find((item) => item.token_address === focusRead.curve.mint) ??
      itemOf(focusRead, null, stage(focusRead), focusGrade, sol))
    : null
  const next = items[0]
  return {
    ...feedEnvelope(missing, noFeed),
    min_progress_pct: minProgress,
    index,
    items,
    focus,
    summary: noFeed
      ? NO_INDEX_SUMMARY
      : next
        ? `${items.length} curves at ${minProgress}% or more; next to graduate: ${next.symbol || next.token_address} at ${next.bonding_progress_pct}%${next.minutes_to_graduation === null ? '' : `, in about ${next.minutes_to_graduation} min`}.`
        : `No curve at ${minProgress}% or more is bonding now.`,
  }
}
