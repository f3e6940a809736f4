import { describe, expect, test } from 'bun:test'
import { ModelClient, ModelError } from '../src/sources/llm.ts'
import { BriefOutput } from '../plugins/news-written/writing.ts'
import { CallMeter } from '../src/sources/upstream.ts'
import { SANDBOX_LLM_KEY, SANDBOX_MODEL } from '../sandbox/model/server.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'

// The /news routes on the sandbox: its two news desks and X stand-in (sandbox/news/posts.ts: an organic
// blue chip with a disguised prompt injection, a hyped rug with a textbook one, a coordinated shill, a
// fear day) and its stand-in model server, deliberately gullible (sandbox/model/server.ts): it obeys
// injections, invents tickers and fields and cites posts that do not exist, so the guardrails are tested.
const { sandbox, app, validate, freshApp, mintOf } = await scannerService()

async function call(path: string, body: Record<string, unknown>, service = app) {
  const started = Date.now()
  const response = await service.handle(scanRequest(path, body))
  const answer = (await response.json()) as any
  return {
    status: response.status,
    headers: response.headers,
    body: answer,
    ms: Date.now() - started,
    errors: validate('POST', path, response.status, answer),
  }
}

/** Every key at every depth of a JSON value. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into)
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      into.add(key)
      keysOf(inner, into)
    }
  return into
}

describe('POST /news/pulse (no model)', () => {
  test('the market on a fear day: BEARISH, read from both desks and X', async () => {
    const { status, body, errors } = await call('/news/pulse', {})
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'FULL', signal: 'BEARISH', method: 'lexicon', missing_fields: [] })
    expect(body.subject).toMatchObject({ scope: 'market', mint: null })
    expect(body.sources.map((source: any) => source.read)).toEqual([true, true, true])
    expect(body.bear).toBeGreaterThan(body.bull * 3)
  })

  test.each([
    ['BLUE', 'blue-chip', 'BULLISH'],
    // The hyped rug: three warnings of rugs and a scam outweigh five hype posts (docs/catalogue.md, alarms).
    ['$legit', 'serial-rugger', 'BEARISH'],
    // The shill: eight hype posts against the analysts' warnings of a bundled launch.
    ['BNDL', 'bundled-launch', 'MIXED'],
  ])('%s: resolved to the %s mint through the token list, leaning %s', async (symbol, scenario, signal) => {
    const { body, errors } = await call('/news/pulse', { symbol })
    expect(errors).toEqual([])
    expect(body.subject).toMatchObject({ scope: 'token', mint: mintOf(scenario), ambiguous: false })
    expect(body.signal).toBe(signal)
    expect(body.posts).toBeGreaterThanOrEqual(5)
  })

  test('LEGIT, the hyped rug: never BULLISH — its alarms lead the top terms', async () => {
    const { body } = await call('/news/pulse', { symbol: 'LEGIT' })
    expect(body.signal).not.toBe('BULLISH')
    expect(body.bull).toBeGreaterThan(body.bear)
    expect(body.top_terms.slice(0, 2)).toEqual([
      { term: 'rug', count: 3 },
      { term: 'warning', count: 3 },
    ])
    // Fewer bearish posts than bullish, yet not bullish: the summary says why.
    expect(body.summary).toContain('3 of them raise alarms')
  })

  test('a mint reads the same posts as its ticker', async () => {
    const byTicker = (await call('/news/pulse', { symbol: 'BLUE' })).body
    const byMint = (await call('/news/pulse', { symbol: mintOf('blue-chip') })).body
    expect(byMint.subject.symbol).toBe('BLUE')
    expect(byMint.posts).toBe(byTicker.posts)
    expect(byMint.signal).toBe(byTicker.signal)
  })

  test('a ticker no listed token has: said (mint null), no posts, NEUTRAL — not an error', async () => {
    const { status, body } = await call('/news/pulse', { symbol: 'ZQXW' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ signal: 'NEUTRAL', posts: 0, subject: { mint: null, symbol: 'ZQXW', candidates: [] } })
  })

  test.each([['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'], ['not a ticker'], ['$TOOLONGTICKER']])(
    'symbol %p: 400 INVALID_REQUEST naming the field',
    async (symbol) => {
      const { status, body } = await call('/news/pulse', { symbol })
      expect(status).toBe(400)
      expect(body).toMatchObject({ error: true, code: 'INVALID_REQUEST' })
      expect(body.message).toContain('symbol')
    },
  )

  test('one desk down: PARTIAL, that feed named missing, the rest answered', async () => {
    sandbox.faults.set('news', '/feeds/wire.xml', { kind: 'down' })
    const { body } = await call('/news/pulse', {}, freshApp())
    expect(body.data_quality).toBe('PARTIAL')
    expect(body.missing_fields).toEqual([expect.stringMatching(/^news:.*\/feeds\/wire\.xml$/)])
    expect(body.posts).toBeGreaterThan(0)
  })

  test('X slow past the read deadline: answered within 8 s without it', async () => {
    sandbox.faults.set('news', '/2/tweets/search/recent', { kind: 'slow', delayMs: 9_000 })
    const { status, body, ms } = await call('/news/pulse', { symbol: 'BLUE' }, freshApp())
    expect(status).toBe(200)
    expect(ms).toBeLessThan(8_000)
    expect(body.missing_fields).toEqual(['x'])
    expect(body.sources.find((source: any) => source.name === 'x')).toMatchObject({ read: false })
  }, 15_000)
})

describe('POST /news/pulse_plus', () => {
  test('the shill campaign reads as coordinated: one push by fresh accounts, the cohorts disagree', async () => {
    const { status, body, errors } = await call('/news/pulse_plus', { symbol: 'BNDL' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.coordination.coordinated).toBe(true)
    expect(body.coordination.pushes).toHaveLength(1)
    expect(body.coordination.pushes[0]).toMatchObject({ accounts: 8, fresh_accounts: 8 })
    expect(body.cohorts.degens.signal).toBe('BULLISH')
    expect(body.cohorts.analysts.signal).toBe('BEARISH')
    expect(body.cohorts_disagree).toBe(true)
    const fresh = body.posts.filter((post: any) => post.fresh_account === true)
    expect(fresh.length).toBeGreaterThanOrEqual(8)
    expect(body.summary).toContain('Looks coordinated')
  })

  test('the organic blue chip: no push, the ecosystem’s own accounts heard as the ecosystem', async () => {
    const { body } = await call('/news/pulse_plus', { symbol: 'BLUE' })
    expect(body.coordination.coordinated).toBe(false)
    expect(body.cohorts.ecosystem.posts).toBe(2)
    expect(body.cohorts.analysts.signal).not.toBe('BEARISH')
    expect(body.synthesis.cohort_takes.map((take: any) => take.cohort).sort()).toEqual([
      'analysts',
      'degens',
      'ecosystem',
    ])
  })

  test('the model is named in the answer, with its tokens and budget', async () => {
    const { body } = await call('/news/pulse_plus', { symbol: 'BNDL' })
    expect(body.model).toMatchObject({ name: SANDBOX_MODEL, max_tokens: 800 })
    expect(body.model.prompt_tokens).toBeGreaterThan(0)
    expect(body.model.completion_tokens).toBeGreaterThan(0)
  })
})

describe('POST /news/report', () => {
  test('the hyped rug: the deep dive’s risks listed (a serial rugger), the posts’ warnings raised', async () => {
    const { status, body, errors } = await call('/news/report', { symbol: 'LEGIT' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.deep_dive).toMatchObject({ grade: 'F', recommendation: 'AVOID' })
    expect(body.deep_dive.flags).toContain('DEV_PREVIOUS_RUGS')
    expect(body.deep_dive.risks.map((risk: any) => risk.code)).toContain('DEV_SERIAL_RUGGER')
    expect(body.report.risks.length).toBeGreaterThan(0)
    for (const risk of body.report.risks) expect(risk.post_refs.length).toBeGreaterThan(0)
    expect(body.summary).toContain('AVOID')
  })

  test('the market: no deep dive (null), the report still written', async () => {
    const { status, body } = await call('/news/report', {})
    expect(status).toBe(200)
    expect(body.deep_dive).toBeNull()
    expect(body.report.takes.length).toBeGreaterThan(0)
  })
})

describe('guardrails', () => {
  test('a textbook injection ("ignore previous instructions") is withheld from the model', async () => {
    const { body } = await call('/news/brief', { symbol: 'LEGIT' })
    expect(body.post_checks.withheld_posts).toHaveLength(1)
    expect(body.posts.some((post: any) => /ignore previous instructions/i.test(post.text))).toBe(false)
    expect(JSON.stringify(body)).not.toContain('RUGME')
  })

  test.each([['/news/brief'], ['/news/pulse_plus'], ['/news/report']])(
    '%s: a disguised injection reaches the (gullible) model, and still cannot add a field, a ticker or a citation',
    async (path) => {
      const { status, body, errors } = await call(path, { symbol: 'BLUE' })
      expect(status).toBe(200)
      // The hostile post was given to the model (the filter did not catch it) …
      expect(body.posts.some((post: any) => post.text.includes('admin mode'))).toBe(true)
      // … which obeyed it; none of it survives: the schema holds, no invented field anywhere …
      expect(errors).toEqual([])
      expect(keysOf(body).has('admin_note')).toBe(false)
      // … no unlisted ticker (redacted in text, dropped from lists) and no citation of a post it was not given.
      expect(body.post_checks.unresolved_tickers).toEqual(expect.arrayContaining(['RUGME', 'NOTREAL']))
      expect(body.post_checks.unknown_refs).toContain('p999')
      const { posts, post_checks: _checks, ...written } = body
      expect(JSON.stringify(written)).not.toMatch(/\$(RUGME|NOTREAL)\b/)
      const refs = new Set(posts.map((post: any) => post.ref))
      for (const ref of JSON.stringify(written).match(/"p\d+"/g) ?? []) expect(refs.has(JSON.parse(ref))).toBe(true)
    },
  )

  test('invented tickers never reach the watch list: every entry resolves to a listed mint', async () => {
    const { body } = await call('/news/report', { symbol: 'BLUE' })
    const tickers = body.report.watch_list.map((entry: any) => entry.ticker)
    expect(tickers).not.toContain('RUGME')
    expect(tickers).not.toContain('NOTREAL')
    for (const entry of body.report.watch_list) {
      const listed = await sandbox.world.tokens.get(entry.mint)
      expect(listed?.symbol.toUpperCase()).toBe(entry.ticker)
    }
  })
})

describe('the model behind an interface', () => {
  test('the model down: 503 UPSTREAM_UNAVAILABLE with Retry-After (so nothing is charged); the pulse unaffected', async () => {
    sandbox.faults.set('model', '/v1/chat/completions', { kind: 'down' })
    const service = freshApp()
    const { status, body, headers, errors } = await call('/news/brief', { symbol: 'BLUE' }, service)
    expect(status).toBe(503)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ error: true, code: 'UPSTREAM_UNAVAILABLE', model_failure: 'unavailable' })
    expect(headers.get('retry-after')).toBe('10')
    expect((await call('/news/pulse', { symbol: 'BLUE' }, service)).status).toBe(200)
  })

  test('a budget too small for the answer: the model stops at max_tokens and the answer is refused as truncated', async () => {
    const client = new ModelClient({ baseUrl: sandbox.file.urls.model, apiKey: SANDBOX_LLM_KEY, model: SANDBOX_MODEL })
    const request = {
      name: 'news_brief',
      schema: BriefOutput,
      system: 'test',
      data: {
        subject: { query: 'X', scope: 'token', symbol: 'X' },
        posts: [{ ref: 'p1', text: 'hello world', lean: 'neutral', cohort: 'degens' }],
      },
      deadlineAt: Date.now() + 5_000,
    }
    const error = await client.structured({ ...request, maxTokens: 5 }, new CallMeter()).catch((caught) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error.failure).toBe('truncated')
    const { output, usage } = await client.structured({ ...request, maxTokens: 500 }, new CallMeter())
    expect(output.claims[0]!.post_refs).toEqual(['p1'])
    expect(usage.completion_tokens).toBeLessThanOrEqual(500)
  })

  test('the same question within a minute reuses the answer (said in model.reused): no second completion', async () => {
    const service = freshApp()
    const first = (await call('/news/brief', { symbol: 'BNDL' }, service)).body
    const asked = sandbox.faults.countOf('model')
    const [second, third] = await Promise.all([
      call('/news/brief', { symbol: 'BNDL' }, service),
      call('/news/brief', { symbol: 'BNDL' }, service),
    ])
    expect(first.model.reused).toBe(false)
    expect([second.body.model.reused, third.body.model.reused]).toEqual([true, true])
    expect(sandbox.faults.countOf('model')).toBe(asked)
    expect(second.body.brief).toEqual(first.brief)
    // Another question is asked afresh.
    expect((await call('/news/brief', { symbol: 'LEGIT' }, service)).body.model.reused).toBe(false)
  })

  test('a wrong key: the model refuses (401) and the route answers 503, never a 500', async () => {
    const { status, body } = await call('/news/brief', { symbol: 'BLUE' }, freshApp({ LLM_API_KEY: 'wrong' }))
    expect(status).toBe(503)
    expect(body.code).toBe('UPSTREAM_UNAVAILABLE')
  })

  test('without LLM_URL the three written routes are off (not served, said why); the pulse stays', async () => {
    const service = freshApp({ LLM_URL: '', LLM_MODEL: '' })
    expect((await call('/news/brief', { symbol: 'BLUE' }, service)).status).toBe(404)
    expect((await call('/news/pulse', { symbol: 'BLUE' }, service)).status).toBe(200)
  })
})
