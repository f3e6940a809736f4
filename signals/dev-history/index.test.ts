import { describe, expect, test } from 'bun:test'
import type { DevHistoryFact } from '../../src/facts/types.ts'
import devHistory from './index.ts'

const history = (
  created: number,
  rugs: number,
  complete: boolean,
  walletSource: DevHistoryFact['walletSource'] = 'creation',
): DevHistoryFact => ({
  wallet: 'dev',
  walletSource,
  solBalance: 1_500_000_000n,
  createdTokens: Array.from({ length: created }, (_, i) => ({ mint: `t${i}`, signature: `s${i}`, at: null })),
  liquidityPulls: Array.from({ length: rugs }, (_, i) => ({ mint: `t${i}`, signature: `p${i}`, at: null })),
  previousRugs: Array.from({ length: rugs }, (_, i) => `t${i}`),
  earlierTokens: Array.from({ length: created }, (_, i) => ({
    mint: `t${i}`,
    pulled: i < rugs,
    listed: true,
    liquidityUsd: 10,
  })),
  complete,
})
const detect = (fact: DevHistoryFact | undefined) =>
  devHistory.detect({ get: () => fact as never }, devHistory.meta.defaults, { mint: 'm', now: 0 })

describe('dev-history', () => {
  const cases: {
    name: string
    fact: DevHistoryFact
    count: number | null
    rugs: boolean
    codes: string[]
    hardFail: boolean
  }[] = [
    {
      name: 'complete and clean: a measured zero',
      fact: history(0, 0, true),
      count: 0,
      rugs: false,
      codes: [],
      hardFail: false,
    },
    {
      name: 'incomplete and nothing seen: null, not a made-up zero',
      fact: history(0, 0, false),
      count: null,
      rugs: false,
      codes: ['DEV_HISTORY_PARTIAL'],
      hardFail: false,
    },
    {
      name: 'incomplete with tokens seen: the count is a floor',
      fact: history(2, 0, false),
      count: 2,
      rugs: false,
      codes: ['DEV_HISTORY_PARTIAL'],
      hardFail: false,
    },
    {
      name: 'one earlier rug: critical, not yet a hard fail (could be a migration)',
      fact: history(1, 1, true),
      count: 1,
      rugs: true,
      codes: ['DEV_PREVIOUS_RUG'],
      hardFail: false,
    },
    {
      name: 'two or more rugs: a pattern, hard fail',
      fact: history(3, 3, true),
      count: 3,
      rugs: true,
      codes: ['DEV_SERIAL_RUGGER'],
      hardFail: true,
    },
    {
      name: 'five other tokens: a token factory',
      fact: history(5, 0, true),
      count: 5,
      rugs: false,
      codes: ['DEV_TOKEN_FACTORY'],
      hardFail: false,
    },
  ]
  for (const entry of cases)
    test(entry.name, () => {
      const outcome = detect(entry.fact)
      expect(outcome.fields.dev_wallet_analysis).toEqual({
        address: 'dev',
        address_source: 'creation',
        sol_balance: 1.5,
        created_tokens_count: entry.count,
        previous_rugs: entry.rugs,
        history_complete: entry.fact.complete,
      })
      expect(outcome.factors.map((factor) => factor.code)).toEqual(entry.codes)
      expect(outcome.factors.some((factor) => factor.hard_fail)).toBe(entry.hardFail)
    })

  test('missing history: unknown, no fields', () => {
    expect(detect(undefined)).toMatchObject({ status: 'unknown', missing: ['dev_history'], fields: {} })
  })

  test('a wallet known from the bonding curve (creation unread) is reported with its source', () => {
    expect(detect(history(0, 0, true, 'launchpad')).fields.dev_wallet_analysis).toMatchObject({
      address: 'dev',
      address_source: 'launchpad',
    })
    expect(detect(history(0, 0, true)).fields.dev_wallet_analysis).toMatchObject({ address_source: 'creation' })
  })
})
