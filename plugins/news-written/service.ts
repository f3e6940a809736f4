import type { Static } from '@sinclair/typebox'
import type { ServiceContext } from '../../src/context.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { ModelError } from '../../src/sources/llm.ts'
import { COHORTS, coordinationOf, cohortOf, type Coordination } from '../../src/news/cohorts.ts'
import type { Post } from '../../src/sources/news-posts.ts'
import { tickerResolver } from '../../src/news/gather.ts'
import { pulseOf } from '../../src/news/pulse.ts'
import {
  BRIEF_TASK,
  COHORT_TASK,
  postCheck,
  REPORT_TASK,
  type SentPost,
  sentPosts,
  taskData,
  type WritingTask,
} from './writing.ts'
import { DEEP_DIVE_POLICY } from '../../src/pipeline/policies.ts'
import { scanToken } from '../../src/pipeline/scan-token.ts'
import { deepDiveAnswer } from '../deep-dive/service.ts'
import type { BriefResult, PulsePlusResult, ReportResult } from './schemas.ts'
import {
  envelope,
  type NewsBody,
  type NewsDeadlines,
  pulseSummary,
  type Read,
  read,
  RETRY_AFTER_S,
  tally,
} from '../../src/news/news-reading.ts'
import { postText } from '../../src/sources/news-posts.ts'
import type { TObject } from '@sinclair/typebox'
import { count } from '../../src/rendering/format.ts'

/** Each cohort's tally, and whether cohorts with two or more posts lean differently. */
function cohortsOf(ctx: ServiceContext, posts: readonly Post[]) {
  const ecosystem = ctx.sources.ecosystem!
  const cohorts = Object.fromEntries(
    COHORTS.map((cohort) => [
      cohort,
      tally(pulseOf(posts.filter((post) => cohortOf(post, ecosystem) === cohort).map(postText))),
    ]),
  ) as Record<(typeof COHORTS)[number], ReturnType<typeof tally>>
  const signals = new Set(
    COHORTS.filter((cohort) => cohorts[cohort].posts >= 2).map((cohort) => cohorts[cohort].signal),
  )
  return { cohorts, disagree: signals.size > 1 }
}

/** The model's text for a task, post-checked; a model that cannot answer is a 503 (nothing charged). */
async function write<S extends TObject>(
  ctx: ServiceContext,
  task: WritingTask<S>,
  state: Read,
  { sent: posts, withheld }: { sent: SentPost[]; withheld: string[] },
  context: Record<string, unknown>,
  answerAt: number,
) {
  const llm = ctx.sources.llm!
  try {
    const { output, usage } = await llm.structured(
      {
        name: task.name,
        schema: task.schema,
        system: task.system,
        data: taskData(state.subject, posts, context),
        maxTokens: task.maxTokens,
        deadlineAt: answerAt,
      },
      state.meter,
    )
    const checked = await postCheck(
      output as Record<string, unknown>,
      new Set(posts.map((post) => post.ref)),
      tickerResolver(ctx.sources.jupiter, state.meter, answerAt),
    )
    return {
      output: checked.output as Static<S> & Record<string, unknown>,
      post_checks: { withheld_posts: withheld, ...checked.checks },
      posts: [...posts],
      model: {
        name: usage.model,
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        max_tokens: task.maxTokens,
        reused: usage.reused,
      },
    }
  } catch (error) {
    if (!(error instanceof ModelError)) throw error
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message: `the language model could not write this answer (${error.message}): nothing was charged; retry after ${RETRY_AFTER_S} s`,
      details: { retry_after_s: RETRY_AFTER_S, model_failure: error.failure },
      headers: { 'retry-after': String(RETRY_AFTER_S) },
    })
  }
}

/** `POST /news/brief`: the pulse, a written brief and the quick scan. */
export async function briefAnswer(
  ctx: ServiceContext,
  body: NewsBody,
  deadlines: NewsDeadlines,
): Promise<Static<typeof BriefResult>> {
  const state = await read(ctx, body, deadlines.readAt)
  const pulse = pulseOf(state.gathered.posts.map(postText))
  const posts = sentPosts(state.gathered.posts, BRIEF_TASK.maxPosts, ctx.sources.ecosystem!)
  const [written, grades] = await Promise.all([
    write(ctx, BRIEF_TASK, state, posts, { pulse: tally(pulse) }, deadlines.answerAt),
    state.subject.mint ? ctx.grades.gradesOf([state.subject.mint], deadlines.answerAt) : Promise.resolve([null]),
  ])
  const quick = grades[0] ?? null
  if (state.subject.mint && quick === null) state.missing.add('quick_scan')
  const { headline, brief, claims } = written.output
  return {
    ...envelope(state),
    pulse,
    brief: { headline, text: brief, claims },
    quick_scan: quick,
    posts: written.posts,
    model: written.model,
    post_checks: written.post_checks,
    summary: `${pulseSummary(state, pulse)}${quick ? ` Quick scan: grade ${quick.grade}.` : ''}`,
  }
}

function coordinationSummary(coordination: Coordination, disagree: boolean): string {
  const parts = [
    coordination.coordinated
      ? `Looks coordinated: ${count(coordination.pushes.length, 'push', 'pushes')} of near-identical posts, ${count(coordination.fresh_accounts, 'fresh account')}.`
      : 'No coordinated push seen.',
  ]
  if (disagree) parts.push('The cohorts disagree.')
  return parts.join(' ')
}

/** What the cohort routes read: the posts, their pulse overall and by cohort, coordination, and what the model is sent. */
async function talkOf(ctx: ServiceContext, body: NewsBody, deadlines: NewsDeadlines, task: WritingTask<TObject>) {
  const state = await read(ctx, body, deadlines.readAt)
  const all = state.gathered.posts
  return {
    state,
    pulse: pulseOf(all.map(postText)),
    ...cohortsOf(ctx, all),
    coordination: coordinationOf(all),
    posts: sentPosts(all, task.maxPosts, ctx.sources.ecosystem!),
  }
}

/** `POST /news/pulse_plus`: the pulse by cohort, coordination, and a synthesis. */
export async function pulsePlusAnswer(
  ctx: ServiceContext,
  body: NewsBody,
  deadlines: NewsDeadlines,
): Promise<Static<typeof PulsePlusResult>> {
  const { state, pulse, cohorts, disagree, coordination, posts } = await talkOf(ctx, body, deadlines, COHORT_TASK)
  const written = await write(
    ctx,
    COHORT_TASK,
    state,
    posts,
    {
      pulse: tally(pulse),
      cohorts,
      coordination: { coordinated: coordination.coordinated, fresh_accounts: coordination.fresh_accounts },
    },
    deadlines.answerAt,
  )
  return {
    ...envelope(state),
    pulse,
    cohorts,
    cohorts_disagree: disagree,
    coordination,
    synthesis: {
      text: written.output.synthesis,
      cohort_takes: written.output.cohort_takes,
      claims: written.output.claims,
    },
    posts: written.posts,
    model: written.model,
    post_checks: written.post_checks,
    summary: `${pulseSummary(state, pulse)} ${coordinationSummary(coordination, disagree)}`,
  }
}

/** The subject token's deep dive, as the report carries it; null when it did not finish. */
async function deepDiveOf(ctx: ServiceContext, mint: string, deadlineAt: number, missing: Set<string>) {
  try {
    const scan = await scanToken(ctx, mint, DEEP_DIVE_POLICY, deadlineAt)
    const answer = deepDiveAnswer(mint, scan)
    return {
      grade: answer.risk_grade,
      score: scan.score,
      data_quality: answer.data_quality,
      recommendation: answer.recommendation.action,
      risks: answer.key_drivers.map((driver) => ({
        code: driver.code,
        title: driver.title,
        severity: driver.severity,
      })),
      flags: answer.historical_flags,
    }
  } catch {
    missing.add('deep_dive')
    return null
  }
}

/** `POST /news/report`: takes, synthesis, risks, a resolved watch list, and the deep dive. */
export async function reportAnswer(
  ctx: ServiceContext,
  body: NewsBody,
  deadlines: NewsDeadlines,
): Promise<Static<typeof ReportResult>> {
  const { state, pulse, cohorts, coordination, posts } = await talkOf(ctx, body, deadlines, REPORT_TASK)
  const mint = state.subject.mint
  const [written, deepDive] = await Promise.all([
    write(ctx, REPORT_TASK, state, posts, { pulse: tally(pulse), cohorts }, deadlines.answerAt),
    mint ? deepDiveOf(ctx, mint, deadlines.answerAt - DEEP_DIVE_MARGIN_MS, state.missing) : Promise.resolve(null),
  ])
  const { takes, synthesis, risks, watch_list } = written.output
  const scanLine = deepDive
    ? ` Deep dive: grade ${deepDive.grade}, ${deepDive.recommendation}${deepDive.flags.length > 0 ? ` (${deepDive.flags.join(', ')})` : ''}.`
    : ''
  return {
    ...envelope(state),
    pulse,
    cohorts,
    coordination,
    report: {
      takes,
      synthesis,
      risks,
      watch_list: (watch_list ?? []) as { ticker: string; mint: string; why: string; post_refs: string[] }[],
    },
    deep_dive: deepDive,
    posts: written.posts,
    model: written.model,
    post_checks: written.post_checks,
    summary: `${pulseSummary(state, pulse)} ${risks.length === 0 ? 'No risks' : count(risks.length, 'risk')} raised.${scanLine}`,
  }
}

/** The deep dive stops this long before the report's deadline, to leave room to answer. */
const DEEP_DIVE_MARGIN_MS = 500
