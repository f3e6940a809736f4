import { describe, expect, test } from 'bun:test'
import { leanOf, pulseOf } from './pulse.ts'

describe('a post’s lean', () => {
  test.each([
    ['SOL surges to a record high as ETF inflows grow', 'bull'],
    ['Protocol drained in a $40M exploit; token plunges', 'bear'],
    ['Solana validators meet in Lisbon', 'neutral'],
    ['This is not a rug pull, the team says', 'bull'],
    ['Analysts see no rally: a sell-off looms', 'bear'],
    ['The rally is over; a sell-off looms as outflows grow', 'bear'],
  ] as const)('%s → %s', (text, lean) => {
    expect(leanOf(text).lean).toBe(lean)
  })
})

describe('the crowd’s lean', () => {
  const bull = 'Token rallies on new partnership'
  const bear = 'Token dumps after the hack'
  const quiet = 'Weekly developer call notes'
  test('BULLISH when 60% or more of the opinionated posts are bullish', () => {
    expect(pulseOf([bull, bull, bull, bear, quiet])).toMatchObject({
      signal: 'BULLISH',
      posts: 5,
      bull: 3,
      bear: 1,
      neutral: 1,
    })
  })
  test('BEARISH likewise; MIXED when both sides hold 35% or more; NEUTRAL with too few opinions', () => {
    expect(pulseOf([bear, bear, bear, bull]).signal).toBe('BEARISH')
    expect(pulseOf([bull, bull, bear, bear]).signal).toBe('MIXED')
    expect(pulseOf([bull, bull, quiet, quiet]).signal).toBe('NEUTRAL')
  })
  test('top terms: the words that leaned the posts, most used first', () => {
    expect(pulseOf([bull, bull, bear]).top_terms.slice(0, 2)).toEqual([
      { term: 'partnership', count: 2 },
      { term: 'rallies', count: 2 },
    ])
  })
})
