#!/usr/bin/env bun
/**
 * `solsentry`: the service from a terminal. Readable answers for people (a grade badge, the findings
 * that decided it, coloured severities, a progress line while a scan runs), `--json` for scripts.
 *
 *   solsentry quick <mint>            solsentry trade <mint> --amount <atomic> [--from <mint>] [--slippage <bps>]
 *   solsentry intel <mint>            solsentry status <job_id>
 *   solsentry deep <mint>             solsentry pairs | currencies
 *   solsentry exit <mint> [--size <usdc>] [--home base|ethereum|arbitrum|optimism|polygon]
 *   solsentry wallet <address>
 *   solsentry launches [--stage new_creation|near_completion|both] [--preset none|safe|strict] [--limit 20]
 *   solsentry graduating [--min-progress 50] [--limit 20]
 *   solsentry smart-money [--interval 1h] [--limit 10]
 *   solsentry momentum [--min-progress 60] [--limit 5]
 *   solsentry trending [--interval 1h] [--sort trending|volume|organic] [--limit 20] [--focus <mint>]
 *   solsentry radar [--interval 1h] [--min-signals 2] [--limit 10] [--focus <mint>]
 *   solsentry news [<ticker or mint>] [--mode pulse|brief|cohorts|report] [--hours 24]
 *   solsentry suggest [--appetite balanced] [--source both] [--stake 100] [--interval 1h]
 *   solsentry serve | sandbox | doctor   solsentry mcp   (a local MCP server over stdio that pays for you)
 *
 * The wallet: --keypair <file> or SOLSENTRY_KEYPAIR (a Solana keypair file), --evm-key or
 * SOLSENTRY_EVM_KEY (an EVM private key). The service: --url or SOLSENTRY_URL. Spend: --max-usd (per
 * call, never above the route's published price) and --budget (per run, in USD).
 */
import { join } from 'node:path'
import { evmAccount, Solsentry, SolsentryError, solanaKeypairFile, type Wallet } from './index.ts'
import {
  renderDeepDive,
  renderExitCheck,
  renderExitCrossCheck,
  renderGraduationMomentum,
  renderGraduationRadar,
  renderLaunchRadar,
  renderJob,
  renderMarketIntel,
  renderNews,
  renderSuggestion,
  type NewsAnswer,
  renderQuickScan,
  renderSmartMoney,
  renderSignalRadar,
  renderTrending,
  renderWalletIntel,
  type Style,
} from './render.ts'

const ROOT = join(import.meta.dir, '..')
/** The client package's version (client/package.json). */
const CLIENT_VERSION: string = (await Bun.file(join(import.meta.dir, 'package.json')).json()).version
const SOL_MINT = 'So11111111111111111111111111111111111111112'

const USAGE = `usage: solsentry <command> [options]

commands
  quick <mint>        structural safety check, A to F (0.02 USD)
  intel <mint>        market signal: price, volume, pressure (0.20 USD)
  deep <mint>         adversarial deep dive with a recommendation (0.50 USD)
  trade <mint> --amount <atomic units> [--from <mint>] [--slippage <bps>]
                      buy <mint> with your own wallet: quote, sign locally, execute (0.15 USD on confirmation)
  exit <mint> [--size <usdc>] [--home base|ethereum|arbitrum|optimism|polygon]
                      can you sell back to USDC now, and what could stop it (0.01 USD);
                      with --home, then bridged home to that chain (0.01 USD)
  wallet <address>    who is this wallet: trades, record, style, funding (0.10 USD)
  launches [--stage new_creation|near_completion|both] [--preset none|safe|strict] [--limit n] [--focus <mint>]
                      live launchpad coins, manipulation flags, grades (0.05 USD)
  graduating [--min-progress 50] [--limit n] [--focus <mint>]
                      bonding curves about to graduate, soonest first (0.06 USD)
  momentum [--min-progress 60] [--limit n] [--focus <mint>]
                      the near-graduation curves with momentum, scored and checked (0.40 USD)
  smart-money [--interval 5m|1h|6h|24h] [--limit n] [--focus <mint>]
                      launchpad coins proven wallets are buying (0.05 USD)
  trending [--interval 5m|1h|6h|24h] [--sort trending|volume|organic] [--limit n] [--focus <mint>]
                      what is trading now, each token graded (0.02 USD)
  radar [--interval 5m|1h|6h|24h] [--min-signals n] [--limit n] [--focus <mint>]
                      where bullish signals converge, each token graded (0.04 USD)
  news [<ticker or mint>] [--mode pulse|brief|cohorts|report] [--hours n]
                      what people say about a token or (no symbol) the market: the lean (0.01 USD),
                      a brief (0.05), by cohort with coordination (0.10), a full report (0.25)
  suggest [--appetite conservative|balanced|aggressive] [--source signal|launch|both] [--stake <usd>] [--interval 5m|1h|6h|24h]
                      one trade idea from the radars, checked by every scanner, with a plan sized
                      from --stake, the most you would put in (0.60 USD)
  status <job_id>     a trade's state
  pairs               tokens you can trade
  currencies          how calls can be paid
  mcp                 a local MCP server (stdio) for agent hosts; pays from your wallet
  serve               run the service (settings from the environment)
  doctor              check the service's settings and upstreams: what works, what is refused, what to change
  sandbox             run the offline sandbox and the service on it (as npm start)

options
  --url <url>         the service (SOLSENTRY_URL; default http://127.0.0.1:8402)
  --keypair <file>    Solana keypair file paying and signing (SOLSENTRY_KEYPAIR)
  --evm-key <hex>     EVM private key paying on Base (SOLSENTRY_EVM_KEY)
  --solana-rpc <url>  Solana RPC for the payment signer (SOLSENTRY_SOLANA_RPC)
  --max-usd <usd>     the most one call may cost (default and ceiling: its published price)
  --budget <usd>      the most this run may spend
  --json              the answer as JSON, for scripts
  --help, --version   this text / the client's version
`

interface Parsed {
  command: string | undefined
  args: string[]
  flags: Map<string, string | true>
}

function parse(argv: string[]): Parsed {
  const args: string[] = []
  const flags = new Map<string, string | true>()
  const valued = new Set([
    'url',
    'keypair',
    'evm-key',
    'solana-rpc',
    'max-usd',
    'budget',
    'amount',
    'from',
    'slippage',
    'size',
    'home',
    'interval',
    'sort',
    'limit',
    'focus',
    'min-signals',
    'stage',
    'preset',
    'min-progress',
    'mode',
    'hours',
    'appetite',
    'source',
    'stake',
  ])
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      args.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined]
    if (valued.has(name)) flags.set(name, inline ?? argv[++i] ?? '')
    else flags.set(name, true)
  }
  return { command: args.shift(), args, flags }
}

const text = (flags: Parsed['flags'], name: string, env?: string): string | undefined => {
  const value = flags.get(name)
  return typeof value === 'string' && value !== '' ? value : env ? process.env[env] || undefined : undefined
}

/** The feed options every feed command takes; `--sort` only where the route has it (the service refuses the rest). */
function feedOptions(flags: Parsed['flags']) {
  const options: { interval?: never; sort?: never; limit?: number; token_address?: string } = {}
  const interval = text(flags, 'interval')
  const sort = text(flags, 'sort')
  const limit = text(flags, 'limit')
  const focus = text(flags, 'focus')
  if (interval) options.interval = interval as never
  if (sort) options.sort = sort as never
  if (limit) options.limit = Number(limit)
  if (focus) options.token_address = focus
  return options
}

/** The client the command made (its verified attestations are shown under the answer). */
let made: Solsentry | undefined

async function clientOf(flags: Parsed['flags']): Promise<Solsentry> {
  const wallet: Wallet = {}
  const keypair = text(flags, 'keypair', 'SOLSENTRY_KEYPAIR')
  if (keypair) wallet.solana = await solanaKeypairFile(keypair)
  const evmKey = text(flags, 'evm-key', 'SOLSENTRY_EVM_KEY')
  if (evmKey) wallet.evm = evmAccount(evmKey)
  made = new Solsentry({
    url: text(flags, 'url'),
    wallet,
    solanaRpcUrl: text(flags, 'solana-rpc'),
    maxPerCallUsd: text(flags, 'max-usd'),
    budgetUsd: text(flags, 'budget'),
  })
  return made
}

/** The last verified attestation, in a line: who signed, at which slot, for which payment. */
function attestationLine(): string {
  const statement = made?.attestations.at(-1)
  if (!statement) return ''
  const payment = statement.payment ? `, payment ${statement.payment.transaction.slice(0, 16)}…` : ''
  return `\nattested ✓ by ${statement.key} (slot ${statement.slot ?? 'unknown'}${payment})`
}

/** A progress line on stderr while `work` runs (a terminal only): what runs and for how long. */
async function withProgress<T>(label: string, work: Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return work
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
  const started = Date.now()
  let frame = 0
  const timer = setInterval(() => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    process.stderr.write(`\r${frames[frame++ % frames.length]} ${label} ${seconds} s`)
  }, 100)
  try {
    return await work
  } finally {
    clearInterval(timer)
    process.stderr.write('\r\x1b[2K')
  }
}

/** Runs a script of this repository with Bun, in the foreground (serve, sandbox). */
async function runScript(path: string, args: string[] = []): Promise<number> {
  const child = Bun.spawn([process.execPath, join(ROOT, path), ...args], { stdio: ['inherit', 'inherit', 'inherit'] })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
  return child.exited
}

export async function main(argv: string[]): Promise<number> {
  const { command, args, flags } = parse(argv)
  const json = flags.has('json')
  const style: Style = { color: !json && process.stdout.isTTY === true && !process.env.NO_COLOR }
  const print = (answer: unknown, human: () => string) =>
    console.log(json ? JSON.stringify(answer, null, 2) : `${human()}${attestationLine()}`)
  const mint = () => {
    const value = args[0]
    if (!value)
      throw new SolsentryError('USAGE', `${command} needs a token mint address: solsentry ${command} <mint>`, 0)
    return value
  }

  switch (command) {
    case 'quick': {
      const solsentry = await clientOf(flags)
      const scan = await withProgress('quick scan', solsentry.quickScan(mint()))
      print(scan, () => renderQuickScan(style, scan))
      return 0
    }
    case 'intel': {
      const solsentry = await clientOf(flags)
      const intel = await withProgress('market intel', solsentry.marketIntel(mint()))
      print(intel, () => renderMarketIntel(style, { ...intel, token_address: mint() }))
      return 0
    }
    case 'deep': {
      const solsentry = await clientOf(flags)
      const dive = await withProgress('deep dive (up to 30 s)', solsentry.deepDive(mint()))
      print(dive, () => renderDeepDive(style, dive))
      return 0
    }
    case 'exit': {
      const solsentry = await clientOf(flags)
      const size = text(flags, 'size')
      const home = text(flags, 'home')
      if (home) {
        const check = await withProgress(
          'exit cross-check',
          solsentry.exitCrossCheck({
            token_address: mint(),
            home_chain: home as never,
            ...(size ? { size_usdc: Number(size) } : {}),
          }),
        )
        print(check, () => renderExitCrossCheck(style, check))
        return 0
      }
      const exit = await withProgress('exit check', solsentry.exitCheck(mint(), size ? Number(size) : undefined))
      print(exit, () => renderExitCheck(style, exit))
      return 0
    }
    case 'wallet': {
      const solsentry = await clientOf(flags)
      const address = args[0]
      if (!address) throw new SolsentryError('USAGE', 'wallet needs a wallet address: solsentry wallet <address>', 0)
      const wallet = await withProgress('wallet intel (up to 20 s)', solsentry.walletIntel(address))
      print(wallet, () => renderWalletIntel(style, wallet))
      return 0
    }
    case 'launches': {
      const solsentry = await clientOf(flags)
      const stage = text(flags, 'stage')
      const preset = text(flags, 'preset')
      const radar = await withProgress(
        'launch radar',
        solsentry.launchRadar({
          ...feedOptions(flags),
          ...(stage ? { stage: stage as never } : {}),
          ...(preset ? { preset: preset as never } : {}),
        }),
      )
      print(radar, () => renderLaunchRadar(style, radar))
      return 0
    }
    case 'momentum': {
      const solsentry = await clientOf(flags)
      const min = text(flags, 'min-progress')
      const feed = await withProgress(
        'graduation momentum (up to 15 s)',
        solsentry.graduationMomentum({
          ...(text(flags, 'limit') ? { limit: Number(text(flags, 'limit')) } : {}),
          ...(text(flags, 'focus') ? { token_address: text(flags, 'focus') } : {}),
          ...(min ? { min_progress_pct: Number(min) } : {}),
        }),
      )
      print(feed, () => renderGraduationMomentum(style, feed))
      return 0
    }
    case 'smart-money': {
      const solsentry = await clientOf(flags)
      const interval = text(flags, 'interval')
      const feed = await withProgress(
        'smart money',
        solsentry.smartMoney({
          ...(interval ? { interval: interval as never } : {}),
          ...(text(flags, 'limit') ? { limit: Number(text(flags, 'limit')) } : {}),
          ...(text(flags, 'focus') ? { token_address: text(flags, 'focus') } : {}),
        }),
      )
      print(feed, () => renderSmartMoney(style, feed))
      return 0
    }
    case 'graduating': {
      const solsentry = await clientOf(flags)
      const min = text(flags, 'min-progress')
      const radar = await withProgress(
        'graduation radar',
        solsentry.graduationRadar({
          ...(text(flags, 'limit') ? { limit: Number(text(flags, 'limit')) } : {}),
          ...(text(flags, 'focus') ? { token_address: text(flags, 'focus') } : {}),
          ...(min ? { min_progress_pct: Number(min) } : {}),
        }),
      )
      print(radar, () => renderGraduationRadar(style, radar))
      return 0
    }
    case 'news': {
      const solsentry = await clientOf(flags)
      const hours = text(flags, 'hours')
      const request = { symbol: args[0] ?? '', ...(hours ? { window_hours: Number(hours) } : {}) }
      const mode = text(flags, 'mode') ?? 'pulse'
      const calls: Record<string, () => Promise<NewsAnswer>> = {
        pulse: () => solsentry.newsPulse(request),
        brief: () => solsentry.newsBrief(request),
        cohorts: () => solsentry.newsPulsePlus(request),
        report: () => solsentry.newsReport(request),
      }
      const call = calls[mode]
      if (!call) throw new SolsentryError('USAGE', 'news --mode is pulse, brief, cohorts or report', 0)
      const answer = await withProgress(`news ${mode}`, call())
      print(answer, () => renderNews(style, answer))
      return 0
    }
    case 'suggest': {
      const solsentry = await clientOf(flags)
      const appetite = text(flags, 'appetite')
      const source = text(flags, 'source')
      const stake = text(flags, 'stake')
      const interval = text(flags, 'interval')
      const suggestion = await withProgress(
        'trade suggestion (up to 45 s)',
        solsentry.tradeSuggest({
          ...(appetite ? { risk_appetite: appetite as never } : {}),
          ...(source ? { source: source as never } : {}),
          ...(stake ? { budget_usd: Number(stake) } : {}),
          ...(interval ? { interval: interval as never } : {}),
        }),
      )
      print(suggestion, () => renderSuggestion(style, suggestion))
      return 0
    }
    case 'trending': {
      const solsentry = await clientOf(flags)
      const feed = await withProgress('trending', solsentry.trending(feedOptions(flags)))
      print(feed, () => renderTrending(style, feed))
      return 0
    }
    case 'radar': {
      const solsentry = await clientOf(flags)
      const minSignals = text(flags, 'min-signals')
      const radar = await withProgress(
        'signal radar',
        solsentry.signalRadar({ ...feedOptions(flags), ...(minSignals ? { min_signals: Number(minSignals) } : {}) }),
      )
      print(radar, () => renderSignalRadar(style, radar))
      return 0
    }
    case 'trade': {
      const solsentry = await clientOf(flags)
      const amount = text(flags, 'amount')
      if (!amount) throw new SolsentryError('USAGE', 'trade needs --amount <atomic units of the input token>', 0)
      const slippage = text(flags, 'slippage')
      const job = await withProgress(
        'trade',
        solsentry.trade({
          inputMint: text(flags, 'from') ?? SOL_MINT,
          outputMint: mint(),
          amountIn: amount,
          ...(slippage ? { slippageBps: Number(slippage) } : {}),
        }),
      )
      print(job, () => renderJob(style, job))
      return (job as { status: string }).status === 'CONFIRMED' ? 0 : 1
    }
    case 'status': {
      const job = await (await clientOf(flags)).status(mint())
      print(job, () => renderJob(style, job))
      return 0
    }
    case 'pairs': {
      const pairs = await (await clientOf(flags)).pairs()
      print(pairs, () => pairs.pairs.map((pair) => `${pair.symbol.padEnd(10)} ${pair.mint}  ${pair.name}`).join('\n'))
      return 0
    }
    case 'currencies': {
      const currencies = await (await clientOf(flags)).currencies()
      print(currencies, () => JSON.stringify(currencies, null, 2))
      return 0
    }
    case 'mcp': {
      const { runBridge } = await import('./mcp-bridge.ts')
      await runBridge(await clientOf(flags))
      return 0
    }
    case 'serve':
      return runScript('src/main.ts')
    case 'doctor':
      return runScript('src/main.ts', json ? ['doctor', '--json'] : ['doctor'])
    case 'sandbox':
      return runScript('sandbox/launch.ts')
    case undefined:
    case 'help':
      if (flags.has('version')) {
        console.log(`solsentry ${CLIENT_VERSION}`)
        return 0
      }
      console.log(USAGE)
      return command || flags.has('help') ? 0 : 2
    default:
      console.error(`unknown command ${command}\n\n${USAGE}`)
      return 2
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await main(process.argv.slice(2))
  } catch (error) {
    if (error instanceof SolsentryError) {
      console.error(
        `solsentry: ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`,
      )
      process.exitCode = error.code === 'USAGE' ? 2 : 1
    } else throw error
  }
}
