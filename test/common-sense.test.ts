import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { BUILTIN_SIGNALS } from '../signals/index.ts'
import type { TokenContext } from '../src/facts/token-context.ts'
import type { Facts, FactName, LpLocksFact, PoolFact, SwapRecord } from '../src/facts/types.ts'
import { DAY, MINT, NOW, POOL, poolFact } from './support/facts/index.ts'
import { SignalRegistry } from '../src/pipeline/registry.ts'
import { runScan } from '../src/pipeline/scan.ts'
import { gradeOf, scoreOf } from '../src/pipeline/grade.ts'
import { recommend, type RecommendationInput } from '../plugins/deep-dive/recommendation.ts'
import { APPETITES, type Battery, citedFactors, decide } from '../plugins/trade-suggest/rules.ts'
import { SCANNER_IDS, type Factor } from '../src/pipeline/signal.ts'
import { address } from '@solana/kit'
import { demoPayer } from '../sandbox/demo-client.ts'
import type { ErrorCode } from '../src/kernel/errors.ts'
import { type RegisteredRoute, routeErrors } from '../src/kernel/manifest.ts'
import { encodeBase58 } from '../src/onchain/base58.ts'
import { findMetadataAddress } from '../src/onchain/metaplex-metadata.ts'
import { TOKEN_PROGRAM_ADDRESS } from '../src/onchain/programs.ts'
import { type Sent, send } from './support/app.ts'
import { liveService } from './support/live.ts'
import { scanRequest, waivedService } from './support/service.ts'
import { CLEAN_BATTERY } from './support/battery.ts'
import { ledgerKeyOf, paymentHeader, usdcOf } from './support/x402.ts'

// Common sense as a test suite (issue 28): a verdict a trader would laugh at is a bug. Properties over
// every scenario and every token-scoped route — what is no token is refused and never charged; no
// answer carries two findings that cannot stand together; a riskier token never gets a better grade or
// action; a token capped by a finding is never CONSIDERed or sized; an exit that loses most of the
// money is not "clean". Add to it whenever a route appears.

const registry = new SignalRegistry(BUILTIN_SIGNALS)
// The whole service on the sandbox with real payments (refusals must cost nothing), and the same
// sandbox behind a service with payment waived, for the verdicts of every scenario.
const { sandbox, service, ctx, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const waived = waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' })
const { x402: offers } = sandbox.file
const mint = mintOf('blue-chip')
const { client } = await demoPayer(sandbox.file, 'solana')

/** A token-scoped route's answer with payment waived. */
async function scan(path: string, token: string, extra: Record<string, unknown> = {}) {
  const response = await waived.handle(scanRequest(path, { token_address: token, ...extra }))
  return { status: response.status, body: (await response.json()) as any }
}
const named = (pairs: readonly (readonly [string, string])[]) => pairs.map((pair) => pair.join(' with '))
const lpFindings = (factors: Factor[]) =>
  factors.filter((entry) => entry.signal === 'lp-status' && entry.code !== 'UNKNOWN').map((entry) => entry.code)

/** The answer of one in-process call (the front door, as over HTTP). */
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  send(service, 'POST', path, { json, headers })

/**
 * A paid call refused after its payment was admitted: the 402 challenge first (the check reads nothing
 * before payment), then the demo buyer's payment, the refusal, and the payment released, never settled.
 */
async function refusedWhenPaid(path: string, body: unknown): Promise<Sent> {
  const challenged = await post(path, body)
  expect(challenged.status).toBe(402)
  const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
  const refused = await post(path, body, { 'payment-signature': header })
  expect(refused.headers.get('payment-response')).toBeNull()
  expect(await ctx.store.ledger.get(ledgerKeyOf(header))).toMatchObject({ state: 'cancelled' })
  return refused
}

const { buyer, usdc_mint: usdc } = sandbox.file
const buyerUsdcAccount = await sandbox.world.ata(usdc, buyer.address)
const [metadata] = await findMetadataAddress(address(mint))

describe('what is no token is refused on every token-scoped route, and never charged (part 1)', () => {
  // Each is refused with its status and code, and a message saying what the address is.
  const NOT_TOKENS = [
    {
      what: 'a wallet (the demo buyer)',
      address: buyer.address,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'is a wallet',
    },
    {
      what: 'an address with no account',
      address: encodeBase58(crypto.getRandomValues(new Uint8Array(32))),
      status: 404,
      code: 'TOKEN_NOT_FOUND',
      says: 'no account exists',
    },
    {
      what: "a token account (the buyer's USDC): its mint named",
      address: buyerUsdcAccount,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: `is a token account of mint ${usdc}`,
    },
    {
      what: 'a program (SPL Token)',
      address: TOKEN_PROGRAM_ADDRESS,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'is the SPL Token program',
    },
    {
      what: "another program's account (a token's metadata): its program named",
      address: metadata,
      status: 422,
      code: 'NOT_A_TOKEN_MINT',
      says: 'an account of the Metaplex Token Metadata program',
    },
  ]
  const tokenRoutes = service.registry
    .routes()
    .filter((route) => Object.values(route.accounts ?? {}).includes('token_mint'))
  /** A valid body of `route` with `field` holding `address` (the quote's other members filled in). */
  const bodyOf = (route: RegisteredRoute, field: string, address: string) =>
    route.path === '/trade/quote'
      ? { input_mint: usdc, output_mint: mint, amount_in: '1000000', user_public_key: buyer.address, [field]: address }
      : route.path === '/watch'
        ? { hours: 1, [field]: address }
        : { [field]: address }
  /** A watch is priced from its checked request: what is no token is refused before any challenge. */
  const refusedUnchallenged = async (path: string, body: unknown) => {
    const refused = await post(path, body)
    expect(refused.headers.get('payment-required')).toBeNull()
    return refused
  }
  const treasury = () => usdcOf(sandbox, offers.solana.pay_to)

  test('every token-scoped route declares the mint it is given (served on the sandbox, its refusals in /openapi.json and /llm.txt)', async () => {
    expect(tokenRoutes.map((route) => route.key).sort()).toEqual(
      [
        'POST /scan/quick',
        'POST /market/intel',
        'POST /scan/deep',
        'POST /exit/check',
        'POST /exit/cross-check',
        'POST /news/pulse',
        'POST /news/brief',
        'POST /news/pulse_plus',
        'POST /news/report',
        'POST /trade/quote',
        'POST /launch/radar',
        'POST /graduation/radar',
        'POST /graduation/momentum',
        'POST /scan/smart-money',
        'POST /signal/radar',
        'POST /scan/trending',
        'POST /watch',
      ].sort(),
    )
    // A route taking a token under a name of these, and not declaring it, would answer a wallet as a token.
    const undeclared = service.registry.routes().flatMap((route) =>
      Object.keys((route.body as { properties?: object } | undefined)?.properties ?? {})
        .filter((member) => /^(token_address|\w+_mint|symbol)$/.test(member) && !route.accounts?.[member])
        .map((member) => `${route.key} ${member}`),
    )
    expect(undeclared).toEqual([])
    // /openapi.json and /llm.txt list the refusals of each.
    const openapi = (await send(service, 'GET', '/openapi.json')).json
    const llm = (await send(service, 'GET', '/llm.txt')).text
    for (const route of [...tokenRoutes, service.registry.route('POST', '/wallet/intel')!]) {
      const responses = openapi.paths[route.path].post.responses
      const codes =
        route.path === '/wallet/intel' ? ['422 NOT_A_WALLET'] : ['404 TOKEN_NOT_FOUND', '422 NOT_A_TOKEN_MINT']
      for (const entry of codes) {
        const [status, code] = entry.split(' ') as [string, ErrorCode]
        expect(routeErrors(route)).toContain(code)
        expect(JSON.stringify(responses[status])).toContain(code)
      }
      const errorsLine = llm
        .slice(llm.indexOf(`### ${route.key} (`))
        .split('\n')
        .find((line) => line.startsWith('Errors:'))
      for (const entry of codes) expect(errorsLine).toContain(entry)
    }
  })

  for (const route of tokenRoutes)
    test(`${route.key}: a wallet, no account, a token account, a program, a program's account — each refused${route.price === 'free' ? '' : ', its payment released'}`, async () => {
      const before = [await treasury(), await usdcOf(sandbox, buyer.address)]
      for (const field of Object.keys(route.accounts!))
        for (const { address, status, code, says } of NOT_TOKENS) {
          const body = bodyOf(route, field, address)
          const refused =
            route.price === 'free'
              ? await post(route.path, body)
              : route.path === '/watch'
                ? await refusedUnchallenged(route.path, body)
                : await refusedWhenPaid(route.path, body)
          expect(`${refused.status} ${refused.json?.code}`).toBe(`${status} ${code}`)
          expect(refused.json.message).toContain(address)
          expect(refused.json.message).toContain(says)
          expect(refused.json).toMatchObject({ error: true, field })
          // A token account's refusal names the mint to send instead, and the wallet holding it.
          if (address === buyerUsdcAccount) expect(refused.json).toMatchObject({ mint: usdc, wallet: buyer.address })
        }
      // Nothing moved on chain: the treasury and the buyer hold what they held.
      expect([await treasury(), await usdcOf(sandbox, buyer.address)]).toEqual(before)
    })

  test('POST /wallet/intel refuses a mint, a token account and a program the other way round (422 NOT_A_WALLET), never charged', async () => {
    const before = await treasury()
    const cases = [
      { address: mintOf('dead-token'), says: 'is a token mint, not a wallet: scan it with POST /scan/quick' },
      { address: NOT_TOKENS[2]!.address, says: `its wallet is ${buyer.address}` },
      { address: TOKEN_PROGRAM_ADDRESS, says: 'is the SPL Token program, not a wallet' },
    ]
    for (const { address, says } of cases) {
      const refused = await refusedWhenPaid('/wallet/intel', { wallet_address: address })
      expect(refused.status).toBe(422)
      expect(refused.json).toMatchObject({ error: true, code: 'NOT_A_WALLET', field: 'wallet_address' })
      expect(refused.json.message).toContain(says)
    }
    expect(await treasury()).toBe(before)
  })

  test("a paid quick scan reads the mint's account once: the check and the mint fact share the read", async () => {
    const token = mintOf('locked-lp')
    const reads: unknown[] = []
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input) === sandbox.file.urls.rpc && typeof init?.body === 'string') {
        const calls = [JSON.parse(init.body)].flat() as { method: string; params: unknown[] }[]
        reads.push(...calls.filter((call) => call.method === 'getAccountInfo' && call.params[0] === token))
      }
      return realFetch(input, init)
    }) as typeof fetch
    try {
      const challenged = await post('/scan/quick', { token_address: token })
      expect(reads).toHaveLength(0)
      const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
      const paid = await post('/scan/quick', { token_address: token }, { 'payment-signature': header })
      expect(paid.status).toBe(200)
      expect(paid.json).toMatchObject({ token_address: token, missing_fields: [] })
      expect(reads).toHaveLength(1)
    } finally {
      globalThis.fetch = realFetch
    }
  })
  test('POST /scan/quick/batch: each address that is no token is an item error in the single route’s words, never graded, never charged', async () => {
    const body = { token_addresses: [...NOT_TOKENS.map((entry) => entry.address), mint] }
    const challenged = await post('/scan/quick/batch', body)
    // Only the mint is priced: the others were read before the challenge and are free.
    const required = JSON.parse(Buffer.from(challenged.headers.get('payment-required')!, 'base64').toString())
    expect(required.accepts.map((offer: { amount: string }) => offer.amount)).toEqual(
      required.accepts.map(() => '15000'),
    )
    const before = await treasury()
    const header = await paymentHeader(client, challenged.headers.get('payment-required')!)
    const paid = await post('/scan/quick/batch', body, { 'payment-signature': header })
    expect(paid.status).toBe(200)
    expect(await treasury()).toBe(before + 15_000n)
    for (const [index, { address, code, says }] of NOT_TOKENS.entries()) {
      const item = paid.json.results[index]
      expect(item).toMatchObject({ token_address: address, ok: false, error: { code, charged: false } })
      expect(item.error.message).toContain(says)
      expect(item.scan).toBeUndefined()
    }
    expect(paid.json.results.at(-1)).toMatchObject({ token_address: mint, ok: true })
    expect(paid.json.charged).toMatchObject({ units: 1, total_usd: '0.015' })
  })

  test('POST /scan/quick/batch: 50 mints answer as 50 single quick scans would, item for item', async () => {
    const authority = await sandbox.world.wallet('common-sense:batch', 5)
    const mints = sandbox.file.scenarios.map((scenario) => scenario.mint)
    while (mints.length < 50) {
      const made = await sandbox.world.createMint(
        {
          key: `common-sense:batch:${mints.length}`,
          name: 'Bare',
          symbol: 'BARE',
          decimals: 6,
          mintAuthority: authority,
        },
        authority,
      )
      await sandbox.world.mintTo(made, authority.address, 1_000n, authority)
      mints.push(made)
    }
    const response = await waived.handle(scanRequest('/scan/quick/batch', { token_addresses: mints }))
    expect(response.status).toBe(200)
    const batch = (await response.json()) as any
    expect(batch.answered).toBe(50)
    for (const [index, token] of mints.entries()) {
      const single = await scan('/scan/quick', token)
      expect(single.status).toBe(200)
      expect(batch.results[index]).toEqual({ token_address: token, ok: true, scan: single.body })
    }
  })
})

test('the built-in signals declare exclusions (the properties below have something to prove)', () => {
  expect(registry.exclusions().length).toBeGreaterThan(0)
})

describe('every sandbox scenario, quick scan and deep dive', () => {
  for (const scenario of sandbox.file.scenarios)
    test(`${scenario.name}: no excluded pair, one LP finding, the same LP reading in both scanners`, async () => {
      const quick = (await scan('/scan/quick', scenario.mint)).body
      const deep = (await scan('/scan/deep', scenario.mint)).body
      expect(named(registry.conflicts(quick.factors))).toEqual([])
      expect(named(registry.conflicts(deep.factors))).toEqual([])
      expect(lpFindings(quick.factors).length).toBeLessThanOrEqual(1)
      expect(lpFindings(deep.factors)).toEqual(lpFindings(quick.factors))

      expect({ model: deep.lp_model, burned: deep.lp_burned }).toEqual({
        model: quick.lp_model,
        burned: quick.lp_burned,
      })
      expect(deep.lp_status).toBe(quick.lp_status === 'CUSTODIAL' ? 'NOT_APPLICABLE' : quick.lp_status)
      const lock = deep.liquidity_lock_status
      if (lock) {
        // The deep dive's members are the quick scan's, a lock that could not be dated aside (0 there,
        // named in missing_fields; null in the quick scan).
        const undated = deep.missing_fields.includes('lock_duration_days')
        expect(quick.liquidity_lock_status).toEqual({
          ...lock,
          lock_duration_days: undated ? null : lock.lock_duration_days,
        })
        // The report's sentence comes from the same members: no "not read" beside a read duration.
        if (lock.locked && !undated) expect(deep.full_risk_report).not.toMatch(/duration (not read|not measured)/)
      } else expect(quick.liquidity_lock_status.locked).toBeNull()
    })
})

// Facts the LP and wash signals read, in every combination fast-check finds, weighted so each of
// their findings comes up; the facts the other signals need are whole or missing (a partial fact
// would make them throw, not judge). The test checks the weighting reaches every finding it guards.
const SECOND = 'Second111111111111111111111111111111111111'
const LP_MINT = 'LpMint111111111111111111111111111111111111'

/** A traditional pool's LP with `burnedPct` of it burned. */
const lpOf = (burnedPct: number): NonNullable<PoolFact['lp']> => ({
  mint: LP_MINT,
  minted: 1_000_000n,
  supply: BigInt(Math.round(1_000_000 * (1 - burnedPct / 100))),
  burnedPct: Math.round(burnedPct * 100) / 100,
})

/** A percentage, often at the edges the thresholds sit on. */
const pctArbitrary = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(0, 5, 49.99, 50, 94.99, 95, 100))

const poolArbitrary = (address: string) =>
  fc.oneof(
    { weight: 6, arbitrary: pctArbitrary.map((burned) => poolFact({ address, lp: lpOf(burned) })) },
    { weight: 1, arbitrary: fc.constant(poolFact({ address, model: 'CLMM_DLMM', venue: 'Orca Whirlpool' })) },
    { weight: 1, arbitrary: fc.constant(poolFact({ address, lp: null })) },
  )

/** Days until a time lock releases: in each of the LP finding's bands, or not dated. */
const inDaysArbitrary = fc.oneof(
  fc.double({ min: 0, max: 30, noNaN: true }),
  fc.double({ min: 30, max: 90, noNaN: true }),
  fc.double({ min: 90, max: 365, noNaN: true }),
  fc.double({ min: 365, max: 800, noNaN: true }),
  { weight: 2, arbitrary: fc.constant(null) },
)

/**
 * Who holds a pool's LP: any mix adding up to at most 100 (burned, permanent locks, time locks, the
 * largest wallet), nearly all of it in time locks (what decides the LP finding's severity), or most of
 * it in one wallet.
 */
const holdersArbitrary = (pool: string) =>
  fc
    .oneof(
      fc.record({
        burnedPct: pctArbitrary,
        permanent: pctArbitrary,
        unlocks: fc.array(fc.record({ inDays: inDaysArbitrary, pct: pctArbitrary }), { maxLength: 3 }),
        largest: pctArbitrary,
      }),
      {
        weight: 3,
        arbitrary: fc.record({
          burnedPct: fc.integer({ min: 0, max: 5 }),
          permanent: fc.constant(0),
          unlocks: fc.array(fc.record({ inDays: inDaysArbitrary, pct: fc.constantFrom(100, 60, 3) }), {
            minLength: 1,
            maxLength: 2,
          }),
          largest: fc.constant(0),
        }),
      },
      fc.record({
        burnedPct: fc.integer({ min: 0, max: 40 }),
        permanent: fc.constant(0),
        unlocks: fc.constant([]),
        largest: fc.integer({ min: 40, max: 100 }),
      }),
    )
    .map(({ burnedPct, permanent, unlocks, largest }): LpLocksFact['pools'][number] => {
      let room = 100 - burnedPct
      const take = (pct: number) => {
        const taken = Math.min(pct, room)
        room -= taken
        return taken
      }
      const permanentLockedPct = take(permanent)
      const timed = unlocks
        .map((unlock) => ({ inDays: unlock.inDays, pct: take(unlock.pct), program: 'jupiter_lock' as const }))
        .sort((a, b) => (a.inDays ?? Number.POSITIVE_INFINITY) - (b.inDays ?? Number.POSITIVE_INFINITY))
      return {
        pool,
        lpMint: LP_MINT,
        burnedPct,
        lockedPct: permanentLockedPct + timed.reduce((sum, unlock) => sum + unlock.pct, 0),
        permanentLockedPct,
        largestHolderPct: take(largest),
        unlocks: timed,
        holders: [],
      }
    })

const swap = (wallet: string, side: 'buy' | 'sell', ago: number, quote: bigint): SwapRecord => ({
  signature: `${wallet}-${side}-${ago}-${quote}`,
  slot: BigInt(NOW - ago),
  blockTime: NOW - ago,
  side,
  wallet,
  tokenAmount: 1_000n,
  quoteMint: 'So11111111111111111111111111111111111111112',
  quoteAmount: quote,
})

/** Round trips of one or two churners: `cycles` of them, sold back at `back` or more of the buy, within `gap` seconds. */
const churnArbitrary = (cycles: { minLength: number; maxLength: number }, back: number, gap: number) =>
  fc.array(
    fc.record({
      wallet: fc.constantFrom('c1', 'c2'),
      ago: fc.integer({ min: 7_200, max: DAY - 1 }),
      gap: fc.integer({ min: 30, max: gap }),
      quote: fc.integer({ min: 1_000, max: 10_000 }),
      back: fc.double({ min: back, max: 1, noNaN: true }),
    }),
    cycles,
  )

/** Independent traders among `wallets`, trading up to `quote`. */
const organicArbitrary = (wallets: string[], maxLength: number, quote: number) =>
  fc.array(
    fc.record({
      wallet: fc.constantFrom(...wallets),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      ago: fc.integer({ min: 0, max: DAY - 1 }),
      quote: fc.integer({ min: 100, max: quote }),
    }),
    { maxLength },
  )
const TRADERS = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8', 'o9', 'o10', 'o11', 'o12']

/**
 * A day of swaps: independent traders, plus churners buying and selling back (legs of about the same
 * size, minutes to hours apart), from none to nearly all of the volume — wash scores from 0 to 100.
 */
const swapsArbitrary = fc
  .oneof(
    // Mostly independent traders, a churner or two at times.
    fc.record({
      organic: organicArbitrary(TRADERS, 20, 10_000),
      churn: churnArbitrary({ minLength: 0, maxLength: 20 }, 0.75, 5_400),
    }),
    // Churners beside a crowd of one-trade wallets: most of the volume, not all of it.
    fc.record({
      organic: organicArbitrary(TRADERS, 12, 10_000),
      churn: churnArbitrary({ minLength: 4, maxLength: 12 }, 0.85, 3_000),
    }),
    // An operator churning nearly all the volume.
    fc.record({
      organic: organicArbitrary(['o1', 'o2'], 3, 1_000),
      churn: churnArbitrary({ minLength: 8, maxLength: 25 }, 0.85, 3_000),
    }),
  )
  .map(({ organic, churn }) => [
    ...organic.map((entry) => swap(entry.wallet, entry.side, entry.ago, BigInt(entry.quote))),
    ...churn.flatMap((entry) => [
      swap(entry.wallet, 'buy', entry.ago, BigInt(entry.quote)),
      swap(entry.wallet, 'sell', entry.ago - entry.gap, BigInt(Math.round(entry.quote * entry.back))),
    ]),
  ])

const factsArbitrary = fc
  .record({
    pools: fc.oneof(
      { weight: 5, arbitrary: fc.tuple(poolArbitrary(POOL)) },
      { weight: 2, arbitrary: fc.tuple(poolArbitrary(POOL), poolArbitrary(SECOND)) },
      { weight: 1, arbitrary: fc.constant([] as PoolFact[]) },
    ),
    locks: fc.constantFrom('read', 'read', 'read', 'missing', 'other-pool-only'),
    mainHolders: holdersArbitrary(POOL),
    secondHolders: holdersArbitrary(SECOND),
    curve: fc.constantFrom('none', 'active', 'complete', 'missing'),
    swaps: swapsArbitrary,
    linked: fc.boolean(),
  })
  .map(({ pools, locks, mainHolders, secondHolders, curve, swaps, linked }): Partial<Facts> => {
    const facts: Partial<Facts> = { pools: { pools: [...pools] }, market: { pairs: [] } }
    if (locks !== 'missing')
      facts.lp_locks = { pools: locks === 'read' ? [mainHolders, secondHolders] : [secondHolders] }
    if (curve !== 'missing')
      facts.launchpad = {
        pumpFun:
          curve === 'none'
            ? null
            : {
                bondingCurve: 'Curve1111111111111111111111111111111111111',
                complete: curve === 'complete',
                realQuoteReserves: 1_000_000_000n,
                creator: null,
                graduatedPool: null,
              },
      }
    facts.trades = { pool: pools[0]?.address ?? null, swaps, coveredSince: null, complete24h: true }
    if (linked) {
      facts.funding = { wallets: [] }
      facts.launch = {
        creationSignature: 'creation',
        creator: 'dev',
        createdSlot: 1n,
        createdAt: NOW - 10 * DAY,
        mainPool: pools[0]?.address ?? null,
        poolOpenedSlot: null,
        firstTrades: [],
        firstTradesComplete: true,
      }
    }
    return facts
  })

/** A token context over fixed facts (absent = missing), as the pipeline reads one. */
function contextOf(facts: Partial<Facts>): TokenContext {
  return {
    mint: MINT,
    gather: async () => {},
    fact: async (name: FactName) => facts[name],
    missing: () => [],
  } as unknown as TokenContext
}

describe('generated facts, every scanner', () => {
  test('no answer carries both findings of an excluded pair; the LP is one finding at most', async () => {
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(factsArbitrary, async (facts) => {
        for (const scanner of SCANNER_IDS) {
          const scan = await runScan(contextOf(facts), registry, { scanner, facts: { core: [], optional: [] } }, NOW)
          for (const entry of scan.factors) seen.add(`${entry.signal}/${entry.code}`)
          expect(scan.factors.filter((entry) => entry.code === 'SIGNAL_ERROR')).toEqual([])
          expect(named(registry.conflicts(scan.factors))).toEqual([])
          expect(lpFindings(scan.factors).length).toBeLessThanOrEqual(1)
        }
      }),
      { numRuns: 1_000 },
    )
    // The generated facts reach every finding of the LP and wash pairs: the property could fail.
    const covered = registry
      .exclusions()
      .flat()
      .filter((key) => /^(lp-status|liquidity-lock|wash-trading)\//.test(key))
    expect([...new Set(covered)].filter((key) => !seen.has(key))).toEqual([])
  })

  test('the LP finding follows the time left until the locks release (shorter never milder)', () => {
    const RANK: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 }
    const lpSeverity = async (inDays: number) => {
      const facts: Partial<Facts> = {
        pools: { pools: [poolFact({ lp: { mint: 'lp', minted: 100n, supply: 100n, burnedPct: 0 } })] },
        launchpad: { pumpFun: null },
        lp_locks: {
          pools: [
            {
              pool: POOL,
              lpMint: 'lp',
              burnedPct: 0,
              lockedPct: 100,
              permanentLockedPct: 0,
              largestHolderPct: 0,
              unlocks: [{ inDays, pct: 100, program: 'jupiter_lock' }],
              holders: [],
            },
          ],
        },
      }
      const scan = await runScan(
        contextOf(facts),
        registry,
        { scanner: 'quick_scan', facts: { core: [], optional: [] } },
        NOW,
      )
      return RANK[scan.factors.find((entry) => entry.signal === 'lp-status')!.severity]!
    }
    return fc.assert(
      fc.asyncProperty(
        fc.double({ min: 0, max: 800, noNaN: true }),
        fc.double({ min: 0, max: 800, noNaN: true }),
        async (a, b) => {
          const [sooner, later] = a <= b ? [a, b] : [b, a]
          expect(await lpSeverity(sooner)).toBeGreaterThanOrEqual(await lpSeverity(later))
        },
      ),
    )
  })
})

// ——— A riskier token never gets a better grade or a better action ———

/** Worst first: the rank of a grade (A best) and of an action (AVOID worst, CONSIDER and BUY best). */
const GRADE_RANK: Record<'A' | 'B' | 'C' | 'D' | 'F', number> = { A: 0, B: 1, C: 2, D: 3, F: 4 }
const ACTION_RANK: Record<string, number> = { AVOID: 0, DYOR: 1, WATCH: 1, CONSIDER: 2, BUY: 2 }

const severity = fc.constantFrom(
  'info' as const,
  'low' as const,
  'medium' as const,
  'high' as const,
  'critical' as const,
)
const anyFactor = fc.record({
  code: fc.constantFrom('A_RISK', 'ANOTHER_RISK', 'THIRD_RISK'),
  signal: fc.constant('generated'),
  severity,
  impact: fc.integer({ min: -60, max: 0 }),
  hard_fail: fc.boolean(),
  grade_ceiling: fc.constantFrom(null, 'A' as const, 'B' as const, 'C' as const, 'D' as const, 'F' as const),
  title: fc.constant('a finding'),
  detail: fc.constant('generated'),
  evidence: fc.constant({}),
}) as fc.Arbitrary<Factor>

describe('monotonicity', () => {
  test('one more finding never improves the grade', () => {
    fc.assert(
      fc.property(fc.array(anyFactor, { maxLength: 8 }), anyFactor, (factors, added) => {
        const before = gradeOf(scoreOf(factors), factors)
        const after = gradeOf(scoreOf([...factors, added]), [...factors, added])
        return GRADE_RANK[after] >= GRADE_RANK[before]
      }),
    )
  })

  const level = fc.constantFrom('LOW' as const, 'MEDIUM' as const, 'HIGH' as const)
  const LEVEL_RANK = { LOW: 0, MEDIUM: 1, HIGH: 2 } as const
  const input = fc.record({
    grade: fc.constantFrom('A' as const, 'B' as const, 'C' as const, 'D' as const, 'F' as const),
    hardFail: fc.boolean(),
    quality: fc.constantFrom('FULL' as const, 'PARTIAL' as const, 'LIMITED' as const),
    missing: fc.subarray(['launch', 'dev_history', 'funding', 'trades'] as FactName[]),
    completeness: fc.double({ min: 0, max: 1, noNaN: true }),
    breakdown: fc.record({ contract_risk: level, liquidity_risk: level, market_risk: level, behavioral_risk: level }),
    isHoneypot: fc.boolean(),
    previousRugs: fc.boolean(),
    capping: fc.constant([]),
    ageDays: fc.option(fc.integer({ min: 0, max: 400 }), { nil: null }),
    permanentSafety: fc.boolean(),
    drivers: fc.constant([]),
  })
  const GRADES = ['A', 'B', 'C', 'D', 'F'] as const
  const LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const
  /** `a` made riskier (or left as it is) in any of the ways a fact can turn from safe to risky. */
  const riskier = fc.record({
    grade: fc.integer({ min: 0, max: 4 }),
    hardFail: fc.boolean(),
    isHoneypot: fc.boolean(),
    previousRugs: fc.boolean(),
    raise: fc.record({
      contract_risk: fc.integer({ min: 0, max: 2 }),
      liquidity_risk: fc.integer({ min: 0, max: 2 }),
      market_risk: fc.integer({ min: 0, max: 2 }),
      behavioral_risk: fc.integer({ min: 0, max: 2 }),
    }),
  })
  const worsen = (a: RecommendationInput, by: typeof riskier extends fc.Arbitrary<infer T> ? T : never) => ({
    ...a,
    grade: GRADES[Math.min(4, GRADE_RANK[a.grade]! + by.grade)]!,
    hardFail: a.hardFail || by.hardFail,
    isHoneypot: a.isHoneypot || by.isHoneypot,
    previousRugs: a.previousRugs || by.previousRugs,
    breakdown: Object.fromEntries(
      Object.entries(a.breakdown).map(([group, value]) => [
        group,
        LEVELS[Math.min(2, LEVEL_RANK[value] + by.raise[group as keyof typeof by.raise])]!,
      ]),
    ) as RecommendationInput['breakdown'],
  })

  test("the deep dive's recommendation: a riskier input never gets a better action", () => {
    fc.assert(
      fc.property(input, riskier, (a, by) => {
        const b = worsen(a, by)
        return ACTION_RANK[recommend(b).action]! <= ACTION_RANK[recommend(a).action]!
      }),
      { numRuns: 2_000 },
    )
  })

  test('a capped or gated battery is never sized: a suggestion buys nothing a finding holds down', () => {
    const clean = CLEAN_BATTERY
    const risky = fc.record({
      capped: fc.subarray(['FREEZE_AUTHORITY_LIVE', 'CORE_NOT_READ', 'IMPERSONATES_ASSET']),
      rating: fc.constantFrom('CLEAN' as const, 'COSTLY' as const, 'PUNITIVE' as const, 'BLOCKED' as const),
      grade: fc.constantFrom('A', 'B', 'C', 'D', 'F'),
      radar: fc.integer({ min: 0, max: 100 }),
    })
    fc.assert(
      fc.property(risky, ({ capped, rating, grade, radar }) => {
        const battery: Battery = {
          ...clean,
          capped,
          quick: { grade, score: 95 },
          exit: { ...clean.exit!, exit_rating: rating, sellable: rating !== 'BLOCKED' },
        }
        const decision = decide(battery, citedFactors(battery, radar), APPETITES.aggressive, 1_000, 1_000_000)
        const heldDown =
          capped.length > 0 || rating === 'PUNITIVE' || rating === 'BLOCKED' || grade === 'D' || grade === 'F'
        return !heldDown || (decision.suggested_size_usd === 0 && decision.action === 'AVOID')
      }),
    )
  })
})

// ——— Every scenario: the verdicts a trader reads agree with the findings behind them ———

/** Worst rank a factor holds the grade to (a hard fail is F). */
const capRankOf = (entry: Factor) => GRADE_RANK[entry.hard_fail ? 'F' : (entry.grade_ceiling ?? 'A')]

describe('every scenario: grades below their ceilings, no CONSIDER under a cap, an exit rated as it costs', () => {
  for (const scenario of sandbox.file.scenarios)
    test(`${scenario.name}`, async () => {
      const quick = (await scan('/scan/quick', scenario.mint)).body
      const deep = (await scan('/scan/deep', scenario.mint)).body
      for (const answer of [
        { grade: quick.structural_risk_grade as keyof typeof GRADE_RANK, factors: quick.factors as Factor[] },
        { grade: deep.risk_grade as keyof typeof GRADE_RANK, factors: deep.factors as Factor[] },
      ])
        for (const entry of answer.factors) expect(GRADE_RANK[answer.grade]).toBeGreaterThanOrEqual(capRankOf(entry))
      // A token a finding holds at C or below is never CONSIDERed (nor BUY).
      const capped = [...quick.factors, ...deep.factors].filter((entry: Factor) => capRankOf(entry) >= GRADE_RANK.C)
      if (capped.length > 0) expect(['AVOID', 'WATCH', 'DYOR']).toContain(deep.recommendation.action)
      // The deciding findings come first: a hard fail or the lowest ceiling leads the list.
      const worst = Math.max(0, ...deep.factors.map(capRankOf))
      if (worst > 0) expect(capRankOf(deep.factors[0])).toBe(worst)

      // An exit check at 500 USDC: rated as it costs, never CLEAN at a loss, never sellable when BLOCKED.
      const exit = (await scan('/exit/check', scenario.mint, { size_usdc: 500 })).body
      expect(exit.error).toBeUndefined()
      if (exit.exit_rating === 'BLOCKED') expect(exit.sellable).not.toBe(true)
      if (exit.exit_loss_pct !== null) {
        if (exit.exit_loss_pct > 20) expect(['PUNITIVE', 'BLOCKED']).toContain(exit.exit_rating)
        if (exit.exit_rating === 'CLEAN') expect(exit.exit_loss_pct).toBeLessThan(3)
      }
    })
})

// ——— A paused token (Token-2022 Pausable) never passes and is never "sellable" ———

describe('a paused token never passes, never sellable (rug-ready before and after sandbox.rugs.pause)', () => {
  test('a live pause switch holds the grade at C; paused, a hard fail and a honeypot everywhere a trader reads', async () => {
    const token = mintOf('rug-ready')
    /** Each reading on a service of its own: the paused mint read afresh, no cache from before. */
    const read = async (path: string, extra: Record<string, unknown> = {}) => {
      const fresh = waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' })
      const response = await fresh.handle(scanRequest(path, { token_address: token, ...extra }))
      return { status: response.status, body: (await response.json()) as any }
    }
    const codesOf = (factors: Factor[]) => factors.map((entry) => entry.code)

    const before = (await read('/scan/quick')).body
    expect(before.factors.find((entry: Factor) => entry.code === 'PAUSABLE')).toMatchObject({
      severity: 'high',
      grade_ceiling: 'C',
    })
    expect(codesOf(before.factors)).not.toContain('PAUSED')
    expect(GRADE_RANK[before.structural_risk_grade as keyof typeof GRADE_RANK]).toBeGreaterThanOrEqual(GRADE_RANK.C)
    expect((await read('/exit/check')).body.blockers.map((entry: { code: string }) => entry.code)).not.toContain(
      'PAUSED',
    )

    await sandbox.rugs.pause(token)
    try {
      const quick = (await read('/scan/quick')).body
      expect(quick.structural_risk_grade).toBe('F')
      expect(quick.factors.find((entry: Factor) => entry.code === 'PAUSED')).toMatchObject({
        severity: 'critical',
        hard_fail: true,
      })
      expect(codesOf(quick.factors)).not.toContain('PAUSABLE')
      const deep = (await read('/scan/deep')).body
      expect(deep).toMatchObject({ risk_grade: 'F', is_honeypot: true, recommendation: { action: 'AVOID' } })
      const exit = (await read('/exit/check')).body
      expect(exit).toMatchObject({ sellable: false, exit_rating: 'BLOCKED', exit_loss_pct: 100 })
      expect(exit.blockers).toContainEqual(expect.objectContaining({ code: 'PAUSED', blocks: true }))
      // The trade's risk gate never lets a buy of it through.
      const fresh = waivedService({ ...sandbox.serviceSettings, RATE_LIMIT_SCANNER_BURST: '100000' })
      const quoted = await fresh.handle(
        scanRequest('/trade/quote', {
          input_mint: 'So11111111111111111111111111111111111111112',
          output_mint: token,
          amount_in: '100000000',
          user_public_key: (await sandbox.world.signer('demo-buyer')).address,
        }),
      )
      expect(quoted.status).toBe(422)
      expect(await quoted.json()).toMatchObject({ status: 'REJECTED_RISK_GATE' })
    } finally {
      await sandbox.rugs.resume(token)
    }
  })
})
