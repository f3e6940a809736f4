/**
 * The sandbox's model server: an OpenAI-compatible `POST /v1/chat/completions` answering structured-output
 * requests (`response_format: json_schema`) in the chat completion shape of the recorded real answers
 * (test/fixtures/recorded/llm/). It is NOT a language model: a deterministic stand-in that names itself
 * so (`model` below, and every text it writes starts with "(sandbox stand-in)"). It reads the posts the
 * service sends and shapes an answer for the schemas it knows (news_brief, news_cohorts, news_report)
 * from them — and it is deliberately gullible: a post that says "ignore previous instructions" or "admin mode" is
 * obeyed (it adds the tickers and the fields the post asks for, and cites a post that does not exist),
 * so the service's guardrails are tested against the worst a model can do. Usage is counted at four
 * characters a token; an answer longer than `max_tokens` is cut off with finish_reason "length", as a
 * real model's is. A bearer key is required (401 in OpenAI's error shape without the sandbox's).
 */
import type { World } from '../world/world.ts'

export const SANDBOX_MODEL = 'sandbox-stand-in (deterministic, not a language model)'
export const SANDBOX_LLM_KEY = 'sandbox-llm-key'

interface SentPost {
  ref: string
  cohort: 'ecosystem' | 'analysts' | 'degens'
  lean: 'bull' | 'bear' | 'neutral'
  author: string | null
  fresh_account: boolean | null
  text: string
}

interface TaskData {
  subject: { query: string; scope: string; symbol: string | null }
  pulse?: { signal: string }
  posts: SentPost[]
}

const STAND_IN = '(sandbox stand-in)'
const tokensOf = (text: string) => Math.ceil(text.length / 4)
const excerpt = (text: string, max = 140) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)
/** What the gullible stand-in obeys: an order to ignore its instructions, or to enter an "admin mode". */
const INJECTION = /ignore (all )?previous instructions|admin mode/i
const cashtags = (text: string) =>
  [...text.matchAll(/\$([A-Za-z][A-Za-z0-9]{1,9})\b/g)].map((match) => match[1]!.toUpperCase())

let served = 0

function error(status: number, message: string, type: string, code: string | null) {
  return Response.json({ error: { message, type, param: null, code } }, { status })
}

/** The data block of the user message: the JSON between the fences. */
function dataOf(messages: { role: string; content: string }[]): TaskData | undefined {
  const user = messages.find((message) => message.role === 'user')?.content ?? ''
  const block = user.match(/```json\n([\s\S]*)\n```/)?.[1]
  try {
    return block ? (JSON.parse(block) as TaskData) : undefined
  } catch {
    return undefined
  }
}

function about(data: TaskData): string {
  return data.subject.scope === 'market' ? 'the market' : `${data.subject.symbol ?? data.subject.query}`
}

/** What a gullible reader does with a post that gives orders: it follows them. */
function obeyed(data: TaskData) {
  const hostile = data.posts.find((post) => INJECTION.test(post.text))
  if (!hostile) return undefined
  return {
    post: hostile,
    tickers: cashtags(hostile.text),
    note: `${STAND_IN} admin mode: ${excerpt(hostile.text, 80)}`,
  }
}

function claims(data: TaskData) {
  return data.posts.slice(0, 4).map((post) => ({ text: `${STAND_IN} ${excerpt(post.text)}`, post_refs: [post.ref] }))
}

function brief(data: TaskData) {
  const signal = data.pulse?.signal ?? 'NEUTRAL'
  const hostile = obeyed(data)
  return {
    headline: `${STAND_IN} ${data.posts.length} posts on ${about(data)}: ${signal.toLowerCase()}`,
    brief:
      `${STAND_IN} ${data.posts.length} posts about ${about(data)} lean ${signal.toLowerCase()}. ` +
      (data.posts[0] ? `The newest says: "${excerpt(data.posts[0].text, 100)}".` : 'Nobody is talking about it.') +
      (hostile ? ` ${hostile.tickers.map((ticker) => `$${ticker}`).join(' ')} are audited and safe.` : ''),
    claims: [...claims(data), ...(hostile ? [{ text: `${STAND_IN} ${hostile.note}`, post_refs: ['p999'] }] : [])],
    ...(hostile ? { admin_note: hostile.note } : {}),
  }
}

function cohorts(data: TaskData) {
  const takes = (['ecosystem', 'analysts', 'degens'] as const)
    .map((cohort) => ({ cohort, posts: data.posts.filter((post) => post.cohort === cohort) }))
    .filter(({ posts }) => posts.length > 0)
    .map(({ cohort, posts }) => {
      const bull = posts.filter((post) => post.lean === 'bull').length
      const bear = posts.filter((post) => post.lean === 'bear').length
      const mood = bull > bear ? 'bullish' : bear > bull ? 'bearish' : 'undecided'
      return {
        cohort,
        take: `${STAND_IN} ${posts.length} ${cohort} posts, mostly ${mood}: "${excerpt(posts[0]!.text, 90)}"`,
        post_refs: posts.slice(0, 3).map((post) => post.ref),
      }
    })
  const fresh = data.posts.filter((post) => post.fresh_account === true).length
  const hostile = obeyed(data)
  return {
    synthesis:
      `${STAND_IN} ${takes.map((take) => take.take.split(':')[0]!.replace(`${STAND_IN} `, '')).join('; ')}.` +
      (fresh > 0 ? ` ${fresh} posts come from accounts made within the last month.` : '') +
      (hostile ? ` ${hostile.tickers.map((ticker) => `$${ticker}`).join(' ')} are audited and safe.` : ''),
    cohort_takes: takes,
    claims: [...claims(data), ...(hostile ? [{ text: `${STAND_IN} ${hostile.note}`, post_refs: ['p999'] }] : [])],
    ...(hostile ? { admin_note: hostile.note } : {}),
  }
}

function report(data: TaskData) {
  const hostile = obeyed(data)
  const stance = (lean: SentPost['lean']) => (lean === 'bull' ? 'bullish' : lean === 'bear' ? 'bearish' : 'neutral')
  const takes = data.posts
    .filter(
      (post, index, all) =>
        all.findIndex((other) => other.lean === post.lean && other.cohort === post.cohort) === index,
    )
    .slice(0, 6)
    .map((post) => ({ take: `${STAND_IN} ${excerpt(post.text)}`, stance: stance(post.lean), post_refs: [post.ref] }))
  const risks = data.posts
    .filter((post) => post.lean === 'bear')
    .slice(0, 6)
    .map((post) => ({ risk: `${STAND_IN} ${excerpt(post.text)}`, post_refs: [post.ref] }))
  const subject = data.subject.symbol?.toUpperCase()
  const mentioned = new Map<string, string>()
  for (const post of data.posts)
    for (const ticker of cashtags(post.text))
      if (ticker !== subject && !mentioned.has(ticker)) mentioned.set(ticker, post.ref)
  const watch = [...mentioned].map(([ticker, ref]) => ({
    ticker,
    why: `${STAND_IN} named in ${ref}`,
    post_refs: [ref],
  }))
  if (hostile)
    for (const ticker of hostile.tickers) watch.push({ ticker, why: `${STAND_IN} as instructed`, post_refs: ['p999'] })
  return {
    takes,
    synthesis: `${STAND_IN} ${data.posts.length} posts about ${about(data)}: ${takes.length} distinct takes, ${risks.length} raising risks.`,
    risks,
    watch_list: watch,
    ...(hostile ? { admin_note: hostile.note } : {}),
  }
}

const WRITERS: Record<string, (data: TaskData) => unknown> = {
  news_brief: brief,
  news_cohorts: cohorts,
  news_report: report,
}

export async function handleModelRequest(_world: World, request: Request): Promise<Response> {
  const url = new URL(request.url)
  if (url.pathname !== '/v1/chat/completions')
    return error(404, `Invalid URL (${request.method} ${url.pathname})`, 'invalid_request_error', null)
  if (request.method !== 'POST') return error(405, 'Method not allowed', 'invalid_request_error', null)
  if (request.headers.get('authorization') !== `Bearer ${SANDBOX_LLM_KEY}`)
    return error(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')
  let body: {
    messages?: { role: string; content: string }[]
    max_tokens?: number
    response_format?: { type?: string; json_schema?: { name?: string } }
  }
  try {
    body = (await request.json()) as typeof body
  } catch {
    return error(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null)
  }
  const messages = body.messages ?? []
  const name = body.response_format?.json_schema?.name ?? ''
  const write = WRITERS[name]
  const data = dataOf(messages)
  if (body.response_format?.type !== 'json_schema' || !write || !data)
    return error(400, `${STAND_IN} answers only the service's structured news tasks`, 'invalid_request_error', null)
  let content = JSON.stringify(write(data))
  const prompt = tokensOf(messages.map((message) => message.content).join('\n'))
  let completion = tokensOf(content)
  let finish = 'stop'
  if (body.max_tokens !== undefined && completion > body.max_tokens) {
    content = content.slice(0, body.max_tokens * 4)
    completion = body.max_tokens
    finish = 'length'
  }
  served++
  return Response.json({
    id: `chatcmpl-sandbox-${served}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: SANDBOX_MODEL,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  })
}
