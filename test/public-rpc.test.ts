import { describe, expect, test } from 'bun:test'
import { manifest as deepDive } from '../plugins/deep-dive/manifest.ts'
import { manifest as marketIntel } from '../plugins/market-intel/manifest.ts'
import { manifest as quickScan } from '../plugins/quick-scan/manifest.ts'
import { USDC_MINT_ADDRESS } from '../src/onchain/programs.ts'
import { RPC_PROVIDERS } from '../src/sources/rpc-providers.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest, waivedService } from './support/service.ts'

/**
 * The scanners on Solana's public endpoint (SANDBOX_RPC_PROFILE=public): getTokenLargestAccounts and
 * getProgramAccounts on the token programs refused with -32010, 100 calls / 40 per method per 10 s.
 * The service is told SOLANA_RPC_PROVIDER=public and paces itself; holders come from the token list.
 * Last, the keyed profile (the lowest keyed plan's 10 requests per second, every method served).
 */
const { sandbox, app, post, mintOf } = await scannerService({ rpcProfile: 'public' })

describe('quick scan on the public RPC profile', () => {
  test('a listed token is not LIMITED: holders from the token list, named as the source', async () => {
    const { status, body, errors } = await post('/scan/quick', mintOf('blue-chip'))
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.missing_fields).not.toContain('holders')
    expect(body.data_quality).not.toBe('LIMITED')
    expect(body.holders_source).toBe('token_list')
    expect(typeof body.top_10_holder_pct).toBe('number')
  })

  test('every scenario answers 200 in the spec shape; none trips the provider', async () => {
    for (const scenario of sandbox.file.scenarios) {
      const { status, errors } = await post('/scan/quick', scenario.mint)
      expect({ scenario: scenario.name, status, errors }).toEqual({ scenario: scenario.name, status: 200, errors: [] })
    }
    // Paced to the provider's limits: the endpoint never had to refuse a request.
    expect(sandbox.rpcProfile.throttled).toBe(0)
  })
})

describe('what the service learns of the public RPC', () => {
  test('the start-up probe finds getTokenLargestAccounts refused', async () => {
    const source = new SolanaSource({ url: sandbox.file.urls.rpc, provider: RPC_PROVIDERS.public })
    expect(await source.probe(USDC_MINT_ADDRESS)).toBe('refused')
    expect(source.refuses('getTokenLargestAccounts')).toBe(true)
  })

  test('/health names the provider, the refused method and where holders come from', async () => {
    await post('/scan/quick', mintOf('blue-chip'))
    const response = await app.handle(new Request('http://localhost/health'))
    expect(((await response.json()) as { rpc: unknown }).rpc).toEqual({
      provider: 'public',
      refused: ['getTokenLargestAccounts'],
      holders_source: 'token_list',
    })
  })
})

describe('deep dives on the public RPC profile', () => {
  test('a burst of deep dives degrades within its deadline; a quick scan meanwhile is answered in full and in time', async () => {
    // One service, one pacer: the sandbox counts calls per client address, as the real endpoint does.
    const service = app
    // The burst starts on an empty window: what the tests before it spent does not count against it.
    await Bun.sleep(sandbox.rpcProfile.drainedInMs())
    const started = Date.now()
    const dives = ['blue-chip', 'wash-traded', 'sniped-launch'].map((name) =>
      post('/scan/deep', mintOf(name), service).then((answer) => ({ ...answer, ms: Date.now() - started })),
    )
    await Bun.sleep(100)
    const quickStarted = Date.now()
    const quick = await post('/scan/quick', mintOf('usdc-stablecoin'), service)
    const quickMs = Date.now() - quickStarted
    expect(quick.status).toBe(200)
    expect(quick.errors).toEqual([])
    // The history fan-out has a breaker and a budget of its own: the account reads still go through.
    expect(quick.body.missing_fields).toEqual([])
    expect(quickMs).toBeLessThan(quickScan.routes.scan.deadlineMs + 500)
    for (const dive of await Promise.all(dives)) {
      expect(dive.status).toBe(200)
      expect(dive.errors).toEqual([])
      expect(dive.ms).toBeLessThan(deepDive.routes.scan.deadlineMs + 1_000)
    }
    expect(sandbox.rpcProfile.throttled).toBe(0)
  }, 60_000)

  test('one deep dive alone reads its history within the deadline: nothing missing but what the endpoint refuses', async () => {
    // Right after the burst: the burst's calls still waiting for a window were dropped when it answered.
    const { status, body, errors } = await post('/scan/deep', mintOf('bundled-launch'))
    expect(status).toBe(200)
    expect(errors).toEqual([])
    // Who holds the LP needs getTokenLargestAccounts on the LP mint, which the endpoint refuses.
    expect(body.missing_fields).toEqual(['lp_locks'])
  }, 60_000)
})

describe('market intel on the public RPC profile', () => {
  test('answers within its deadline with the market read, pacing its trade reads to the provider', async () => {
    const started = Date.now()
    const answers = await Promise.all(
      ['wash-traded', 'blue-chip', 'usdc-stablecoin'].map((name) =>
        post('/market/intel', mintOf(name)).then((answer) => ({ ...answer, ms: Date.now() - started })),
      ),
    )
    for (const { status, body, errors, ms } of answers) {
      expect(status).toBe(200)
      expect(errors).toEqual([])
      expect(body.missing_fields).not.toContain('market')
      expect(ms).toBeLessThan(marketIntel.routes.intel.deadlineMs + 1_000)
    }
    expect(sandbox.rpcProfile.throttled).toBe(0)
  }, 60_000)
})

describe('the keyed RPC profile (SANDBOX_RPC_PROFILE=keyed: every method served, 10 requests per second)', () => {
  test('a deep dive paced to it reads holders on chain and answers within its deadline, never throttled', async () => {
    const keyed = await startSandbox(ephemeralSandboxOptions({ rpcProfile: 'keyed' }))
    try {
      expect(keyed.serviceSettings.SOLANA_RPC_PROVIDER).toBe('keyed')
      const service = waivedService(keyed.serviceSettings)
      const mint = keyed.file.scenarios.find((scenario) => scenario.name === 'sniped-launch')!.mint
      const started = Date.now()
      const response = await service.handle(scanRequest('/scan/deep', { token_address: mint }))
      const body = (await response.json()) as { holders_source: string; missing_fields: string[] }
      expect(response.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(deepDive.routes.scan.deadlineMs + 1_000)
      expect(body.holders_source).toBe('rpc')
      expect(body.missing_fields).toEqual([])
      expect(keyed.rpcProfile.throttled).toBe(0)
    } finally {
      await keyed.stop()
    }
  }, 60_000)
})
