import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import {
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { startServer } from '../src/http/server.ts'
import { PRICE_PATHS } from '../src/sources/jupiter.ts'
import { sandboxContext } from './support/live.ts'
import { scanRequest, waivedService } from './support/service.ts'
import { chainBalances } from './support/wallet.ts'

// A swap end to end on each of Jupiter's swap APIs the service speaks (JUPITER_SWAP_API, docs/trade.md):
// Swap API v2's GET /swap/v2/build (the instructions, assembled by the service) and v1's /quote + /swap
// (the transaction, built by Jupiter). One sandbox, one service per API; the buyer signs locally, the
// execute fee is paid on the EVM rail, and the token arrives on chain. test/trade.test.ts runs whole
// on either (JUPITER_SWAP_API=v1 bun test test/trade.test.ts).
const sandbox = await startSandbox(ephemeralSandboxOptions())
const services = await Promise.all(
  (['v2', 'v1'] as const).map(async (api) => {
    const ctx = sandboxContext(sandbox, { RATE_LIMIT_SCANNER_BURST: '1000', JUPITER_SWAP_API: api })
    await ctx.payments.start()
    return { api, running: startServer(createApp(ctx), ctx) }
  }),
)
afterAll(async () => {
  for (const { running } of services) await running.shutdown('test over')
  await sandbox.stop()
})

const SOL = 'So11111111111111111111111111111111111111112'
const token = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const buyer = await sandbox.world.signer('demo-buyer')
const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const { tokensOf } = chainBalances(sandbox.file.urls.rpc)

describe.each(services)('JUPITER_SWAP_API=$api', ({ api, running }) => {
  test('quote → sign locally → execute: CONFIRMED, the quoted amount received, the fee settled', async () => {
    const post = (path: string, body: unknown, fetcher: typeof fetch = fetch) =>
      fetcher(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const before = await tokensOf(buyer.address, token)
    const quoted = await post('/trade/quote', {
      input_mint: SOL,
      output_mint: token,
      amount_in: '50000000',
      user_public_key: buyer.address,
    })
    expect(quoted.status).toBe(200)
    const { job_id, quote, unsigned_transaction_b64 } = (await quoted.json()) as Json
    expect(quote).toMatchObject({ input_mint: SOL, output_mint: token, in_amount: '50000000', slippage_bps: 50 })
    expect(quote.last_valid_block_height).toBeGreaterThan(0)
    const unsigned = getTransactionDecoder().decode(Buffer.from(unsigned_transaction_b64, 'base64'))
    // v2: the service assembled it, so nobody has signed yet; v1: Jupiter's (here the sandbox's) side may have.
    if (api === 'v2') {
      expect(Object.values(unsigned.signatures).every((signature) => signature === null)).toBe(true)
      // The pool's accounts come through the lookup table the answer mapped (addressesByLookupTableAddress).
      const message = getCompiledTransactionMessageDecoder().decode(unsigned.messageBytes)
      expect(message.version === 0 && (message.addressTableLookups ?? []).length).toBe(1)
    }
    const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], unsigned))
    const executed = await post(
      '/trade/execute',
      { job_id, signed_transaction_b64: signed },
      payingFetch as typeof fetch,
    )
    const outcome = (await executed.json()) as Json
    expect({ status: executed.status, outcome: outcome.status }).toEqual({ status: 200, outcome: 'CONFIRMED' })
    expect((await tokensOf(buyer.address, token)) - before).toBe(BigInt(quote.out_amount))
    const job = (await (await fetch(`${running.url}/trade/status/${job_id}`)).json()) as Json
    expect(job.fee).toMatchObject({ status: 'settled', amount: '150000' })
  }, 60_000)
})

// Every price goes through the configured API too: the exit check (and the cross-check and the trade
// idea, which run it) asks v2's /swap/v2/order without a taker, or v1's /swap/v1/quote; never the other.
const priced = (api: 'v2' | 'v1') => waivedService({ ...sandbox.serviceSettings, JUPITER_SWAP_API: api })
const exitCheck = async (service: ReturnType<typeof priced>, size = 10) => {
  const response = await service.handle(scanRequest('/exit/check', { token_address: token, size_usdc: size }))
  return { status: response.status, body: (await response.json()) as Json }
}
const requestsTo = (path: string) => sandbox.faults.countOf(`jupiter:${path}`)

describe.each(['v2', 'v1'] as const)('JUPITER_SWAP_API=%s prices', (api) => {
  test('the exit check asks its price of that API only, and reads the same sale from it', async () => {
    const other = api === 'v2' ? 'v1' : 'v2'
    const before = { own: requestsTo(PRICE_PATHS[api]), other: requestsTo(PRICE_PATHS[other]) }
    const { status, body } = await exitCheck(priced(api))
    expect(status).toBe(200)
    expect(body).toMatchObject({ data_quality: 'FULL', sellable: true, missing_fields: [] })
    expect(body.exit_price_impact_pct).toBeGreaterThan(0)
    // The buy and the sale back: two prices, both on the configured API.
    expect(requestsTo(PRICE_PATHS[api]) - before.own).toBe(2)
    expect(requestsTo(PRICE_PATHS[other]) - before.other).toBe(0)
  })
})

test('both APIs price the same sale alike (the stand-in routes both on its pools)', async () => {
  const [v2, v1] = [await exitCheck(priced('v2'), 25), await exitCheck(priced('v1'), 25)]
  expect(v2.body.expected_return_usdc).toBe(v1.body.expected_return_usdc)
  expect(v2.body.exit_price_impact_pct).toBeCloseTo(v1.body.exit_price_impact_pct, 4)
  expect(v2.body.route_count).toBe(v1.body.route_count)
})

describe('Swap API v2 without a price impact (a v2 answer may leave priceImpact out): not measured, never zero', () => {
  afterEach(() => sandbox.faults.clear())

  test('the exit check: exit_price_impact_pct null and named in missing_fields; the sale still read', async () => {
    sandbox.faults.set('jupiter', '/swap/v2/order', {
      kind: 'drop_members',
      members: ['priceImpact', 'priceImpactPct'],
    })
    const { status, body } = await exitCheck(priced('v2'))
    expect(status).toBe(200)
    expect(body).toMatchObject({
      sellable: true,
      exit_price_impact_pct: null,
      missing_fields: ['exit_price_impact_pct'],
      data_quality: 'PARTIAL',
    })
    expect(body.expected_return_usdc).toBeGreaterThan(9)
    expect(body.summary).toContain('price impact not reported')
  })

  test('the trade quote: price_impact_pct null and the gate WARNs PRICE_IMPACT_UNKNOWN (the 15 % limit could not be checked)', async () => {
    sandbox.faults.set('jupiter', '/swap/v2/build', { kind: 'drop_members', members: ['priceImpactPct'] })
    const v2 = services.find((service) => service.api === 'v2')!.running
    /** The buyer's quote of 0.05 SOL of the token, on v2. */
    const quote = () =>
      fetch(`${v2.url}/trade/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          input_mint: SOL,
          output_mint: token,
          amount_in: '50000000',
          user_public_key: buyer.address,
        }),
      })
    const quoted = await quote()
    expect(quoted.status).toBe(200)
    const body = (await quoted.json()) as Json
    expect(body.status).toBe('QUOTED')
    expect(body.quote.price_impact_pct).toBeNull()
    expect(body.risk_gate.verdict).toBe('WARN')
    expect(body.risk_gate.reasons.map((reason: Json) => reason.code)).toContain('PRICE_IMPACT_UNKNOWN')
    // With the member, the same quote measures it and says nothing of it.
    sandbox.faults.clear()
    const measured = (await (await quote()).json()) as Json
    expect(measured.quote.price_impact_pct).toBeGreaterThan(0)
    expect(measured.risk_gate.verdict).toBe('PASS')
    expect(measured.risk_gate.reasons.map((reason: Json) => reason.code)).not.toContain('PRICE_IMPACT_UNKNOWN')
  })
})
