import type { Config } from './config.ts'
import { HealthBoard } from './health.ts'
import { createLogger, flushLogs, type Logger } from './logger.ts'
import { Registry } from './manifest.ts'
import { openSqliteStore, type Store } from './store/index.ts'
import type { Sources } from './facts/context.ts'
import { createSources } from './sources/index.ts'
import { SignalRegistry } from './pipeline/registry.ts'
import { BUILTIN_SIGNALS } from '../signals/index.ts'

/** Everything a plugin needs, built once per process and passed down explicitly (no globals). */
export interface ServiceContext {
  config: Config
  logger: Logger
  store: Store
  registry: Registry
  health: HealthBoard
  startedAt: number
  /** Set when shutdown begins: new requests are refused with 503 while in-flight ones finish. */
  lifecycle: { draining: boolean }
  /** The upstream sources named by config (absent ones make their facts missing). */
  sources: Sources
  /** Every signal the scanners run: the built-ins and the third-party packages of SIGNAL_PLUGINS. */
  signals: SignalRegistry
}

export interface ContextOverrides {
  logger?: Logger
  store?: Store
  signals?: SignalRegistry
}

export function createContext(config: Config, overrides: ContextOverrides = {}): ServiceContext {
  const store = overrides.store ?? openSqliteStore(config.DATA_DIR)
  const health = new HealthBoard()
  health.register('store', async () => ((await store.ping()) ? 'ok' : 'down'))
  return {
    config,
    logger: overrides.logger ?? createLogger(config),
    store,
    registry: new Registry(),
    health,
    startedAt: Date.now(),
    lifecycle: { draining: false },
    sources: createSources(config, health),
    signals: overrides.signals ?? new SignalRegistry(BUILTIN_SIGNALS),
  }
}

/** Closes what the context opened; the HTTP server must already be stopped. */
export async function closeContext(ctx: ServiceContext): Promise<void> {
  await ctx.store.close()
  await flushLogs(ctx.logger)
}
