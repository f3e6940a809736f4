import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cashtagsOf, mergePosts, parseFeed, plainText } from './news-posts.ts'

// Real crypto news feeds as recorded (test/fixtures/recorded/news/, each with its .source.json).
const RECORDED = join(import.meta.dir, '..', '..', 'test', 'fixtures', 'recorded', 'news')
const feeds = readdirSync(RECORDED).filter((name) => name.endsWith('.xml'))
const read = (name: string) => parseFeed(name, readFileSync(join(RECORDED, name), 'utf8'))

describe('news posts from recorded feeds', () => {
  test.each(feeds)('%s: every item a post with a title, a link and a date', (name) => {
    const posts = read(name)
    expect(posts.length).toBeGreaterThan(0)
    for (const post of posts) {
      expect(post.title.length).toBeGreaterThan(5)
      expect(post.title).not.toContain('<')
      expect(post.text).not.toMatch(/<\/?[a-z]+[\s>]/)
      expect(post.link).toMatch(/^https:\/\//)
      expect(post.at).toBeGreaterThan(1_600_000_000)
    }
  })

  test('merging feeds keeps one post per link, newest first', () => {
    const name = feeds[0]!
    const merged = mergePosts([read(name), read(name)])
    expect(merged).toHaveLength(read(name).length)
    const times = merged.map((post) => post.at ?? 0)
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  test('cashtags and plain text', () => {
    expect(cashtagsOf('$SOL and $bonk rally; $5 is not a ticker, $SOL again')).toEqual(['SOL', 'BONK'])
    expect(plainText('<p>Hello <b>world</b></p><script>x()</script>')).toBe('Hello world')
  })
})
