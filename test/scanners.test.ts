import { describe, expect, test } from 'bun:test'
import { scannerService } from './support/scanner-service.ts'

const { sandbox, freshApp, mintOf, post, everyUpstreamDown } = await scannerService()

const scan = post

const codes = (body: { factors: { code: string; impact: number }[] }) =>
  body.factors.filter((entry) => entry.impact < 0).map((entry) => entry.code)
/** The findings that cap the grade (docs/scoring.md, "Grade ceilings"), as the answer names them. */
const cappedBy = (body: { factors: { code: string; grade_ceiling: string | null }[] }) =>
  body.factors.filter((entry) => entry.grade_ceiling !== null).map((entry) => entry.code)

describe('POST /scan/quick: the verdict on every scenario', () => {
  /** What each scenario was built to show, as the quick scan must report it. */
  const table: Record<string, { grade: string[]; check?: (body: any) => void }> = {
    'blue-chip': {
      grade: ['A'],
      check: (body) => {
        expect(body).toMatchObject({
          mint_authority_revoked: true,
          freeze_authority_revoked: true,
          lp_status: 'BURNED',
          lp_burned: true,
          lp_model: 'TRADITIONAL_AMM',
        })
        expect(body.liquidity_check.rating).toBe('DEEP')
        expect(codes(body)).toEqual([])
      },
    },
    'usdc-stablecoin': {
      grade: ['A'],
      check: (body) => {
        expect(body).toMatchObject({
          authority_exempt: true,
          mint_authority_revoked: false,
          freeze_authority_revoked: false,
        })
        expect(codes(body)).not.toContain('MINT_AUTHORITY_LIVE')
        expect(codes(body)).not.toContain('FREEZE_AUTHORITY_LIVE')
      },
    },
    // A live authority alone lets the developer take the holder's money: the grade is capped at C.
    'mint-authority-live': {
      grade: ['C', 'D'],
      check: (body) => expect(cappedBy(body)).toContain('MINT_AUTHORITY_LIVE'),
    },
    'freeze-authority-live': {
      grade: ['C', 'D'],
      check: (body) => expect(cappedBy(body)).toContain('FREEZE_AUTHORITY_LIVE'),
    },
    'whale-concentrated': {
      grade: ['C', 'D'],
      check: (body) => {
        expect(body.top_10_holder_pct).toBeGreaterThan(90)
        expect(codes(body)).toContain('TOP10_EXTREME')
      },
    },
    'pump-bonding': {
      grade: ['A', 'B'],
      check: (body) =>
        expect(body).toMatchObject({ lp_status: 'CUSTODIAL', historical_flags: ['PUMP_FUN_BONDING_CURVE'] }),
    },
    'pump-graduated': {
      grade: ['A', 'B'],
      check: (body) => expect(body).toMatchObject({ lp_status: 'BURNED', historical_flags: ['PUMP_FUN_GRADUATED'] }),
    },
    'bundled-launch': {
      grade: ['C', 'D'],
      check: (body) => expect(body).toMatchObject({ lp_status: 'UNBURNED', lp_burned: false }),
    },
    'sniped-launch': {
      grade: ['A', 'B'],
      check: (body) => expect(body.launch_anomaly).toMatchObject({ detected: true, reasons: ['NEW_TOKEN'] }),
    },
    'wash-traded': { grade: ['A', 'B'] },
    'serial-rugger': { grade: ['C', 'D'], check: (body) => expect(body.lp_status).toBe('UNBURNED') },
    'clmm-pool': {
      grade: ['A', 'B'],
      check: (body) =>
        expect(body).toMatchObject({ lp_status: 'NOT_APPLICABLE', lp_model: 'CLMM_DLMM', lp_burned: null }),
    },
    'dlmm-pool': {
      grade: ['A', 'B'],
      check: (body) => expect(body).toMatchObject({ lp_status: 'NOT_APPLICABLE', lp_model: 'CLMM_DLMM' }),
    },
    // The quick scan reads the lock too: locked for 180 days, one low finding — as the deep dive says.
    'locked-lp': {
      grade: ['A'],
      check: (body) => {
        expect(body.lp_status).toBe('UNBURNED')
        expect(body.liquidity_lock_status).toMatchObject({
          locked: true,
          locked_pct: 100,
          permanent: false,
          source: 'lp',
        })
        expect(
          body.factors.filter((entry: any) => entry.signal === 'lp-status').map((entry: any) => entry.code),
        ).toEqual(['LP_LOCK_ENDING'])
      },
    },
    'hostile-token-2022': {
      grade: ['F'],
      check: (body) => {
        for (const code of [
          'PERMANENT_DELEGATE',
          'TRANSFER_FEE_HIGH',
          'TRANSFER_FEE_MUTABLE',
          'TRANSFER_HOOK',
          'DEFAULT_FROZEN',
          'MINT_CLOSE_AUTHORITY',
        ])
          expect(codes(body)).toContain(code)
        expect(body.liquidity_check.rating).toBe('CRITICAL')
      },
    },
    'dead-token': { grade: ['D', 'F'], check: (body) => expect(body.liquidity_check.rating).toBe('CRITICAL') },
    // Every lever live but at rest (sandbox/scenarios/rug-ready.ts): the live controls are found, the
    // harmless settings (0% fee, no hook program, accounts initialized by default, not paused) are not;
    // the live pause switch caps the grade as the freeze authority does.
    'rug-ready': {
      grade: ['F'],
      check: (body) => {
        for (const code of [
          'PERMANENT_DELEGATE',
          'MINT_AUTHORITY_LIVE',
          'FREEZE_AUTHORITY_LIVE',
          'TRANSFER_FEE_MUTABLE',
          'PAUSABLE',
        ])
          expect(codes(body)).toContain(code)
        expect(cappedBy(body)).toContain('PAUSABLE')
        for (const code of ['TRANSFER_FEE_HIGH', 'TRANSFER_HOOK', 'DEFAULT_FROZEN', 'PAUSED'])
          expect(codes(body)).not.toContain(code)
        expect(body.lp_status).toBe('UNBURNED')
      },
    },

    // A copy of the sandbox USDC on its own mint: the copy caps the grade at D, whatever else is clean.
    'fake-stablecoin': {
      grade: ['D', 'F'],
      check: (body) => {
        expect(cappedBy(body)).toContain('IMPERSONATES_ASSET')
        expect(body.authority_exempt).toBe(false)
        expect(codes(body)).toContain('FREEZE_AUTHORITY_LIVE')
      },
    },
  }

  test('the table covers every scenario', () => {
    expect(Object.keys(table).sort()).toEqual(sandbox.file.scenarios.map((scenario) => scenario.name).sort())
  })

  for (const [name, expected] of Object.entries(table))
    test(`${name}: grade ${expected.grade.join(' or ')}, valid against /openapi.json`, async () => {
      const { status, body, errors } = await scan('/scan/quick', mintOf(name))
      expect(status).toBe(200)
      expect(errors).toEqual([])
      expect(body).toMatchObject({
        schema_version: '2.0',
        token_address: mintOf(name),
        grade_type: 'STRUCTURAL_SAFETY',
        data_quality: 'FULL',
        missing_fields: [],
      })
      expect(expected.grade).toContain(body.structural_risk_grade)
      expected.check?.(body)
      expect(body.summary).toContain(`grade ${body.structural_risk_grade}`)
    })
})

describe('POST /scan/quick: impersonation', () => {
  test('fake-stablecoin: IMPERSONATES_ASSET, critical, naming the real USDC mint (registry and token list agree)', async () => {
    const usdc = mintOf('usdc-stablecoin')
    const { body } = await scan('/scan/quick', mintOf('fake-stablecoin'))
    const found = body.factors.find((entry: { code: string }) => entry.code === 'IMPERSONATES_ASSET')
    expect(found).toMatchObject({
      signal: 'impersonation',
      severity: 'critical',
      grade_ceiling: 'D',
      evidence: {
        real_mint: usdc,
        sources: ['issuer_registry', 'verified_list'],
        matched: ['symbol', 'name'],
      },
    })
    expect(found.title).toContain(usdc)
    expect(found.detail).toContain(usdc)
  })

  test('the real USDC, and a token named like nothing known: no IMPERSONATES_ASSET', async () => {
    for (const name of ['usdc-stablecoin', 'blue-chip']) {
      const { body } = await scan('/scan/quick', mintOf(name))
      expect(body.factors.map((entry: { code: string }) => entry.code)).not.toContain('IMPERSONATES_ASSET')
    }
  })
})

describe('POST /scan/quick under faults', () => {
  test('a slow RPC: answered within 5 s, LIMITED, the missing facts listed, still valid', async () => {
    sandbox.faults.set('rpc', 'getTokenLargestAccounts', { kind: 'slow', delayMs: 8_000 })
    const started = performance.now()
    const { status, body, errors } = await scan('/scan/quick', mintOf('blue-chip'), freshApp())
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.data_quality).toBe('LIMITED')
    expect(body.data_confidence).toBe('LOW')
    expect(body.missing_fields).toContain('holders')
    expect(body.top_10_holder_pct).toBeNull()
  })

  test('every upstream down: still 200, LIMITED, nothing invented', async () => {
    everyUpstreamDown(['getAccountInfo', 'getMultipleAccounts', 'getTokenLargestAccounts'])
    const { status, body, errors } = await scan('/scan/quick', mintOf('whale-concentrated'), freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'LIMITED',
      top_10_holder_pct: null,
      lp_burned: null,
      lp_status: 'UNKNOWN',
      mint_authority_revoked: false,
    })
    expect(body.liquidity_check.rating).toBe('UNKNOWN')
    expect(body.missing_fields).toEqual(expect.arrayContaining(['mint', 'holders', 'market']))
  })

  test('the mint unread: no passing grade over it — C at best, and the answer says why', async () => {
    sandbox.faults.set('rpc', 'getAccountInfo', { kind: 'down' })
    sandbox.faults.set('rpc', 'getMultipleAccounts', { kind: 'down' })
    const { status, body, errors } = await scan('/scan/quick', mintOf('blue-chip'), freshApp())
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body.missing_fields).toContain('mint')
    expect(['C', 'D', 'F']).toContain(body.structural_risk_grade)
    const capping = body.factors.find((entry: { code: string }) => entry.code === 'CORE_NOT_READ')
    expect(capping).toMatchObject({ grade_ceiling: 'C', title: expect.stringContaining('mint not read') })
    // The deciding findings first: the ceiling is among the first four the CLI shows.
    expect(body.factors.slice(0, 4)).toContainEqual(capping)
  })

  test('an invalid address is 400 INVALID_ADDRESS, before any work', async () => {
    const before = sandbox.faults.countOf('rpc')
    const { status, body } = await scan('/scan/quick', 'BONK')
    expect(status).toBe(400)
    expect(body).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
    expect(sandbox.faults.countOf('rpc')).toBe(before)
  })
})
