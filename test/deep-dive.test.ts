import { describe, expect, test } from 'bun:test'
import { LOCKED_LP_DAYS } from '../sandbox/scenarios/locked-lp.ts'
import { PERMANENT_LOCK_DAYS } from '../signals/liquidity-lock/index.ts'
import { scannerService } from './support/scanner-service.ts'

const { sandbox, app, freshApp, mintOf, post, everyUpstreamDown } = await scannerService()

const deep = (mint: string, service = app) => post('/scan/deep', mint, service)

const codes = (body: { factors: { code: string; impact: number; hard_fail: boolean }[] }) =>
  body.factors.filter((entry) => entry.impact < 0 || entry.hard_fail).map((entry) => entry.code)
/** The findings that cap the grade (docs/scoring.md, "Grade ceilings"), as the answer names them. */
const cappedBy = (body: { factors: { code: string; grade_ceiling: string | null }[] }) =>
  body.factors.filter((entry) => entry.grade_ceiling !== null).map((entry) => entry.code)

/** The §2.4 fields that are measured on every scenario token when every source answers. */
const MEASURED = [
  'is_honeypot',
  'wallet_analysis',
  'dev_wallet_analysis',
  'sniper_activity',
  'trading_pattern',
  'pump_launchpad_launched',
  'bundled_launch_detected',
  'volume_24h',
  'momentum_score',
] as const

describe('POST /scan/deep: the verdict on every scenario', () => {
  /** What each scenario was built to show, as the deep dive must report it. */
  const table: Record<string, { grade: string[]; action: string; check?: (body: any) => void }> = {
    'blue-chip': {
      grade: ['A', 'B'],
      action: 'CONSIDER',
      check: (body) => {
        expect(body).toMatchObject({
          is_honeypot: false,
          mint_authority_revoked: true,
          freeze_authority_revoked: true,
          lp_status: 'BURNED',
          lp_burned: true,
          pump_launchpad_launched: false,
          bundled_launch_detected: false,
          sniper_activity: 'LOW',
          launch_pattern: 'FAIR_LAUNCH',
        })
        expect(body.risk_breakdown).toEqual({
          contract_risk: 'LOW',
          liquidity_risk: 'LOW',
          market_risk: 'LOW',
          behavioral_risk: 'LOW',
        })
        expect(body.dev_wallet_analysis).toMatchObject({
          created_tokens_count: 0,
          previous_rugs: false,
          history_complete: true,
        })
        expect(body.dev_wallet_analysis.sol_balance).toBeGreaterThan(0)
        expect(body.wallet_analysis).toMatchObject({ clustered_wallets: 0, dev_wallet_linked: false })
        expect(body.liquidity_lock_status).toMatchObject({
          locked: true,
          burned_pct: 100,
          locked_pct: 100,
          lock_duration_days: PERMANENT_LOCK_DAYS,
          permanent: true,
        })
        expect(body.trading_pattern.wash_trading_score).toBeLessThan(30)
        expect(body.key_drivers).toEqual([])
        expect(body.recommendation.time_horizon).toBe('LONG_TERM')
      },
    },
    'usdc-stablecoin': {
      grade: ['A', 'B'],
      action: 'CONSIDER',
      check: (body) => {
        expect(body).toMatchObject({
          authority_exempt: true,
          mint_authority_revoked: false,
          freeze_authority_revoked: false,
          is_honeypot: false,
        })
        expect(codes(body)).not.toContain('MINT_AUTHORITY_LIVE')
        expect(codes(body)).not.toContain('FREEZE_AUTHORITY_LIVE')
        expect(body.risk_breakdown.contract_risk).toBe('LOW')
      },
    },
    'mint-authority-live': {
      grade: ['C', 'D'],
      action: 'WATCH',
      check: (body) => {
        expect(cappedBy(body)).toContain('MINT_AUTHORITY_LIVE')
        expect(body.risk_breakdown.contract_risk).toBe('MEDIUM')
      },
    },
    'freeze-authority-live': {
      grade: ['C', 'D'],
      action: 'WATCH',
      check: (body) => {
        expect(cappedBy(body)).toContain('FREEZE_AUTHORITY_LIVE')
        // Holders can sell today; the issuer could stop them: a risk, not a honeypot.
        expect(body.is_honeypot).toBe(false)
        expect(body.factors.find((entry: any) => entry.code === 'SELL_BLOCKABLE').evidence.issuer_can_block).toEqual([
          'FREEZE_AUTHORITY',
        ])
      },
    },
    'whale-concentrated': {
      grade: ['C', 'D'],
      action: 'WATCH',
      check: (body) => {
        expect(codes(body)).toContain('TOP10_EXTREME')
        expect(body.risk_breakdown.market_risk).toBe('HIGH')
      },
    },
    'pump-bonding': {
      grade: ['A', 'B'],
      action: 'WATCH',
      check: (body) => {
        expect(body).toMatchObject({
          pump_launchpad_launched: true,
          lp_status: 'NOT_APPLICABLE',
          historical_flags: ['PUMP_FUN_BONDING_CURVE'],
          bundled_launch_detected: false,
        })
        expect(body.liquidity_lock_status).toMatchObject({
          locked: true,
          source: 'bonding_curve',
          lock_duration_days: PERMANENT_LOCK_DAYS,
          permanent: true,
        })
        // Six hours old: no track record yet, whatever the grade.
        expect(body.recommendation.reason).toContain('less than a day')
      },
    },
    'pump-graduated': {
      grade: ['A', 'B'],
      action: 'CONSIDER',
      check: (body) =>
        expect(body).toMatchObject({
          pump_launchpad_launched: true,
          lp_status: 'BURNED',
          historical_flags: ['PUMP_FUN_GRADUATED'],
        }),
    },
    'bundled-launch': {
      grade: ['D', 'F'],
      action: 'AVOID',
      check: (body) => {
        expect(body).toMatchObject({
          bundled_launch_detected: true,
          launch_pattern: 'STEALTH_LAUNCH',
          lp_status: 'UNBURNED',
        })
        expect(body.wallet_analysis).toMatchObject({ dev_wallet_linked: true })
        expect(body.wallet_analysis.clustered_wallets).toBeGreaterThanOrEqual(6)
        expect(body.liquidity_lock_status).toMatchObject({ locked: false, locked_pct: 0, lock_duration_days: 0 })
        expect(body.key_drivers[0].code).toBe('BUNDLED_LAUNCH')
        expect(cappedBy(body)).toContain('BUNDLED_LAUNCH')
        expect(body.factors.find((entry: any) => entry.code === 'BUNDLED_LAUNCH').evidence.linked_buyers).toHaveLength(
          6,
        )
        expect(body.historical_flags).toContain('BUNDLED_LAUNCH')
        expect(body.risk_breakdown.behavioral_risk).toBe('HIGH')
      },
    },
    'sniped-launch': {
      grade: ['C', 'D'],
      action: 'WATCH',
      check: (body) => {
        expect(body).toMatchObject({ sniper_activity: 'HIGH', bundled_launch_detected: false })
        expect(cappedBy(body)).toContain('SNIPER_SWARM')
        expect(body.factors.find((entry: any) => entry.code === 'SNIPER_SWARM').evidence.snipers).toBe(12)
        // Unrelated bots (each funded from an exchange-like source at its own time): not a cluster.
        expect(body.wallet_analysis).toMatchObject({ clustered_wallets: 0, dev_wallet_linked: false })
      },
    },
    // Fake volume rules a token out: nearly all of it is the same wallets trading with themselves.
    'wash-traded': {
      grade: ['D', 'F'],
      action: 'AVOID',
      check: (body) => {
        expect(body.trading_pattern.wash_trading_score).toBeGreaterThanOrEqual(90)
        // Distinct buyer wallets, not the 45 buys they made.
        expect(body.trading_pattern).toMatchObject({ unique_buyers_24h: 4, swaps_24h: 90 })
        expect(body.wallet_analysis).toMatchObject({ clustered_wallets: 4, dev_wallet_linked: false })
        expect(codes(body)).toEqual(expect.arrayContaining(['WASH_TRADING_EXTREME', 'WALLET_CLUSTER']))
        // One wash finding: the extreme one, not the C-capped one beside it.
        expect(codes(body)).not.toContain('WASH_TRADING')
        expect(cappedBy(body)).toContain('WASH_TRADING_EXTREME')
        expect(body.recommendation).toMatchObject({ rule: 'AVOID_GRADE' })
        expect(body.recommendation.reason).toContain('WASH_TRADING_EXTREME')
        expect(body.recommendation.reason).not.toContain('Nothing rules the token out')
        expect(body.historical_flags).toContain('WASH_TRADING')
      },
    },
    'serial-rugger': {
      grade: ['F'],
      action: 'AVOID',
      check: (body) => {
        expect(body.dev_wallet_analysis).toMatchObject({
          previous_rugs: true,
          created_tokens_count: 3,
          history_complete: true,
        })
        expect(body.recommendation).toMatchObject({ rule: 'AVOID_CERTAIN', time_horizon: 'LONG_TERM' })
        expect(body.historical_flags).toContain('DEV_PREVIOUS_RUGS')
        expect(body.factors.find((entry: any) => entry.code === 'DEV_SERIAL_RUGGER')).toMatchObject({ hard_fail: true })
      },
    },
    'clmm-pool': {
      grade: ['A', 'B'],
      action: 'CONSIDER',
      check: (body) => {
        expect(body).toMatchObject({ lp_status: 'NOT_APPLICABLE', lp_model: 'CLMM_DLMM', lp_burned: null })
        // Position lockers are not read: no lock status rather than a guessed one.
        expect(body).not.toHaveProperty('liquidity_lock_status')
      },
    },
    'dlmm-pool': {
      grade: ['A', 'B'],
      action: 'CONSIDER',
      check: (body) => expect(body).toMatchObject({ lp_status: 'NOT_APPLICABLE', lp_model: 'CLMM_DLMM' }),
    },
    // One LP finding from burned %, locked % and the unlock date together: locked, for 180 days — low.
    'locked-lp': {
      grade: ['A'],
      action: 'CONSIDER',
      check: (body) => {
        expect(body).toMatchObject({ lp_status: 'UNBURNED', lp_burned: false })
        const lp = body.factors.filter((entry: any) => ['lp-status', 'liquidity-lock'].includes(entry.signal))
        expect(lp.map((entry: any) => [entry.code, entry.severity])).toEqual([['LP_LOCK_ENDING', 'low']])
        expect(lp[0].title).toMatch(/^LP locked until \d{4}-\d{2}-\d{2} \(in 180 days\)$/)
        expect(body.recommendation.reason).not.toContain('burned')
        // The report's lock sentence reads the same members as the field: the duration, not "not read".
        expect(body.full_risk_report).toContain('locked for 180 more days')
        expect(body.full_risk_report).not.toMatch(/duration (not read|not measured)/)
        // Locked for months, not for good: no long-term horizon on its strength.
        expect(body.recommendation.time_horizon).not.toBe('LONG_TERM')
        // The Jupiter Lock escrow's cliff, 180 days after the sandbox's start, read from its account.
        const { lock_duration_days: days, ...status } = body.liquidity_lock_status
        expect(status).toEqual({
          locked: true,
          permanent: false,
          locked_pct: 100,
          burned_pct: 0,
          lock_program_pct: 100,
          source: 'lp',
        })
        expect(days).toBeGreaterThan(179)
        expect(days).toBeLessThanOrEqual(LOCKED_LP_DAYS)
        expect(body.risk_breakdown.liquidity_risk).toBe('LOW')
      },
    },
    'hostile-token-2022': {
      grade: ['F'],
      action: 'AVOID',
      check: (body) => {
        expect(body).toMatchObject({ is_honeypot: true, launch_pattern: 'UNKNOWN', volume_24h: 0 })
        const honeypot = body.factors.find((entry: any) => entry.code === 'HONEYPOT')
        expect(honeypot).toMatchObject({ hard_fail: true })
        expect(honeypot.evidence.blockers).toEqual(expect.arrayContaining(['DEFAULT_FROZEN', 'NO_SELL_ROUTE']))
        expect(body.key_drivers[0].code).toBe('HONEYPOT')
        expect(body.risk_breakdown.contract_risk).toBe('HIGH')
        // No market: no 24 h price change to report (absent, not 0).
        expect(body).not.toHaveProperty('price_change_24h_pct')
      },
    },
    'dead-token': {
      grade: ['D', 'F'],
      action: 'AVOID',
      check: (body) => {
        expect(codes(body)).toContain('LIQUIDITY_CRITICAL')
        expect(body.recommendation.reason).toContain('LIQUIDITY_CRITICAL')
        expect(body.trading_pattern).toMatchObject({
          unique_buyers_24h: 0,
          swaps_24h: 0,
          buy_sell_ratio_1h: 0,
          swaps_1h: 0,
        })
      },
    },
    // A copy of the sandbox USDC: the deep dive runs the structural impersonation signal too.
    'fake-stablecoin': {
      grade: ['D', 'F'],
      action: 'AVOID',
      check: (body) => {
        expect(cappedBy(body)).toContain('IMPERSONATES_ASSET')
        expect(body.factors.find((entry: any) => entry.code === 'IMPERSONATES_ASSET').evidence.real_mint).toBe(
          mintOf('usdc-stablecoin'),
        )
        expect(body.recommendation.reason).toContain('IMPERSONATES_ASSET')
      },
    },
    // Every lever live, none pulled yet (sandbox/scenarios/rug-ready.ts): sellable, so not a honeypot.
    'rug-ready': {
      grade: ['F'],
      action: 'AVOID',
      check: (body) => {
        expect(body.is_honeypot).toBe(false)
        expect(cappedBy(body)).toEqual(expect.arrayContaining(['PERMANENT_DELEGATE', 'MINT_AUTHORITY_LIVE']))
        expect(body.risk_breakdown.contract_risk).toBe('HIGH')
      },
    },
  }

  test('the table covers every scenario', () => {
    expect(Object.keys(table).sort()).toEqual(sandbox.file.scenarios.map((scenario) => scenario.name).sort())
  })

  for (const [name, expected] of Object.entries(table))
    test(`${name}: grade ${expected.grade.join(' or ')}, ${expected.action}, valid against /openapi.json`, async () => {
      const { status, body, errors } = await deep(mintOf(name))
      expect(status).toBe(200)
      expect(errors).toEqual([])
      expect(body).toMatchObject({
        schema_version: '2.0',
        token_address: mintOf(name),
        data_quality: 'FULL',
        data_confidence: 'HIGH',
        missing_fields: [],
      })
      expect(expected.grade).toContain(body.risk_grade)
      expect(body.recommendation.action).toBe(expected.action)
      for (const field of MEASURED) expect(body).toHaveProperty(field)
      expected.check?.(body)
      // The report cites the verdict and every key driver by its code.
      expect(body.full_risk_report).toContain(`risk grade ${body.risk_grade}`)
      expect(body.full_risk_report).toContain(`Recommendation: ${body.recommendation.action}`)
      for (const driver of body.key_drivers) expect(body.full_risk_report).toContain(`[${driver.code}]`)
      expect(body.full_risk_report.split('\n\n').length).toBeGreaterThanOrEqual(5)
    })
})

describe('POST /scan/deep: discovery', () => {
  test('is listed in the x402 manifest and the agent card, at 0.50 USD', async () => {
    const manifest = (await (await app.handle(new Request('http://localhost/.well-known/x402'))).json()) as {
      resources: string[]
    }
    expect(manifest.resources).toContain('POST /scan/deep')
    const card = (await (await app.handle(new Request('http://localhost/.well-known/agent.json'))).json()) as {
      skills: { id: string }[]
    }
    expect(card.skills.map((skill) => skill.id)).toContain('sol_deep_dive')
    const openapi = (await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as any
    expect(openapi.paths['/scan/deep'].post['x-payment-info']).toMatchObject({ price_usd: '0.50', amount: '500000' })
    const required = openapi.paths['/scan/deep'].post.responses['200'].content['application/json'].schema.required
    expect(required).toEqual(
      expect.arrayContaining([
        'schema_version',
        'risk_grade',
        'risk_breakdown',
        'recommendation',
        'data_confidence',
        'data_quality',
        'full_risk_report',
      ]),
    )
  })
})

describe('POST /scan/deep under faults', () => {
  test('a slow history upstream: answered within 30 s, LIMITED, the missing facts listed, nothing guessed', async () => {
    // Transactions are what the history facts read most. History reads go in batches (and behind a
    // breaker) of their own, so the account reads are not held up with them.
    sandbox.faults.set('rpc', 'getTransaction', { kind: 'slow', delayMs: 40_000 })
    const started = performance.now()
    const { status, body, errors } = await deep(mintOf('serial-rugger'), freshApp())
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({ data_quality: 'LIMITED', data_confidence: 'LOW', launch_pattern: 'UNKNOWN' })
    expect(body.missing_fields).toEqual(expect.arrayContaining(['launch', 'dev_history', 'funding', 'trades']))
    // What did arrive is enough to see serial-rugger's pullable liquidity: the risk found stands.
    expect(body.recommendation).toMatchObject({ action: 'AVOID', rule: 'AVOID_GRADE', time_horizon: 'SHORT_TERM' })
    // History-derived fields are left out rather than invented (no "0 rugs", no "0 buyers"). The
    // trades fact loads empty when the pools time out: that is listed as missing, not "no trades".
    for (const field of [
      'dev_wallet_analysis',
      'wallet_analysis',
      'trading_pattern',
      'bundled_launch_detected',
      'sniper_activity',
    ])
      expect(body).not.toHaveProperty(field)
    // What did arrive is reported: the account reads (the mint, the pools, the LP) and the market.
    for (const fact of ['mint', 'pools', 'lp_locks', 'market']) expect(body.missing_fields).not.toContain(fact)
    expect(body).toMatchObject({ mint_authority_revoked: true, freeze_authority_revoked: true })
    expect(body.volume_24h).toBeGreaterThan(0)
    expect(body.full_risk_report).toContain(`Not gathered: ${body.missing_fields.join(', ')}`)
  }, 40_000)

  test('every upstream down: still 200, LIMITED, DYOR, nothing invented', async () => {
    everyUpstreamDown([
      'getAccountInfo',
      'getMultipleAccounts',
      'getTokenLargestAccounts',
      'getSignaturesForAddress',
      'getTransaction',
      'getBalance',
    ])
    const { status, body, errors } = await deep(mintOf('serial-rugger'), freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'LIMITED',
      data_confidence: 'LOW',
      top_10_holder_pct: null,
      lp_burned: null,
      lp_status: 'UNKNOWN',
      lp_model: 'UNKNOWN',
      mint_authority_revoked: false,
      freeze_authority_revoked: false,
      launch_pattern: 'UNKNOWN',
      key_drivers: [],
      historical_flags: [],
    })
    expect(body.recommendation).toMatchObject({ action: 'DYOR', rule: 'DYOR_LIMITED_DATA' })
    expect(body.missing_fields).toEqual([
      'mint',
      'holders',
      'market',
      'launch',
      'dev_history',
      'metadata',
      'token_list',
      'pools',
      'launchpad',
      'funding',
      'trades',
      'lp_locks',
    ])
    // Only reference data is there: the issuer registry, and the known assets (the registry's, the
    // token list unread): 2 facts of 14.
    expect(body.confidence.data_completeness).toBe(0.14)
    // Unknown is not clean: every group whose signals could not run is MEDIUM, not LOW.
    expect(body.risk_breakdown).toEqual({
      contract_risk: 'MEDIUM',
      liquidity_risk: 'MEDIUM',
      market_risk: 'MEDIUM',
      behavioral_risk: 'MEDIUM',
    })
    for (const field of [...MEASURED, 'liquidity_lock_status', 'price_change_24h_pct'])
      expect(body).not.toHaveProperty(field)
    expect(body.factors.every((entry: any) => entry.impact === 0 && !entry.hard_fail)).toBe(true)
  }, 40_000)

  test('an invalid address is 400 INVALID_ADDRESS, before any work', async () => {
    const before = sandbox.faults.countOf('rpc')
    const { status, body } = await deep('0x6B175474E89094C44Da98b954EedeAC495271d0F')
    expect(status).toBe(400)
    expect(body).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
    expect(sandbox.faults.countOf('rpc')).toBe(before)
  })
})
