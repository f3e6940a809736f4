import { describe, expect, test } from 'bun:test'
import { manifest } from '../plugins/exit-cross-check/manifest.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'

// POST /exit/cross-check on the sandbox: the exit from its chain and Jupiter stand-in, the bridge quote
// from its LI.FI stand-in (0.25% LI.FI fee and a destination-gas fee per chain, taken out of the transfer).
const { sandbox, app, validate, freshApp, mintOf } = await scannerService()

async function crossCheck(body: Record<string, unknown>, service = app) {
  const started = Date.now()
  const response = await service.handle(scanRequest('/exit/cross-check', body))
  const answer = (await response.json()) as any
  return {
    status: response.status,
    body: answer,
    ms: Date.now() - started,
    errors: validate('POST', '/exit/cross-check', response.status, answer),
  }
}

describe('POST /exit/cross-check', () => {
  test('a liquid token home to Base: the sale, the bridge, and what arrives, each as its quote says', async () => {
    const { status, body, errors } = await crossCheck({ token_address: mintOf('blue-chip'), size_usdc: 50 })
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'FULL',
      home_chain: 'base',
      sellable: true,
      bridgeable: true,
      exit_rating: 'CLEAN',
    })
    const returned = body.expected_return_usdc
    expect(body.bridge.from_usdc).toBeCloseTo(returned, 6)
    // What the stand-in's route takes: 0.25% and Base's 0.01 USDC destination gas.
    const fees = Math.round(returned * 0.0025 * 1e6) / 1e6 + 0.01
    expect(body.net_home_output_usdc).toBeCloseTo(returned - fees, 5)
    expect(body.bridge.fee_usd).toBeCloseTo(fees, 3)
    expect(body.all_in_cost_pct).toBeCloseTo(((50 - body.net_home_output_usdc + body.bridge.gas_usd) / 50) * 100, 3)
    expect(body.all_in_cost_pct).toBeGreaterThan(body.exit_price_impact_pct)
  })

  test('Ethereum costs more than Base to land on', async () => {
    const mint = mintOf('blue-chip')
    const base = (await crossCheck({ token_address: mint, home_chain: 'base' })).body
    const ethereum = (await crossCheck({ token_address: mint, home_chain: 'ethereum' })).body
    expect(ethereum.net_home_output_usdc).toBeLessThan(base.net_home_output_usdc)
    expect(ethereum.all_in_cost_pct).toBeGreaterThan(base.all_in_cost_pct)
  })

  test('the hostile Token-2022 mint: blocked, nothing to bridge', async () => {
    const { body, errors } = await crossCheck({ token_address: mintOf('hostile-token-2022') })
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      sellable: false,
      exit_rating: 'BLOCKED',
      bridgeable: null,
      bridge: null,
      net_home_output_usdc: null,
    })
    expect(body.summary).toEndWith('Nothing to bridge.')
  })

  test('too little to bridge: the bridge answers no route, said as a fact (bridgeable false), nothing estimated', async () => {
    const { body } = await crossCheck({ token_address: mintOf('blue-chip'), size_usdc: 0.5 })
    expect(body).toMatchObject({ data_quality: 'FULL', sellable: true, bridgeable: false, all_in_cost_pct: null })
  })

  test('the bridge down: PARTIAL within the deadline, bridge_quote missing, the exit still answered', async () => {
    sandbox.faults.set('lifi', '/v1/quote', { kind: 'down' })
    const { status, body, ms } = await crossCheck({ token_address: mintOf('blue-chip'), size_usdc: 12 }, freshApp())
    expect(status).toBe(200)
    expect(body).toMatchObject({
      data_quality: 'PARTIAL',
      missing_fields: ['bridge_quote'],
      sellable: true,
      bridge: null,
    })
    expect(ms).toBeLessThan(manifest.routes.crossCheck.deadlineMs.bridgeAt + 1_000)
  })

  test('bad input: an unknown chain, an address that is not EVM, a size out of bounds', async () => {
    const mint = mintOf('blue-chip')
    expect((await crossCheck({ token_address: mint, home_chain: 'solana' })).status).toBe(400)
    expect((await crossCheck({ token_address: mint, home_address: 'not-an-address' })).status).toBe(400)
    expect((await crossCheck({ token_address: mint, size_usdc: 0 })).status).toBe(400)
    expect((await crossCheck({ token_address: 'BONK' })).body).toMatchObject({ code: 'INVALID_ADDRESS' })
  })
})
