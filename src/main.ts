import { USDC_MINT_ADDRESS } from './onchain/programs.ts'
import { acpNodeMarket } from '../plugins/acp/acp-node.ts'
import { acpSeller } from '../plugins/acp/seller.ts'
import { createApp } from './app.ts'
import { startLaunchIngester } from './launchpad-index/index.ts'
import { startWatchEngine } from '../plugins/watch/index.ts'
import type { Service } from './http/front-door.ts'
import { ConfigError, type Config } from './kernel/config.ts'
import { loadConfig } from './settings.ts'
import { createContext, type ServiceContext } from './context.ts'
import { ManifestError } from './kernel/manifest.ts'
import { startServer, type RunningServer } from './http/server.ts'
import { loadSignalPackages, SignalRegistry, SignalRegistryError } from './pipeline/registry.ts'
import { BUILTIN_SIGNALS } from '../signals/index.ts'
import { renderDoctor, runDoctor } from './doctor.ts'
import { SERVICE_VERSION } from './kernel/version.ts'
import { runtimeVersion } from './runtime/runtime.ts'

export interface ServiceOptions {
  /** Runs after the service has drained and closed, before the process exits (e.g. stop a sandbox). */
  afterShutdown?: () => Promise<void>
}

/**
 * Starts the service from environment-style settings: validates the configuration (a bad value exits
 * with code 78 and one line), builds the app, listens, and drains on SIGTERM/SIGINT.
 */
/** The settings from `env`, or exit 78 with one line naming the bad one. */
function configOrExit(env: Record<string, string | undefined>): Config {
  try {
    return loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) exit(`configuration error: ${error.message}`)
    throw error
  }
}

export async function runService(
  env: Record<string, string | undefined>,
  options: ServiceOptions = {},
): Promise<RunningServer> {
  const config = configOrExit(env)
  let signals: SignalRegistry
  try {
    signals = new SignalRegistry(BUILTIN_SIGNALS, await loadSignalPackages(config.SIGNAL_PLUGINS))
  } catch (error) {
    if (error instanceof SignalRegistryError) exit(`signal error: ${error.message}`)
    throw error
  }
  const ctx = createContext(config, { signals })
  let app: Service
  try {
    app = createApp(ctx)
  } catch (error) {
    if (error instanceof ManifestError) exit(`plugin manifest error: ${error.message}`)
    throw error
  }
  // The facilitator is asked for its fee payers in the background: free routes serve meanwhile.
  await ctx.payments.reconcile()
  void ctx.payments.start()
  let running: RunningServer
  try {
    running = startServer(app, ctx)
  } catch (error) {
    // A port taken by another process: refused by both runtimes (Bun's port sharing is off, src/runtime/serve.ts).
    exit(`cannot listen on ${config.HOST}:${config.PORT}: ${(error as Error).message}`)
  }
  ctx.health.start(config.HEALTH_PROBE_INTERVAL_MS)
  ctx.logger.info(
    {
      url: running.url,
      profile: config.SOLSENTRY_PROFILE,
      routes: ctx.registry.routes().length,
      runtime: runtimeVersion(),
    },
    'listening',
  )
  for (const { routes, why } of ctx.registry.off()) ctx.logger.warn({ routes }, `routes off: ${why}`)
  void probeRpc(ctx)
  startLaunchIngester(ctx)
  // The position guard's engine resumes its watches in the background: POST /watch answers 503 meanwhile.
  void startWatchEngine(ctx).catch((error: Error) =>
    ctx.logger.error({ err: error.message }, 'watch engine: not started, watches are not followed'),
  )
  void sellOnAcp(ctx, app)
  if (config.SOLSENTRY_PROFILE === 'mainnet' && config.JUPITER_URL && !config.JUPITER_API_KEY)
    ctx.logger.warn(
      { jupiter: config.JUPITER_URL },
      'no JUPITER_API_KEY: Jupiter answers at its keyless rate, token-list facts and trade quotes will be slow or refused; get a key at portal.jup.ag',
    )
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      running
        .shutdown(signal)
        .then(() => options.afterShutdown?.())
        .then(
          () => process.exit(0),
          (error) => {
            console.error('solsentry: shutdown failed:', error)
            process.exit(1)
          },
        )
    })
  return running
}

/**
 * With the ACP settings, sells the paid scanners on the Virtuals ACP marketplace (docs/acp.md): its
 * buyers pay the marketplace's escrow, and each job runs through the same front door and ledger.
 */
async function sellOnAcp(ctx: ServiceContext, service: Service): Promise<void> {
  const { ACP_SIGNER_PRIVATE_KEY, ACP_SESSION_ENTITY_KEY_ID, ACP_AGENT_WALLET_ADDRESS } = ctx.config
  if (!ACP_SIGNER_PRIVATE_KEY || ACP_SESSION_ENTITY_KEY_ID === undefined || !ACP_AGENT_WALLET_ADDRESS) return
  const market = acpNodeMarket({
    privateKey: ACP_SIGNER_PRIVATE_KEY as `0x${string}`,
    entityId: ACP_SESSION_ENTITY_KEY_ID,
    agentWallet: ACP_AGENT_WALLET_ADDRESS as `0x${string}`,
  })
  const seller = acpSeller(ctx, service, market)
  try {
    await seller.start()
    ctx.logger.info(
      { offerings: seller.offerings().map((offering) => offering.name) },
      'selling on the ACP marketplace',
    )
  } catch (error) {
    ctx.logger.error(
      { err: (error as Error).message },
      'the ACP marketplace could not be joined: ACP jobs are not served',
    )
  }
}

function exit(message: string): never {
  console.error(`solsentry: ${message}`)
  process.exit(78) // EX_CONFIG
}

const USAGE = `usage: solsentry [serve | doctor [--json] | --help | --version]

  serve        run the service (the default): settings from the environment (README, "Configuration")
  doctor       read the settings, ask every upstream one real call, print what works, what is refused
               and what to change; exits 1 when something the service needs fails (--json: the report)
  --help       this text
  --version    the service's version
`

/**
 * The command line of the compiled binary and of `bun src/main.ts`: the service alone against the URLs
 * in its settings, or the doctor, or help and version (which print and exit, binding no port).
 */
export async function runCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  const [command, ...rest] = argv
  switch (command) {
    case undefined:
    case 'serve':
      if (rest.length > 0)
        return usage(`serve takes no arguments (got ${rest.join(' ')}): settings come from the environment`)
      await runService(env)
      return
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE)
      process.exit(0)
      break
    case '--version':
    case '-v':
    case 'version':
      console.log(`solsentry ${SERVICE_VERSION}`)
      process.exit(0)
      break
    case 'doctor': {
      const json = rest.includes('--json')
      const unknown = rest.filter((arg) => arg !== '--json')
      if (unknown.length > 0) return usage(`doctor takes --json only (got ${unknown.join(' ')})`)
      const report = await runDoctor(configOrExit(env))
      console.log(json ? JSON.stringify(report, null, 2) : renderDoctor(report))
      process.exit(report.healthy ? 0 : 1)
      break
    }
    default:
      return usage(`unknown command ${command}`)
  }
}

function usage(problem: string): never {
  process.stderr.write(`solsentry: ${problem}\n\n${USAGE}`)
  process.exit(2) // EX_USAGE of the shells: a command line it cannot read
}

// The compiled binary and `bun src/main.ts` read their command line (no command: run the service).
if (import.meta.main) await runCommand(process.argv.slice(2), process.env)

/**
 * Learns once whether the RPC serves the largest accounts of a mint (Solana's public endpoint does
 * not), and says so in one line; /health shows it. Facts then skip a method known to be refused.
 */
async function probeRpc(ctx: ReturnType<typeof createContext>): Promise<void> {
  const solana = ctx.sources.solana
  if (!solana) return
  const state = await solana.probe(USDC_MINT_ADDRESS)
  const provider = solana.provider.name
  if (state === 'refused')
    ctx.logger.warn(
      { rpc_provider: provider, getTokenLargestAccounts: state },
      'getTokenLargestAccounts refused by the RPC: holder concentration comes from the token list (a keyed RPC reads holders on chain; docs/data-layer.md)',
    )
  else ctx.logger.info({ rpc_provider: provider, getTokenLargestAccounts: state }, 'rpc probed')
}
