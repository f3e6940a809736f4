import { describe, expect, test } from 'bun:test'
import { createApp } from '../src/app.ts'
import { startServer } from '../src/http/server.ts'
import { fixturePlugin } from './fixtures/fixture-plugin.ts'
import { testContext, VALID_MINT } from './support/app.ts'

function start(env: Record<string, string> = {}) {
  const ctx = testContext({ PORT: '0', ...env })
  const app = createApp(ctx, { plugins: [fixturePlugin(ctx)] })
  return { ctx, running: startServer(app, ctx) }
}

describe('a started server', () => {
  test('limits scanner calls by the socket address of the client', async () => {
    const { running } = start({ RATE_LIMIT_SCANNER_BURST: '1' })
    const scan = () =>
      fetch(`${running.url}/fixture/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token_address: VALID_MINT }),
      })
    const first = await scan()
    const second = await scan()
    expect([first.status, second.status]).toEqual([200, 429])
    const body = (await second.json()) as { message: string }
    expect(body.message).toContain('127.0.0.1')
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)
    await running.shutdown('test')
  })

  test('shutdown drains in-flight requests, refuses new ones, then closes the store', async () => {
    const { running, ctx } = start()
    const inFlight = fetch(`${running.url}/fixture/slow`)
    await Bun.sleep(50)
    const stopped = running.shutdown('SIGTERM')
    // The request that was already running completes normally.
    const answer = await inFlight
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ schema_version: '2.0', slept_ms: 300 })
    await stopped
    // Nothing listens any more, and the store is closed.
    await expect(fetch(`${running.url}/health`)).rejects.toThrow()
    expect(await ctx.store.ping()).toBe(false)
    const messages = ctx.logs.map((line) => line.msg)
    expect(messages).toContain('shutting down: draining in-flight requests')
    expect(messages).toContain('stopped')
  })

  test('a request that arrives while draining is refused with 503 SHUTTING_DOWN', async () => {
    const { running, ctx } = start()
    ctx.lifecycle.draining = true
    const answer = await fetch(`${running.url}/health`)
    expect(answer.status).toBe(503)
    expect(await answer.json()).toMatchObject({ error: true, code: 'SHUTTING_DOWN' })
    expect(answer.headers.get('retry-after')).toBe('5')
    await running.shutdown('test')
  })

  test('a second signal during shutdown does not stop the server twice', async () => {
    const { running, ctx } = start()
    await Promise.all([running.shutdown('SIGTERM'), running.shutdown('SIGINT')])
    expect(ctx.logs.filter((line) => line.msg === 'stopped')).toHaveLength(1)
  })
})
