import { afterAll, describe, expect, test } from 'bun:test'
import { CallPacer, providerOf, RPC_PROVIDERS } from './rpc-providers.ts'
import { PACING_MARGIN_MS, SolanaSource } from './solana-rpc.ts'
import { manifest as deepDive } from '../../plugins/deep-dive/manifest.ts'
import { manifest as walletIntel } from '../../plugins/wallet-intel/manifest.ts'
import { MAX_HISTORY_PAGES } from '../facts/history.ts'
import { CallMeter, type UpstreamError } from './upstream.ts'

describe('providerOf', () => {
  test.each([
    ['https://api.mainnet-beta.solana.com', 'public'],
    ['https://mainnet.helius-rpc.com/?api-key=abc123', 'keyed'],
    ['https://example.solana-mainnet.quiknode.pro/0123456789abcdef0123456789abcdef/', 'keyed'],
    ['http://127.0.0.1:8899', 'unlimited'],
    ['http://localhost:8899', 'unlimited'],
    ['https://rpc.example.com', 'public'],
  ])('%s → %s', (url, name) => {
    expect(providerOf(url).name).toBe(name as never)
  })

  test('SOLANA_RPC_PROVIDER wins over the guess', () => {
    expect(providerOf('http://127.0.0.1:8899', 'public')).toBe(RPC_PROVIDERS.public)
  })
})

describe('history depth', () => {
  /**
   * The history calls one deep dive makes at a depth (src/facts): the creation transaction (the mint's
   * oldest signatures, up to MAX_HISTORY_PAGES pages), the main pool's first and newest transactions,
   * the developer's, and each traced wallet's signatures and first transaction (holders and buyers).
   */
  const historyCalls = (depth: (typeof RPC_PROVIDERS)['public']['history']) => ({
    getTransaction:
      1 + depth.firstTransactions + depth.recentTransactions + depth.developerTransactions + 2 * depth.tracedWallets,
    getSignaturesForAddress: 2 * MAX_HISTORY_PAGES + 2 + 2 * depth.tracedWallets,
  })
  /** The deep dive's other RPC calls (mint, pools, vaults, metadata, launchpad, locks, balance): a generous bound. */
  const OTHER_CALLS = 20

  test.each(Object.values(RPC_PROVIDERS).filter((provider) => Number.isFinite(provider.limits.callsPerWindow)))(
    "$name: one deep dive's history fits the provider's limits in all but the last window before its deadline",
    (provider) => {
      const { windowMs, callsPerWindow, callsPerMethodPerWindow } = provider.limits
      // Whole windows before the deadline; the last (partial) one is left for the calls that depend on others.
      const windows = Math.floor(deepDive.routes.scan.deadlineMs / (windowMs + PACING_MARGIN_MS))
      const calls = historyCalls(provider.history)
      expect(calls.getTransaction).toBeLessThanOrEqual(callsPerMethodPerWindow * windows)
      expect(calls.getSignaturesForAddress).toBeLessThanOrEqual(callsPerMethodPerWindow * windows)
      expect(calls.getTransaction + calls.getSignaturesForAddress + OTHER_CALLS).toBeLessThanOrEqual(
        callsPerWindow * windows,
      )
    },
  )

  test.each(Object.values(RPC_PROVIDERS).filter((provider) => Number.isFinite(provider.limits.callsPerWindow)))(
    "$name: one wallet intel's history fits the provider's limits before its deadline",
    (provider) => {
      const { windowMs, callsPerWindow, callsPerMethodPerWindow } = provider.limits
      const windows = Math.max(1, Math.floor(walletIntel.routes.intel.deadlineMs / (windowMs + PACING_MARGIN_MS)))
      const depth = provider.history
      // The wallet's transactions, then per launch read: its creation and the main pool's first transactions.
      const getTransaction = depth.walletTransactions + depth.walletLaunches * (1 + depth.firstTransactions)
      const getSignaturesForAddress = 1 + depth.walletLaunches * (2 * MAX_HISTORY_PAGES + 1)
      expect(getTransaction).toBeLessThanOrEqual(callsPerMethodPerWindow * windows)
      expect(getSignaturesForAddress).toBeLessThanOrEqual(callsPerMethodPerWindow * windows)
      expect(getTransaction + getSignaturesForAddress + OTHER_CALLS).toBeLessThanOrEqual(callsPerWindow * windows)
    },
  )

  test('a dedicated node reads the most history; the public endpoint the least', () => {
    const reads = (name: keyof typeof RPC_PROVIDERS) => historyCalls(RPC_PROVIDERS[name].history).getTransaction
    expect(reads('unlimited')).toBeGreaterThan(reads('keyed'))
    expect(reads('keyed')).toBeGreaterThan(reads('public'))
  })
})

describe('CallPacer', () => {
  const limits = { windowMs: 1_000, callsPerWindow: 5, callsPerMethodPerWindow: 3, maxBatch: 10 }

  test('lets a method through up to its own limit, then says how long to wait', () => {
    const pacer = new CallPacer(limits)
    expect([0, 1, 2, 3].map(() => pacer.tryTake('getAccountInfo', 100))).toEqual([true, true, true, false])
    expect(pacer.waitMs('getAccountInfo', 400)).toBe(700)
    expect(pacer.tryTake('getAccountInfo', 1_101)).toBe(true)
  })

  test('counts every method against the total', () => {
    const pacer = new CallPacer(limits)
    for (const method of ['a', 'a', 'b', 'b', 'c']) expect(pacer.tryTake(method, 0)).toBe(true)
    expect(pacer.tryTake('d', 0)).toBe(false)
    expect(pacer.waitMs('d', 250)).toBe(750)
  })

  test('an unlimited provider never holds a call', () => {
    const pacer = new CallPacer(RPC_PROVIDERS.unlimited.limits)
    for (let i = 0; i < 1_000; i++) expect(pacer.tryTake('getAccountInfo', 0)).toBe(true)
    expect(pacer.drainedInMs(0)).toBe(0)
  })

  test('says when its window holds no call any more', () => {
    const pacer = new CallPacer(limits)
    expect(pacer.drainedInMs(0)).toBe(0)
    pacer.tryTake('a', 100)
    pacer.tryTake('b', 300)
    expect(pacer.drainedInMs(500)).toBe(801)
    expect(pacer.drainedInMs(1_301)).toBe(0)
  })
})

describe('SolanaSource paced to a provider (loopback RPC that answers 429 past its limit)', () => {
  // A JSON-RPC peer allowing 4 calls per 300 ms, as a provider would; it records when each call came.
  const arrivals: number[] = []
  let refused = 0
  const peer = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = (await request.json()) as { id: number }[] | { id: number }
      const calls = Array.isArray(body) ? body : [body]
      const now = Date.now()
      const recent = arrivals.filter((at) => at > now - 300).length
      if (recent + calls.length > 4) {
        refused++
        return new Response('Too many requests', { status: 429 })
      }
      for (const _ of calls) arrivals.push(now)
      const answers = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: { context: { slot: 1 }, value: 0 } }))
      return Response.json(Array.isArray(body) ? answers : answers[0])
    },
  })
  afterAll(() => peer.stop(true))

  test('ten calls at once are sent in windows the provider accepts: none refused, all answered', async () => {
    const provider = {
      ...RPC_PROVIDERS.keyed,
      limits: { windowMs: 350, callsPerWindow: 4, callsPerMethodPerWindow: 4, maxBatch: 10 },
    }
    const source = new SolanaSource({ url: `http://127.0.0.1:${peer.port}`, provider, retries: 0 })
    const rpc = source.rpc(new CallMeter())
    const accounts = Array.from({ length: 10 }, (_, index) => `So1111111111111111111111111111111111111111${index}`)
    const started = Date.now()
    const answers = await Promise.all(accounts.map((account) => rpc.getBalance(account as never).send()))
    expect(answers).toHaveLength(10)
    expect(refused).toBe(0)
    // Three windows: 4 + 4 + 2 calls.
    expect(Date.now() - started).toBeGreaterThanOrEqual(700)
  })

  test("an answered scan's calls still waiting for the window are dropped unsent; one another scan shares is kept", async () => {
    const provider = {
      ...RPC_PROVIDERS.keyed,
      limits: { windowMs: 350, callsPerWindow: 4, callsPerMethodPerWindow: 4, maxBatch: 10 },
    }
    const source = new SolanaSource({ url: `http://127.0.0.1:${peer.port}`, provider, retries: 0 })
    const answered = new CallMeter()
    const other = new CallMeter()
    const accounts = Array.from({ length: 8 }, (_, index) => `So1111111111111111111111111111111111111111${index}`)
    await Bun.sleep(400) // the peer's window clear of the previous test's calls
    const sent = arrivals.length
    const calls = accounts.map((account) =>
      source
        .rpc(answered)
        .getBalance(account as never)
        .send()
        .then(
          () => 'answered',
          (error: UpstreamError) => error.reason,
        ),
    )
    // The other scan asks for the last account too: that call is coalesced, and kept for it.
    const shared = source
      .rpc(other)
      .getBalance(accounts[7] as never)
      .send()
    await Bun.sleep(50)
    answered.close()
    expect(await Promise.all(calls)).toEqual([...Array(4).fill('answered'), ...Array(3).fill('cancelled'), 'answered'])
    expect(Number((await shared).value)).toBe(0)
    expect(arrivals.length - sent).toBe(5)
  })
})

describe('SolanaSource breakers: history reads fail apart from account reads', () => {
  // A peer whose history reads fail (a provider struggling with them) while account reads answer.
  const peer = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = (await request.json()) as { id: number; method: string }[] | { id: number; method: string }
      const calls = Array.isArray(body) ? body : [body]
      if (calls.some((call) => call.method === 'getTransaction')) return new Response('overloaded', { status: 503 })
      const answers = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: { context: { slot: 1 }, value: 0 } }))
      return Response.json(Array.isArray(body) ? answers : answers[0])
    },
  })
  afterAll(() => peer.stop(true))

  test("the history breaker opens; account reads still go through and the source's own breaker stays closed", async () => {
    const source = new SolanaSource({ url: `http://127.0.0.1:${peer.port}`, retries: 0, breakerThreshold: 2 })
    const rpc = source.rpc(new CallMeter())
    const signature = '1'.repeat(88)
    for (let i = 0; i < 3; i++)
      await expect(
        rpc.getTransaction(signature as never, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send(),
      ).rejects.toThrow()
    // The third was refused fast: the history breaker is open.
    await expect(
      rpc.getTransaction(signature as never, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send(),
    ).rejects.toThrow(/circuit_open|consecutive failures/)
    expect((await rpc.getBalance('So11111111111111111111111111111111111111112' as never).send()).value).toBe(
      0n as never,
    )
    expect(source.upstream.breaker).toBe('closed')
    expect(source.upstream.breakerOf('history')).toBe('open')
    expect(source.upstream.health()).toBe('degraded')
  })
})
