import { headersSetting, type Config } from './kernel/config.ts'
import { HealthBoard } from './kernel/health.ts'
import { createLogger, flushLogs, type Logger } from './kernel/logger.ts'
import { startTracing, stopTracing } from './kernel/tracing.ts'
import { SERVICE_VERSION } from './kernel/version.ts'
import { Registry } from './kernel/manifest.ts'
import { openStore, type Store } from './store/index.ts'
import type { Sources } from './facts/token-context.ts'
import { type Attestor, loadAttestor } from './attest/attestation.ts'
import { createSources } from './sources/index.ts'
import { SignalRegistry } from './pipeline/registry.ts'
import { QuickGrades } from './pipeline/quick-grades.ts'
import type { LaunchFollower } from './store/launches.ts'
import { BUILTIN_SIGNALS } from '../signals/index.ts'
import { FacilitatorClient, probeFacilitator } from './payments/facilitator.ts'
import { PaymentGate } from './payments/gate.ts'
import { UNCONFIGURED_PAYMENTS, type Payments } from './payments/payments.ts'
import { PAY_TO_SETTING, paymentRails } from './payments/rails.ts'
import { SETTLING_SLACK_MS } from './payments/recovery.ts'
import { SettlementChecker } from './payments/settlement-check.ts'
import { cdpAuthorizer } from './payments/cdp-auth.ts'
import { HttpJsonSource } from './sources/http-json.ts'
import { CallMeter } from './sources/upstream.ts'

/** Everything a plugin needs, built once per process and passed down explicitly (no globals). */
export interface ServiceContext {
  config: Config
  logger: Logger
  store: Store
  registry: Registry
  health: HealthBoard
  startedAt: number
  /** This process's identity (random per start): what it marks as its own work in shared state. */
  instanceId: string
  /**
   * Set when shutdown begins: new requests are refused with 503 while in-flight ones finish. `onDrain`:
   * what ends when draining begins — long-lived answers (a watch's event stream) close then, or the
   * drain would wait for them until its grace period is over.
   */
  lifecycle: { draining: boolean; onDrain: Set<() => void> }
  /**
   * What runs beside the HTTP server and stops with the service (a feature's engine, started by main.ts
   * or a test): stopped by closeContext once the server has drained, last started first.
   */
  background: { name: string; stop(): Promise<void> }[]
  /** The upstream sources named by config (absent ones make their facts missing). */
  sources: Sources
  /** Every signal the scanners run: the built-ins and the third-party packages of SIGNAL_PLUGINS. */
  signals: SignalRegistry
  /** The launchpad ingester this instance runs (started by main.ts, or a test); absent when it runs none. */
  launchpad?: LaunchFollower
  /** The quick scan's grade of the tokens a feed names: coalesced, cached a minute, a few cold scans at a time. */
  grades: QuickGrades
  /**
   * Payments of the priced routes: the x402 gate over the facilitator, or without a FACILITATOR_URL
   * payments that refuse every call (503: no payment can be taken).
   */
  payments: Payments
  /** Signs the attestation every paid answer carries (docs/attestations.md). */
  attestor: Attestor
}

export interface ContextOverrides {
  logger?: Logger
  store?: Store
  signals?: SignalRegistry
  /**
   * Other payments: tests of what a priced route computes pass payments that admit every call
   * (test/support/payments.ts). The service itself never sets this.
   */
  payments?: Payments
}

export function createContext(config: Config, overrides: ContextOverrides = {}): ServiceContext {
  const store = overrides.store ?? openStore(config)
  const health = new HealthBoard()
  health.register('store', { observe: async () => ((await store.ping()) ? 'ok' : 'down'), local: true })
  const logger = overrides.logger ?? createLogger(config)
  const sources = createSources(config, health)
  const signals = overrides.signals ?? new SignalRegistry(BUILTIN_SIGNALS)
  const instanceId = crypto.randomUUID()
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT)
    startTracing({
      endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      headers: config.OTEL_EXPORTER_OTLP_HEADERS,
      serviceName: config.OTEL_SERVICE_NAME,
      serviceVersion: SERVICE_VERSION,
      instanceId,
    })
  return {
    config,
    logger,
    store,
    registry: new Registry(),
    health,
    startedAt: Date.now(),
    instanceId,
    lifecycle: { draining: false, onDrain: new Set() },
    background: [],
    sources,
    signals,
    grades: new QuickGrades(sources, signals, logger),
    payments: overrides.payments ?? createPaymentGate(config, store, health, logger, sources),
    attestor: loadAttestor(config.ATTESTATION_KEY, config.DATA_DIR).attestor,
  }
}

function createPaymentGate(
  config: Config,
  store: Store,
  health: HealthBoard,
  logger: Logger,
  sources: ServiceContext['sources'],
): Payments {
  if (!config.FACILITATOR_URL) return UNCONFIGURED_PAYMENTS
  const facilitator = new FacilitatorClient({
    url: config.FACILITATOR_URL,
    headers: headersSetting(config, 'FACILITATOR_HEADERS'),
    verifyBudgetMs: config.FACILITATOR_VERIFY_BUDGET_MS,
    settleTimeoutMs: config.FACILITATOR_SETTLE_TIMEOUT_MS,
    authorize:
      config.CDP_API_KEY_ID && config.CDP_API_KEY_SECRET
        ? cdpAuthorizer(config.CDP_API_KEY_ID, config.CDP_API_KEY_SECRET)
        : undefined,
  })
  const rails = paymentRails(config)
  health.register('facilitator', {
    observe: () => facilitator.observed(),
    probe: () => probeFacilitator(facilitator, rails),
  })
  logger.info({ rails: rails.map((rail) => `${rail.name} ${rail.network} → ${rail.payTo}`) }, 'payment rails')
  // A rail's other settings without its payee: the rail is off, which a hurried operator may not mean.
  for (const [name, setting] of Object.entries(PAY_TO_SETTING)) {
    const prefix = `${name.toUpperCase()}_PAYMENT_`
    const stray = Object.keys(config).filter(
      (key) => key.startsWith(prefix) && config[key as keyof Config] !== undefined,
    )
    if (config[setting] === undefined && stray.length > 0)
      logger.warn({ set: stray }, `${stray.join(', ')} set without ${setting}: the ${name} rail is not offered`)
  }
  const checker = new SettlementChecker({
    solana: sources.solana?.rpc(new CallMeter()),
    evm: config.BASE_RPC_URL ? new HttpJsonSource({ name: 'base_rpc', baseUrl: config.BASE_RPC_URL }) : undefined,
  })
  return new PaymentGate({
    rails,
    ledger: store.ledger,
    facilitator,
    logger,
    sharedLedger: config.REDIS_URL !== undefined,
    checker,
    // A call holds a payment `settling` no longer than the facilitator's settle timeout.
    settlingBoundMs: config.FACILITATOR_SETTLE_TIMEOUT_MS + SETTLING_SLACK_MS,
  })
}

/** Closes what the context opened; the HTTP server must already be stopped. */
export async function closeContext(ctx: ServiceContext): Promise<void> {
  ctx.health.stop()
  await ctx.payments.stop()
  for (const running of [...ctx.background].reverse()) await running.stop()
  await ctx.launchpad?.stop()
  await ctx.store.close()
  if (ctx.config.OTEL_EXPORTER_OTLP_ENDPOINT) await stopTracing()
  await flushLogs(ctx.logger)
}
