import { describe, expect, test } from 'bun:test'
import { cohortOf, coordinationOf } from './cohorts.ts'
import { EcosystemAccounts, loadEcosystemAccounts } from '../onchain/ecosystem.ts'
import type { Post } from '../sources/news-posts.ts'

const NOW = 1_800_000_000
const DAY = 86_400
const social = (id: string, handle: string, text: string, ageDays: number, followers = 100, at = NOW): Post => ({
  id,
  feed: 'x',
  kind: 'social',
  author: `@${handle}`,
  account: { handle, followers, created_at: at - ageDays * DAY, verified: null },
  at,
  title: '',
  text,
  link: null,
  cashtags: [],
})

describe('cohorts', () => {
  const ecosystem = loadEcosystemAccounts()
  test('listed accounts are the ecosystem (any case); established followed accounts analysts; others degens', () => {
    expect(cohortOf(social('1', 'JUPITEREXCHANGE', 'x', 10), ecosystem)).toBe('ecosystem')
    expect(cohortOf(social('2', 'old_hand', 'x', 800, 50_000), ecosystem)).toBe('analysts')
    expect(cohortOf(social('3', 'old_small', 'x', 800, 500), ecosystem)).toBe('degens')
    expect(cohortOf(social('4', 'new_big', 'x', 30, 50_000), ecosystem)).toBe('degens')
  })
  test('a bad operator file is refused with the entry named', () => {
    expect(
      () =>
        new EcosystemAccounts([
          { name: 'f', file: { version: '1', entries: [{ handle: 'no spaces', project: 'p', source: 's' }] } },
        ]),
    ).toThrow('f: "no spaces" is not an X handle')
  })
})

describe('coordination', () => {
  const push = ['fresh1', 'fresh2', 'fresh3'].map((handle, index) =>
    social(
      `p${index}`,
      handle,
      `$X is the next 100x gem, buy now! ${index === 1 ? 'LFG' : ''}`,
      3,
      10,
      NOW - index * 600,
    ),
  )
  test('three fresh accounts posting near-identical text within hours: one push, coordinated', () => {
    const result = coordinationOf([...push, social('o', 'veteran', 'Careful with $X, bundled launch', 900)])
    expect(result.coordinated).toBe(true)
    expect(result.pushes).toEqual([expect.objectContaining({ accounts: 3, fresh_accounts: 3 })])
    expect(result.fresh_account_share).toBe(0.75)
  })
  test('two accounts are not a push; the same text a day apart is not one either', () => {
    expect(coordinationOf(push.slice(0, 2)).pushes).toEqual([])
    const apart = push.map((post, index) => ({ ...post, at: NOW - index * 2 * DAY }))
    expect(coordinationOf(apart).coordinated).toBe(false)
  })
})
