import { describe, expect, test } from 'bun:test'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'
import { PRICE_PATH } from './support/swap-api.ts'

// POST /exit/check on the sandbox: the mint read from its chain, both quotes from its aggregator stand-in.
const { sandbox, app, validate, freshApp, mintOf, post } = await scannerService()
const check = async (mint: string, size?: number, service = app) => {
  const response = await service.handle(
    scanRequest('/exit/check', size === undefined ? { token_address: mint } : { token_address: mint, size_usdc: size }),
  )
  const body = (await response.json()) as any
  return { status: response.status, body, errors: validate('POST', '/exit/check', response.status, body) }
}

describe('POST /exit/check', () => {
  test('a liquid token sells back: sellable, about its size returned, a small impact, no blocker', async () => {
    const { status, body, errors } = await check(mintOf('blue-chip'))
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'FULL', sellable: true, size_usdc: 10, blockers: [] })
    // Bought and sold back through two pools each way: fees and impact take a little.
    expect(body.expected_return_usdc).toBeGreaterThan(9)
    expect(body.expected_return_usdc).toBeLessThan(10)
    expect(body.exit_price_impact_pct).toBeGreaterThanOrEqual(0)
    expect(body.route_count).toBeGreaterThanOrEqual(1)
    // What the round trip loses is said, and rated: under 3% is a CLEAN way out.
    expect(body.exit_loss_pct).toBe(Math.round((10 - body.expected_return_usdc) * 1_000) / 100)
    expect(body.exit_loss_pct).toBeLessThan(3)
    expect(body.exit_rating).toBe('CLEAN')
    expect(body.summary).toContain('exit CLEAN')
  })

  test('the dead token at 500 USDC: sellable, but 94% lost — PUNITIVE, not a plain sellable', async () => {
    const { status, body, errors } = await check(mintOf('dead-token'), 500)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'FULL', sellable: true, exit_rating: 'PUNITIVE' })
    expect(body.exit_loss_pct).toBeGreaterThan(20)
    expect(body.exit_loss_pct).toBe(Math.round((500 - body.expected_return_usdc) * 20) / 100)
    expect(body.summary).toContain(`exit PUNITIVE, ${body.exit_loss_pct}% lost`)
  })

  test('a bigger exit costs more of itself', async () => {
    const small = (await check(mintOf('wash-traded'), 1)).body
    const large = (await check(mintOf('wash-traded'), 5_000)).body
    expect(large.exit_price_impact_pct).toBeGreaterThan(small.exit_price_impact_pct)
    expect(large.expected_return_usdc / 5_000).toBeLessThan(small.expected_return_usdc / 1)
  })

  test('the hostile Token-2022 mint: not sellable, its blockers as its mint account on the sandbox chain has them', async () => {
    const { body, errors } = await check(mintOf('hostile-token-2022'))
    expect(errors).toEqual([])
    expect(body.sellable).toBe(false)
    const codes = body.blockers.map((blocker: { code: string }) => blocker.code)
    expect(codes).toEqual(
      expect.arrayContaining([
        'NO_SELL_ROUTE',
        'TRANSFER_FEE',
        'PERMANENT_DELEGATE',
        'TRANSFER_HOOK',
        'FREEZE_AUTHORITY_LIVE',
      ]),
    )
    expect(body.transfer_fee_bps).toBeGreaterThan(0)
    expect(body.expected_return_usdc).toBeNull()
    expect(body).toMatchObject({ exit_rating: 'BLOCKED', exit_loss_pct: 100 })
    expect(body.summary).toStartWith('It cannot be sold now. Blocked by: no sell route')
  })

  test('USDC itself exits at par, with no route', async () => {
    const { body } = await check(sandbox.serviceSettings.SOLANA_PAYMENT_ASSET)
    expect(body).toMatchObject({
      sellable: true,
      expected_return_usdc: 10,
      exit_price_impact_pct: 0,
      route_count: 0,
      exit_loss_pct: 0,
      exit_rating: 'CLEAN',
    })
  })

  test('the aggregator down: the blockers still answer, the quote is listed missing, nothing is invented', async () => {
    sandbox.faults.set('jupiter', PRICE_PATH, { kind: 'down' })
    const { status, body, errors } = await check(mintOf('blue-chip'), 10, freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      sellable: null,
      expected_return_usdc: null,
      exit_price_impact_pct: null,
      route_count: 0,
      // Not measured is never rated.
      exit_loss_pct: null,
      exit_rating: null,
    })
    expect(body.missing_fields).toEqual(['sell_quote'])
    expect(body.data_quality).toBe('PARTIAL')
  })

  test('quotes still outstanding at the deadline: answered in time with the blockers, the quote missing', async () => {
    sandbox.faults.set('jupiter', PRICE_PATH, { kind: 'slow', delayMs: 8_000 })
    const started = Date.now()
    const { status, body, errors } = await check(mintOf('hostile-token-2022'), 10, freshApp())
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.missing_fields).toEqual(['sell_quote'])
    // The mint's own blockers do not wait for the aggregator.
    expect(body.blockers.map((blocker: { code: string }) => blocker.code)).toContain('PERMANENT_DELEGATE')
    expect(body.expected_return_usdc).toBeNull()
  }, 20_000)

  test('a ticker is INVALID_ADDRESS; a size out of bounds is INVALID_REQUEST', async () => {
    expect((await post('/exit/check', 'BONK')).body.code).toBe('INVALID_ADDRESS')
    expect((await check(mintOf('blue-chip'), 0)).body.code).toBe('INVALID_REQUEST')
  })
})
