import { describe, expect, test } from 'bun:test'
import { manifest } from '../plugins/trending/manifest.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'

// POST /scan/trending on the sandbox: rankings from its Jupiter stand-in (tokens v2 categories computed
// from the trades its chain holds), every item graded by the quick scan over the sandbox RPC.
const { sandbox, app, validate, freshApp, mintOf } = await scannerService()

async function trending(body: Record<string, unknown>, service = app) {
  const started = Date.now()
  const response = await service.handle(scanRequest('/scan/trending', body))
  const answer = (await response.json()) as any
  return {
    status: response.status,
    body: answer,
    ms: Date.now() - started,
    errors: validate('POST', '/scan/trending', response.status, answer),
  }
}

async function quickGrade(mint: string): Promise<string> {
  const response = await app.handle(scanRequest('/scan/quick', { token_address: mint }))
  return ((await response.json()) as { structural_risk_grade: string }).structural_risk_grade
}

describe('POST /scan/trending', () => {
  test('the 24-hour volume ranking: ranked, in the published shape, every token graded as its quick scan grades it', async () => {
    const { status, body, errors } = await trending({ interval: '24h', sort: 'volume' })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'FULL',
      missing_fields: [],
      interval: '24h',
      sort: 'volume',
      focus: null,
    })
    expect(body.items.length).toBeGreaterThan(3)
    expect(body.items.map((item: { rank: number }) => item.rank)).toEqual(
      body.items.map((_: unknown, i: number) => i + 1),
    )
    const volumes = body.items.map((item: { volume_usd: number }) => item.volume_usd)
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a))
    for (const item of body.items) expect(item.quick_scan.grade).toBe(await quickGrade(item.token_address))
    // The sandbox USDC is a registered stablecoin, and SOL is wrapped SOL: both left out by default.
    const mints = body.items.map((item: { token_address: string }) => item.token_address)
    expect(mints).not.toContain(sandbox.file.usdc_mint)
    expect(body.items.map((item: { symbol: string }) => item.symbol)).not.toContain('SOL')
    // A token posing as USDC on another mint is no stablecoin: listed, graded as the impersonator it is.
    const fake = body.items.find((item: { symbol: string }) => item.symbol === 'USDC')
    expect(fake?.token_address).not.toBe(sandbox.file.usdc_mint)
    expect(fake?.quick_scan.grade).toMatch(/^[DF]$/)
    expect(body.filtered_out).toMatchObject({ stablecoin: 1, wrapped_sol: 1 })
  })

  test('include_stable keeps them; limit and min_liquidity_usd bound the list', async () => {
    const all = (await trending({ interval: '24h', sort: 'volume', include_stable: true, limit: 50 })).body
    expect(all.items.map((item: { symbol: string }) => item.symbol)).toEqual(expect.arrayContaining(['SOL', 'USDC']))
    expect(all.filtered_out).toMatchObject({ stablecoin: 0, wrapped_sol: 0 })
    expect((await trending({ interval: '24h', sort: 'volume', limit: 2 })).body.items).toHaveLength(2)
    const floor = 50_000
    const deep = (await trending({ interval: '24h', sort: 'volume', min_liquidity_usd: floor })).body
    for (const item of deep.items) expect(item.liquidity_usd).toBeGreaterThanOrEqual(floor)
    expect(deep.filtered_out.below_min_liquidity).toBeGreaterThan(0)
  })

  test('a focus token in the feed carries its rank; one outside it, rank null and its grade', async () => {
    const feed = (await trending({ interval: '24h', sort: 'volume' })).body
    const second = feed.items[1]
    const inFeed = (await trending({ interval: '24h', sort: 'volume', token_address: second.token_address })).body
    expect(inFeed.focus).toMatchObject({ rank: 2, token_address: second.token_address })
    const dead = mintOf('dead-token')
    const outside = (await trending({ interval: '5m', token_address: dead })).body
    expect(outside.items.map((item: { token_address: string }) => item.token_address)).not.toContain(dead)
    expect(outside.focus).toMatchObject({ rank: null, token_address: dead })
    expect(outside.focus.quick_scan.grade).toBe(await quickGrade(dead))
  })

  test('a second feed reuses the first one’s grades and ranking: no quick scan and no ranking call again', async () => {
    const service = freshApp()
    const ranking = () => sandbox.faults.countOf('jupiter:/tokens/v2/toptrending/6h')
    await trending({ interval: '6h' }, service)
    const [rpc, calls] = [sandbox.faults.countOf('rpc'), ranking()]
    const again = await trending({ interval: '6h' }, service)
    expect(again.body.data_quality).toBe('FULL')
    expect(sandbox.faults.countOf('rpc')).toBe(rpc)
    expect(ranking()).toBe(calls)
  })

  test('the aggregator down: LIMITED within the deadline, the feed listed missing, nothing listed in its place', async () => {
    sandbox.faults.set('jupiter', '/tokens/v2/', { kind: 'down' })
    const { status, body, errors, ms } = await trending({ interval: '1h' }, freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'LIMITED', missing_fields: ['feed'], items: [] })
    expect(ms).toBeLessThan(manifest.routes.trending.deadlineMs.answerAt + 500)
  })

  test('bad input: a bad focus mint, an unknown interval, a limit over 50', async () => {
    expect((await trending({ token_address: '0xdeadbeef' })).body).toMatchObject({
      error: true,
      code: 'INVALID_ADDRESS',
    })
    expect((await trending({ interval: '2h' })).status).toBe(400)
    expect((await trending({ limit: 51 })).status).toBe(400)
  })
})
