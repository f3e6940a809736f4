import { afterAll } from 'bun:test'
import pino from 'pino'
import { type RunningSandbox, startSandbox } from '../../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../../sandbox/options.ts'
import { createApp } from '../../src/app.ts'
import { createContext, type ServiceContext } from '../../src/context.ts'
import { loadConfig } from '../../src/settings.ts'
import type { Service } from '../../src/http/front-door.ts'
import { startWatchEngine } from '../../plugins/watch/index.ts'
import { type RunningServer, startServer } from '../../src/http/server.ts'

/** The service's context on `sandbox`, as `npm start` configures it (in-memory store, silent logs); `settings` win. */
export function sandboxContext(sandbox: RunningSandbox, settings: Record<string, string> = {}): ServiceContext {
  return createContext(
    loadConfig({ ...sandbox.serviceSettings, PORT: '0', DATA_DIR: ':memory:', LOG_LEVEL: 'silent', ...settings }),
    { logger: pino({ level: 'silent' }) },
  )
}

export interface LiveService {
  sandbox: RunningSandbox
  ctx: ServiceContext
  running: RunningServer
  /** What the server serves: the front door in front of the app (for in-process calls). */
  service: Service
  /** The mint of a sandbox scenario, by name. */
  mintOf(name: string): string
}

/**
 * The whole service on a fresh sandbox, over HTTP on loopback, as `npm start` runs it (its payment gate
 * and its watch engine started: `watchClock` is the engine's, for a test that moves past a paid period;
 * `watch` the engine's other settings, e.g. how long an alert waits for its exit on a loaded machine);
 * stopped after the file's tests.
 */
export async function liveService(
  settings: Record<string, string> = {},
  options: { watchClock?: () => number; watch?: Parameters<typeof startWatchEngine>[1] } = {},
): Promise<LiveService> {
  const sandbox = await startSandbox(ephemeralSandboxOptions())
  const ctx = sandboxContext(sandbox, settings)
  await ctx.payments.start()
  const service = createApp(ctx)
  const running = startServer(service, ctx)
  await startWatchEngine(ctx, {
    ...(options.watchClock ? { now: options.watchClock } : {}),
    ...options.watch,
  })
  afterAll(async () => {
    await running.shutdown('test over')
    await sandbox.stop()
  })
  const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
  return { sandbox, ctx, running, service, mintOf }
}
