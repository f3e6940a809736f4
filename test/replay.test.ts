import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { COMPARED, differences, replayScan } from '../scripts/replay.ts'
import { readCassette } from '../src/sources/tape.ts'
import { tslaxCassette, usdcCassette } from './support/assembled-cassettes.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest } from './support/service.ts'

/**
 * Record and replay (docs/replay.md): RECORD_DIR writes each scan's upstream exchanges as a cassette
 * named by its request id; replaying the cassette (sandbox/replay.ts, npm run replay) runs the same
 * scan offline and gives the same answer, asking for nothing the recorded scan did not.
 */
const { mintOf, freshApp } = await scannerService()
const dir = mkdtempSync(join(tmpdir(), 'cassettes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const recording = freshApp({ RECORD_DIR: dir })

async function recordScan(path: string, scenario: string) {
  const response = await recording.handle(scanRequest(path, { token_address: mintOf(scenario) }))
  expect(response.status).toBe(200)
  const id = response.headers.get('x-request-id')!
  return { answer: (await response.json()) as Record<string, unknown>, cassette: readCassette(join(dir, `${id}.json`)) }
}

describe('RECORD_DIR', () => {
  test.each([
    ['/scan/quick', 'blue-chip'],
    ['/market/intel', 'wash-traded'],
    ['/scan/deep', 'sniped-launch'],
  ])(
    '%s of %s: recorded as a cassette named by the request id; its replay answers the same',
    async (path, scenario) => {
      const { answer, cassette } = await recordScan(path, scenario)
      expect(cassette.route).toBe(`POST ${path}`)
      expect(cassette.body).toEqual({ token_address: mintOf(scenario) })
      expect(cassette.answer).toEqual(answer)
      const sources = new Set(cassette.exchanges.map((exchange) => exchange.source))
      expect([...sources]).toEqual(expect.arrayContaining(['solana_rpc', 'dexscreener']))
      for (const exchange of cassette.exchanges) expect(exchange.ms).toBeGreaterThanOrEqual(0)

      const replayed = await replayScan(cassette)
      expect(replayed.status).toBe(200)
      expect(replayed.misses).toEqual([])
      expect(differences(cassette.answer, replayed.answer)).toEqual([])
      // The comparison is not vacuous: the answer carries the compared members.
      expect(COMPARED.filter((key) => key in replayed.answer).length).toBeGreaterThanOrEqual(3)
    },
  )

  test('a scan served from the cache another scan filled is recorded whole', async () => {
    const first = await recordScan('/scan/quick', 'clmm-pool')
    const second = await recordScan('/scan/quick', 'clmm-pool')
    expect(second.cassette.request_id).not.toBe(first.cassette.request_id)
    expect(second.cassette.exchanges.length).toBe(first.cassette.exchanges.length)
    expect((await replayScan(second.cassette)).misses).toEqual([])
  })

  test('without RECORD_DIR nothing is written', async () => {
    const before = readdirSync(dir).length
    await freshApp().handle(scanRequest('/scan/quick', { token_address: mintOf('blue-chip') }))
    expect(readdirSync(dir).length).toBe(before)
  })
})

describe('real tokens replayed in the mainnet profile on the public RPC (cassettes assembled from recorded answers)', () => {
  const scan = (cassette: ReturnType<typeof usdcCassette>, route: string) => replayScan({ ...cassette, route })

  test('USDC quick scan: authority_exempt, grade A or B, not LIMITED, holders from the token list', async () => {
    const { status, answer, misses } = await scan(usdcCassette(), 'POST /scan/quick')
    expect(status).toBe(200)
    expect(answer.authority_exempt).toBe(true)
    expect(['A', 'B']).toContain(answer.structural_risk_grade as string)
    expect(answer.data_quality).not.toBe('LIMITED')
    expect(answer.holders_source).toBe('token_list')
    const codes = (answer.factors as { code: string }[]).map((factor) => factor.code)
    expect(codes).toEqual(
      expect.arrayContaining(['AUTHORITY_EXEMPT', 'MINT_AUTHORITY_LIVE_EXEMPT', 'FREEZE_AUTHORITY_LIVE_EXEMPT']),
    )
    // Only the accounts no public source recorded are missing (the metadata and launchpad PDAs).
    expect(misses.every((miss) => miss.startsWith('getMultipleAccounts'))).toBe(true)
  })

  test('USDC market intel: priced ≈ 1 from its side of the SOL/USDC pair, with its own 24 h change', async () => {
    const { answer } = await scan(usdcCassette(), 'POST /market/intel')
    expect(answer.current_price_usd as number).toBeCloseTo(1, 3)
    // Jupiter's own figure for USDC (+0.0029 %), not the pair's (SOL's +1.95 %).
    expect(answer.price_change_24h_pct).toBeCloseTo(0.0029, 4)
    expect(answer.missing_fields).not.toContain('price_change_24h_pct')
    expect(answer.data_quality).not.toBe('LIMITED')
  })

  test('USDC deep dive: exempt and not AVOID (its history is beyond what the cassette holds: DYOR)', async () => {
    const { answer } = await scan(usdcCassette(), 'POST /scan/deep')
    expect(answer.authority_exempt).toBe(true)
    expect((answer.recommendation as { action: string }).action).not.toBe('AVOID')
    expect(['A', 'B']).toContain(answer.risk_grade as string)
  })

  test('TSLAx (Token-2022: permanent delegate, pausable, scaled UI): exempt, its controls listed, not F', async () => {
    for (const route of ['POST /scan/quick', 'POST /scan/deep']) {
      const { answer } = await scan(tslaxCassette(), route)
      expect(answer.authority_exempt).toBe(true)
      expect(answer.structural_risk_grade ?? answer.risk_grade).not.toBe('F')
      expect((answer.factors as { code: string }[]).map((factor) => factor.code)).toContain('ISSUER_CONTROLS')
    }
  })
})

describe("an established pump.fun coin whose creation cannot be read (the mint's history beyond the pages walked)", () => {
  test('the deep dive still answers for its developer, from the creator the bonding curve records', async () => {
    const { answer, cassette } = await recordScan('/scan/deep', 'pump-bonding')
    const recorded = answer.dev_wallet_analysis as { address: string; address_source: string }
    expect(recorded.address_source).toBe('creation')
    // The same scan, on an RPC that cannot give the mint's history: its signature pages are not there.
    const mint = mintOf('pump-bonding')
    const withoutHistory = {
      ...cassette,
      exchanges: cassette.exchanges.filter(
        (exchange) =>
          !(
            exchange.source === 'solana_rpc' &&
            exchange.request.method === 'getSignaturesForAddress' &&
            (exchange.request.params as unknown[])[0] === mint
          ),
      ),
    }
    const { answer: replayed, misses } = await replayScan(withoutHistory)
    expect(misses.some((miss) => miss.startsWith(`getSignaturesForAddress ["${mint}"`))).toBe(true)
    // The curve's creator is the wallet that created the mint: the same developer, said to come from the curve.
    expect(replayed.dev_wallet_analysis).toMatchObject({ address: recorded.address, address_source: 'launchpad' })
    expect(replayed.missing_fields).toContain('launch')
    expect(replayed.missing_fields).not.toContain('dev_history')
  })
})
