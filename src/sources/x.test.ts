import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { postsOfSearch, XSearchSchema } from './x.ts'

// Real X API v2 recent-search answers as recorded (test/fixtures/recorded/x/, each with its source).
const RECORDED = join(import.meta.dir, '..', '..', 'test', 'fixtures', 'recorded', 'x')
const answers = readdirSync(RECORDED)
  .filter((name) => name.startsWith('search-recent-'))
  .map((name) => [name, JSON.parse(readFileSync(join(RECORDED, name), 'utf8')).answer] as const)

describe('X recent search, recorded answers', () => {
  test.each(answers)('%s fits the schema and reads as posts', (_name, answer) => {
    expect(Value.Check(XSearchSchema, answer)).toBe(true)
    const posts = postsOfSearch(answer)
    expect(posts.length).toBe(answer.data.length)
    for (const post of posts) {
      expect(post.kind).toBe('social')
      expect(post.id).toMatch(/^x:\d+$/)
      expect(post.link).toMatch(/^https:\/\/x\.com\//)
    }
  })

  test('authors: handle, followers and account age from includes.users', () => {
    const [, withMetrics] = answers.find(([name]) => name.includes('public-metrics'))!
    const metrics = postsOfSearch(withMetrics).find((post) => post.account !== null)!
    expect(metrics.account!.followers).toBeGreaterThanOrEqual(0)
    expect(metrics.at).toBeGreaterThan(1_600_000_000)
    const [, withAge] = answers.find(([name]) => name.includes('created-at'))!
    const aged = postsOfSearch(withAge).find((post) => post.account?.created_at != null)!
    expect(aged.account!.created_at).toBeLessThan(aged.at!)
    expect(aged.author).toBe(`@${aged.account!.handle}`)
  })

  test('nothing matched: no data, no posts', () => {
    expect(postsOfSearch({ meta: { result_count: 0 } })).toEqual([])
  })
})
