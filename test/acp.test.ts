import { afterAll, describe, expect, test } from 'bun:test'
import { acpOfferings, acpSeller } from '../plugins/acp/seller.ts'
import { markEscrowed } from '../src/payments/escrow.ts'
import { startAcpStandIn } from '../sandbox/acp/server.ts'
import { HttpAcpMarket } from '../sandbox/acp/market.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { openApiValidator } from './support/openapi.ts'

// The whole service on the sandbox; the ACP seller adapter against a loopback stand-in of the
// marketplace's job phases and escrow (sandbox/acp/), behind the interface the official SDK's adapter
// implements (plugins/acp/marketplace.ts).
const { ctx, running, service, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const acp = startAcpStandIn()
const SELLER = '0x5e11e5e11e5e11e5e11e5e11e5e11e5e11e5e11e'
const BUYER = '0xb0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0'
acp.fund(BUYER, '5')
const market = new HttpAcpMarket(acp.url, SELLER)
await acpSeller(ctx, service, market).start()
afterAll(async () => {
  await market.close()
  await acp.stop()
})
const validate = await openApiValidator({
  handle: (request) => fetch(`${running.url}${new URL(request.url).pathname}`),
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
const post = async (path: string, body: unknown = {}): Promise<Json> =>
  (await fetch(`${acp.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json()
const jobOf = async (id: string): Promise<Json> => (await fetch(`${acp.url}/jobs/${id}`)).json()
const balanceOf = async (wallet: string): Promise<string> =>
  ((await (await fetch(`${acp.url}/balances/${wallet}`)).json()) as { usd: string }).usd
const phaseOf = (id: string, phases: string[]) =>
  eventually(
    `job ${id} to reach ${phases.join(' or ')}`,
    () => jobOf(id),
    (job: Json) => phases.includes(job.phase),
  )

describe('ACP offerings, from the manifests', () => {
  test('every paid skill at its manifest price (the catalogue services at the spec catalog’s prices), the requirement its request schema; trade execute is not offered', () => {
    const offerings = acpOfferings(ctx)
    expect(offerings.map(({ name, priceUsd }) => [name, priceUsd])).toEqual([
      ['sol_quick_scan', '0.02'],
      ['sol_market_intel', '0.20'],
      ['sol_deep_dive', '0.50'],
      // Spec §4.7: the catalog's services and marketplace prices.
      ['trending', '0.02'],
      ['signal_radar', '0.04'],
      ['launch_radar', '0.05'],
      ['graduation_radar', '0.06'],
      ['graduation_momentum', '0.40'],
      ['smart_money', '0.05'],
    ])
    // Each takes {token_address} (spec §4.7): a requirement of just that is valid for every catalogue offering.
    for (const offering of offerings.slice(3)) {
      const schema = offering.requirementSchema as { properties: Record<string, unknown>; required?: string[] }
      expect(Object.keys(schema.properties)).toContain('token_address')
      expect(schema.required ?? []).toEqual([])
    }
    expect(offerings[0]!.requirementSchema).toMatchObject({ type: 'object', required: ['token_address'] })
  })
})

describe('an ACP job end to end (request → negotiation → transaction → evaluation → completed)', () => {
  test('a quick scan bought through the escrow: accepted, run by the scanner, delivered as the same JSON, paid once, in the ledger as acp', async () => {
    const mint = mintOf('blue-chip')
    const requested = await post('/jobs', {
      buyer: BUYER,
      provider: SELLER,
      offering: 'sol_quick_scan',
      requirement: { token_address: mint },
      price_usd: '0.02',
    })
    await phaseOf(requested.id, ['NEGOTIATION'])
    const sellerBefore = await balanceOf(SELLER)
    expect((await post(`/jobs/${requested.id}/pay`)).phase).toBe('TRANSACTION')
    const delivered = await phaseOf(requested.id, ['EVALUATION'])
    expect(validate('POST', '/scan/quick', 200, delivered.deliverable)).toEqual([])
    expect(delivered.deliverable).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect((await post(`/jobs/${requested.id}/evaluate`, { accept: true })).phase).toBe('COMPLETED')
    expect(Number(await balanceOf(SELLER)) - Number(sellerBefore)).toBeCloseTo(0.02, 6)
    expect(await ctx.store.ledger.get(`acp:${requested.id}`)).toMatchObject({
      state: 'settled',
      network: 'acp',
      amount: '20000',
      resource: 'POST /scan/quick',
      payer: BUYER,
    })
  })

  test('a ticker for a mint is rejected at the request, with the API’s own message; nothing is paid', async () => {
    const before = await balanceOf(BUYER)
    const requested = await post('/jobs', {
      buyer: BUYER,
      provider: SELLER,
      offering: 'sol_deep_dive',
      requirement: { token_address: 'BONK' },
      price_usd: '0.50',
    })
    const rejected = await phaseOf(requested.id, ['REJECTED', 'NEGOTIATION'])
    expect(rejected.phase).toBe('REJECTED')
    expect(rejected.reason).toContain('ticker')
    expect(await balanceOf(BUYER)).toBe(before)
  })

  test('a job below the offering’s price is rejected: the same prices on every path', async () => {
    const requested = await post('/jobs', {
      buyer: BUYER,
      provider: SELLER,
      offering: 'sol_market_intel',
      requirement: { token_address: mintOf('blue-chip') },
      price_usd: '0.02',
    })
    const rejected = await phaseOf(requested.id, ['REJECTED', 'NEGOTIATION'])
    expect(rejected.phase).toBe('REJECTED')
    expect(rejected.reason).toContain('0.20 USD')
  })
})

describe('the escrow mark', () => {
  test('buys one call: the same job presented again is refused (402), and no x402 payment is asked', async () => {
    const call = () =>
      service.handle(
        markEscrowed(
          new Request(`${running.url}/scan/quick`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token_address: mintOf('blue-chip') }),
          }),
          { rail: 'acp', reference: 'replayed-job', amount: '20000', payer: BUYER },
        ),
      )
    expect((await call()).status).toBe(200)
    const again = await call()
    expect(again.status).toBe(402)
    expect(((await again.json()) as Json).message).toContain('already bought a call')
  })

  test('cannot be claimed from the wire: an HTTP caller gets the x402 challenge', async () => {
    const response = await fetch(`${running.url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-acp-job': '1', 'x-request-id': 'acp-1' },
      body: JSON.stringify({ token_address: mintOf('blue-chip') }),
    })
    expect(response.status).toBe(402)
  })
})
