import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import pino from 'pino'
import { startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'
import { createApp } from '../../src/app.ts'
import { createContext } from '../../src/context.ts'
import { loadConfig } from '../../src/settings.ts'
import { send } from '../../test/support/app.ts'
import { scanRequest } from '../../test/support/service.ts'
import { WAIVED_PAYMENTS } from '../../test/support/payments.ts'
import { quickGradePlugin } from './index.ts'

// The worked example of docs/architecture.md ("How to add …"): this folder, mounted as one line of the
// plugin list would mount it, called through the app. The page shows these files as they are.

const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())

/** The service on `settings` with the example plugin after the built-in ones. */
function serviceWith(settings: Record<string, string>) {
  const ctx = createContext(loadConfig({ DATA_DIR: ':memory:', LOG_LEVEL: 'silent', ...settings }), {
    logger: pino({ level: 'silent' }),
    payments: WAIVED_PAYMENTS,
  })
  return { ctx, app: createApp(ctx, { plugins: [quickGradePlugin(ctx)] }) }
}

describe('the worked example: a scanner in one folder', () => {
  test('answers through the app: the quick scan’s grade, in brief', async () => {
    const { app } = serviceWith(sandbox.serviceSettings)
    const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
    const response = await app.handle(scanRequest('/example/quick-grade', { token_address: mint }))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ schema_version: '2.0', token_address: mint, grade: 'A' })
  })

  test('is priced, advertised and validated from its manifest', async () => {
    const { app, ctx } = serviceWith(sandbox.serviceSettings)
    expect(ctx.registry.prices()).toContainEqual(
      expect.objectContaining({ route: 'POST /example/quick-grade', usd: '0.01' }),
    )
    const refused = await app.handle(scanRequest('/example/quick-grade', { token_address: 'not-a-mint' }))
    expect(refused.status).toBe(400)
  })

  test('without its source it is off: not served, and /health says why', async () => {
    const { app } = serviceWith({})
    const health = await send(app, 'GET', '/health')
    expect(health.json.routes_off).toContainEqual({
      routes: ['POST /example/quick-grade'],
      why: 'SOLANA_RPC_URL is not set: the quick grade reads the token on chain',
    })
    const response = await app.handle(
      scanRequest('/example/quick-grade', { token_address: sandbox.file.scenarios[0]!.mint }),
    )
    expect(response.status).toBe(404)
  })

  test.each(['manifest.ts', 'service.ts', 'index.ts'])('docs/architecture.md shows %s as it is', async (file) => {
    const page = await Bun.file(join(import.meta.dir, '..', '..', 'docs', 'architecture.md')).text()
    const opening = `\`\`\`ts\n// examples/quick-grade/${file}\n`
    const start = page.indexOf(opening)
    expect(start).toBeGreaterThan(-1)
    const shown = page.slice(start + opening.length, page.indexOf('```', start + opening.length))
    expect(shown).toBe(await Bun.file(join(import.meta.dir, file)).text())
  })
})
