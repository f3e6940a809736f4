import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../context.ts'
import { SCHEMA_VERSION } from '../kernel/version.ts'
import { feedQuality } from '../feeds/feed-answer.ts'
import { CallMeter } from '../sources/upstream.ts'
import { gatherPosts, type Gathered, resolveSubject, type Subject } from './gather.ts'
import { ALARM_WEIGHT, type Pulse } from './pulse.ts'
import { type NewsRequest, WINDOW_HOURS } from './schemas.ts'
import { count, num } from '../rendering/format.ts'

// What every /news answer reads first: the subject, the posts about it, and the envelope they share.

export type NewsBody = Static<typeof NewsRequest>

/** When each step of a /news answer must be done, epoch ms. */
export interface NewsDeadlines {
  /** The subject resolved and the posts read. */
  readAt: number
  /** The written text (and, for the report, the deep dive) in. */
  answerAt: number
}

/** Retry-After for a model that could not answer. */
export const RETRY_AFTER_S = 10

export interface Read {
  meter: CallMeter
  missing: Set<string>
  subject: Subject
  gathered: Gathered
}

export async function read(ctx: ServiceContext, body: NewsBody, readAt: number): Promise<Read> {
  const meter = new CallMeter()
  const missing = new Set<string>()
  const subject = await resolveSubject(body.symbol ?? '', ctx.sources.jupiter, meter, readAt, missing)
  const gathered = await gatherPosts(
    ctx.sources,
    subject,
    body.window_hours ?? WINDOW_HOURS.default,
    meter,
    readAt,
    missing,
  )
  return { meter, missing, subject, gathered }
}

export function envelope({ missing, subject, gathered }: Read) {
  const noneRead = gathered.sources.every((source) => !source.read)
  return {
    schema_version: SCHEMA_VERSION,
    data_quality: feedQuality(missing, noneRead),
    missing_fields: [...missing],
    generated_at: new Date().toISOString(),
    subject,
    window: gathered.window,
    sources: gathered.sources,
  }
}

export const label = (subject: Subject) =>
  subject.scope === 'market' ? 'The market' : (subject.symbol ?? subject.mint ?? subject.query)

export const tally = ({ top_terms: _terms, ...counts }: Pulse) => counts

export function pulseSummary(read: Read, pulse: Pulse): string {
  const { subject, gathered } = read
  const ambiguous = subject.ambiguous
    ? ` (${count(subject.candidates.length, 'listed token')} share the ticker; read as ${subject.mint})`
    : ''
  // No source answered: the posts were not counted, which is not "no posts".
  if (gathered.sources.length > 0 && gathered.sources.every((source) => !source.read))
    return `${label(subject)}${ambiguous}: not measured — no news source could be read.`
  if (pulse.posts === 0) return `${label(subject)}${ambiguous}: no posts in the last ${num(gathered.window.hours)} h.`
  // Why fewer bearish posts can lean it bearish: each alarm outweighs ALARM_WEIGHT hype posts.
  const alarms =
    pulse.alarms > 0
      ? ` ${num(pulse.alarms)} of them ${pulse.alarms === 1 ? 'raises' : 'raise'} alarms (rug, scam, hack, warning…), each weighing as ${ALARM_WEIGHT} posts.`
      : ''
  return `${label(subject)}${ambiguous}: ${pulse.signal} — ${num(pulse.bull)} bullish, ${num(pulse.bear)} bearish, ${num(pulse.neutral)} neutral of ${count(pulse.posts, 'post')} in the last ${num(gathered.window.hours)} h.${alarms}`
}
