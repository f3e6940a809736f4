import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { envelope, type NewsBody, type NewsDeadlines, pulseSummary, read } from '../../src/news/news-reading.ts'
import { pulseOf } from '../../src/news/pulse.ts'
import { postText } from '../../src/sources/news-posts.ts'
import type { PulseResult } from '../../src/news/schemas.ts'

/** `POST /news/pulse`: the lexicon's lean of the posts, no model. */
export async function pulseAnswer(
  ctx: ServiceContext,
  body: NewsBody,
  deadlines: NewsDeadlines,
): Promise<Static<typeof PulseResult>> {
  const state = await read(ctx, body, deadlines.readAt)
  const pulse = pulseOf(state.gathered.posts.map(postText))
  return { ...envelope(state), ...pulse, method: 'lexicon', summary: pulseSummary(state, pulse) }
}
