#!/usr/bin/env bun
/**
 * `solsentry`: the service from a terminal. Readable answers for people (a grade badge, the findings
 * that decided it, coloured severities, a progress line while a scan runs), `--json` for scripts.
 *
 *   solsentry quick <mint>            solsentry trade <mint> --amount <0.1> [--from <mint>] [--slippage <bps>] [--yes]
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
 * SOLSENTRY_EVM_KEY (an EVM private key). The service: --url (or --service) or SOLSENTRY_URL. The payment
 * signer's RPC: --solana-rpc or SOLSENTRY_SOLANA_RPC (on the sandbox, read from its world file when the
 * service is the sandbox's). Spend: --max-usd (per call, never above the route's published price) and
 * --budget (per run, in USD). Exit codes: one meaning each, CLI_EXIT_CODES (client/errors.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline/promises'
import { acceptedOf, cliWords, memberSchemaOf, optionOf } from './cli-words.ts'
import { exitCode, exitCodeLines } from './errors.ts'
import { parseTokenAmount, shortAddress } from './format.ts'
import {
  DEFAULT_URL,
  evmAccount,
  type InputOf,
  Solsentry,
  type WatchAlert,
  SolsentryError,
  solanaKeypairFile,
  type TradeJob,
  type TradeQuote,
  type Wallet,
} from './index.ts'
import {
  renderCurrencies,
  renderDeepDive,
  renderExitCheck,
  renderExitCrossCheck,
  renderGraduationMomentum,
  renderGraduationRadar,
  renderLaunchRadar,
  renderJob,
  renderMarketIntel,
  renderNews,
  renderHealth,
  renderPairs,
  renderSuggestion,
  type NewsAnswer,
  renderQuickScan,
  renderSmartMoney,
  renderQuickScanBatch,
  renderSignalRadar,
  renderTrending,
  renderTradePlan,
  renderWalletIntel,
  type Style,
  type TokenLabel,
} from './render.ts'
import { CLIENT_VERSION } from './version.ts'

const ROOT = join(import.meta.dirname, '..')
const SOL_MINT = 'So11111111111111111111111111111111111111112'

const USAGE = `usage: solsentry <command> [options]

commands
  quick <mint>        structural safety check, A to F (0.02 USD)
  batch <mint…> | batch --wallet <address> --max-usd <usd>
                      the quick scan of up to 50 mints in one payment, or of every token a wallet holds
                      up to --max-usd (0.015 USD per mint that is a token)
  watch <mint> --hours <n> [--webhook <url>] [--follow]
                      watch a token: told, signed, the moment it turns dangerous (0.01 USD per hour, paid
                      up front); --follow prints each alert as it comes until the period ends
  watch status <id> | watch cancel <id>
                      a watch you paid for (its alerts, their delivery), or cancel it (no refund)
  intel <mint>        market signal: price, volume, pressure (0.20 USD)
  deep <mint>         adversarial deep dive with a recommendation (0.50 USD)
  trade <mint or symbol> --amount <amount> [--from <mint or symbol>] [--slippage <bps>] [--yes]
                      buy <mint> with your own wallet: quote, sign locally, execute (0.15 USD on confirmation);
                      --amount in the input token's units (0.1 = 0.1 SOL, the default input); when the
                      risk gate warns, it shows the plan and asks first (--yes: do not ask)
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
  doctor              with --url or SOLSENTRY_URL: that service's health, each dependency and route;
                      without: check the settings in this environment (as solsentry serve would run with
                      them) and their upstreams — what works, what is refused, what to change
  sandbox             run the offline sandbox and the service on it (as npm start)

a <mint> is a token's mint address, or the symbol of a verified token (solsentry pairs lists them)

options
  --url <url>         the service (also --service; SOLSENTRY_URL; default http://127.0.0.1:8402)
  --keypair <file>    Solana keypair file paying and signing (SOLSENTRY_KEYPAIR)
  --evm-key <hex>     EVM private key paying on Base (SOLSENTRY_EVM_KEY)
  --solana-rpc <url>  Solana RPC for the payment signer (also --rpc; SOLSENTRY_SOLANA_RPC; on the sandbox, its own)
  --max-usd <usd>     the most one call may cost (default and ceiling: its published price)
  --budget <usd>      the most this run may spend
  --yes               trade without asking, even when the risk gate warns
  --json              the answer as JSON, for scripts
  --help, --version   this text (solsentry <command> --help: that command's) / the client's version

exit codes
${exitCodeLines()}
`

/** Other spellings of a flag: `--service` as `npm run pay` takes it, `--rpc` for short. */
const ALIASES: Record<string, string> = { service: 'url', rpc: 'solana-rpc' }

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
    'service',
    'rpc',
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
    'wallet',
    'webhook',
  ])
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      args.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined]
    if (valued.has(name)) {
      const value = inline ?? argv[i + 1]
      // `--limit` at the end, or followed by another option: never silently dropped.
      if (value === undefined || (inline === undefined && value.startsWith('--')) || value === '')
        throw new SolsentryError('USAGE', `--${name} needs a value: --${name} <value> (solsentry --help)`, 0)
      if (inline === undefined) i++
      flags.set(ALIASES[name] ?? name, value)
    } else if (SWITCHES.has(name)) flags.set(name, true)
    else {
      // Never ignored: a misspelled --budget would otherwise spend what it was meant to cap.
      const known = [...valued, ...SWITCHES]
      const near = nearest(known, name)
      throw new SolsentryError(
        'USAGE',
        `unknown option --${name}${near ? `: did you mean --${near}?` : ''} (solsentry --help lists them)`,
        0,
      )
    }
  }
  return { command: args.shift(), args, flags }
}

/** The options that take no value. */
const SWITCHES = new Set(['help', 'json', 'version', 'yes', 'follow'])

/** The candidate fewest edits away from `typed` (two at most), for "did you mean". */
function nearest(candidates: readonly string[], typed: string): string | undefined {
  const scored = candidates.map((candidate) => ({ candidate, distance: editDistance(candidate, typed) }))
  return scored.filter(({ distance }) => distance <= 2).sort((a, b) => a.distance - b.distance)[0]?.candidate
}

/** How many single-character edits turn `a` into `b` (Levenshtein), for "did you mean". */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}

const text = (flags: Parsed['flags'], name: string, env?: string): string | undefined => {
  const value = flags.get(name)
  return typeof value === 'string' && value !== '' ? value : env ? process.env[env] || undefined : undefined
}

/** The feed options every feed command takes; `--sort` only where the route has it (the service refuses the rest). */
async function feedOptions(solsentry: Solsentry, flags: Parsed['flags']) {
  const options: { interval?: never; sort?: never; limit?: number; token_address?: string } = {}
  const interval = text(flags, 'interval')
  const sort = text(flags, 'sort')
  const limit = text(flags, 'limit')
  const focus = text(flags, 'focus')
  if (interval) options.interval = interval as never
  if (sort) options.sort = sort as never
  if (limit) options.limit = Number(limit)
  if (focus) options.token_address = await mintOrSymbol(solsentry, focus, '--focus')
  return options
}

/** The client the command made (its verified attestations are shown under the answer). */
let made: Solsentry | undefined

/** What the command was run with, for the remedy under an error: where the URL came from, the sandbox's world. */
const context: {
  url: string
  urlFrom: string
  rpcSet: boolean
  world: SandboxWorld | undefined
} = { url: DEFAULT_URL, urlFrom: 'the default', rpcSet: false, world: undefined }

/** What the CLI reads of the sandbox's world file (sandbox/index.ts writes it; `npm start` adds service_url). */
interface SandboxWorld {
  service_url?: string
  urls?: { rpc?: string }
  buyer?: { keypair_path?: string }
  path: string
}

/** The sandbox's world file here (DATA_DIR/sandbox/world.json), when there is one. */
function sandboxWorld(): SandboxWorld | undefined {
  const path = `${process.env.DATA_DIR || './data'}/sandbox/world.json`
  try {
    return { ...(JSON.parse(readFileSync(path, 'utf8')) as Omit<SandboxWorld, 'path'>), path }
  } catch {
    return undefined
  }
}

const sameService = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

async function clientOf(flags: Parsed['flags']): Promise<Solsentry> {
  const world = sandboxWorld()
  context.world = world
  // The service: --url, SOLSENTRY_URL, else the sandbox's here (npm start wrote it, on whatever PORT), else 8402.
  const flagUrl = text(flags, 'url')
  const envUrl = process.env.SOLSENTRY_URL || undefined
  const url = flagUrl ?? envUrl ?? world?.service_url ?? DEFAULT_URL
  context.url = url
  context.urlFrom = flagUrl
    ? '--url'
    : envUrl
      ? 'SOLSENTRY_URL'
      : world?.service_url
        ? `the sandbox's world file ${world.path} (no --url or SOLSENTRY_URL)`
        : 'the default (no --url or SOLSENTRY_URL)'
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {}
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new SolsentryError('USAGE', `${url} (from ${context.urlFrom}) is not a URL: write it as http://host:port`, 0)
  const wallet: Wallet = {}
  const keypair = text(flags, 'keypair', 'SOLSENTRY_KEYPAIR')
  if (keypair)
    try {
      wallet.solana = await solanaKeypairFile(keypair)
    } catch (error) {
      throw new SolsentryError(
        'NO_WALLET',
        `cannot read the keypair file ${keypair} (${(error as Error).message}): --keypair (or SOLSENTRY_KEYPAIR) takes a Solana keypair file, a JSON array of 64 numbers (solana-keygen new -o <file> makes one)`,
        0,
      )
    }
  const evmKey = text(flags, 'evm-key', 'SOLSENTRY_EVM_KEY')
  if (evmKey)
    try {
      wallet.evm = evmAccount(evmKey)
    } catch {
      throw new SolsentryError(
        'NO_WALLET',
        '--evm-key (or SOLSENTRY_EVM_KEY) is not an EVM private key: 0x and 64 hex digits',
        0,
      )
    }
  // The service is the sandbox's (its world file names it): its RPC is the one to pay through.
  const rpc =
    text(flags, 'solana-rpc', 'SOLSENTRY_SOLANA_RPC') ??
    (world?.service_url && sameService(world.service_url, url) ? world.urls?.rpc : undefined)
  context.rpcSet = rpc !== undefined
  made = new Solsentry({
    url,
    wallet,
    solanaRpcUrl: rpc,
    maxPerCallUsd: text(flags, 'max-usd'),
    budgetUsd: text(flags, 'budget'),
  })
  return made
}

/** What to do about an error, in the CLI's words, when the message alone does not say it all. */
function remedyOf(error: SolsentryError): string | undefined {
  const world = context.world
  switch (error.code) {
    case 'SERVICE_UNREACHABLE':
      return `that URL came from ${context.urlFrom}. Start the service there (npm start, or solsentry sandbox; PORT chooses its port)${world?.service_url && !sameService(world.service_url, context.url) ? `; the sandbox here last ran at ${world.service_url}` : ''}`
    case 'NO_WALLET':
      return world?.buyer?.keypair_path
        ? `on the sandbox, its demo buyer: --keypair ${world.buyer.keypair_path}`
        : 'a Solana keypair file is what solana-keygen writes, such as ~/.config/solana/id.json'
    case 'PAYMENT_FAILED':
      return !context.rpcSet && world?.urls?.rpc ? `the sandbox's: --solana-rpc ${world.urls.rpc}` : undefined
    case 'CONFIRMATION_REQUIRED':
      return 'read the plan and the warnings above; run again with --yes to trade anyway, or from a terminal to be asked'
    default:
      return undefined
  }
}

/** Why `value` cannot be a Solana address, in words (a typo: a character base58 has not, too short, too long). */
function notAnAddress(value: string): string | undefined {
  const foreign = [...new Set(value.replace(/[1-9A-HJ-NP-Za-km-z]/g, ''))]
  if (foreign.length > 0)
    return `it has ${foreign.map((char) => JSON.stringify(char)).join(', ')}, which no Solana address has (base58: no 0, O, I or l)`
  if (value.length < 32) return `it has ${value.length} characters, and a Solana address 32 to 44`
  if (value.length > 44) return `it has ${value.length} characters, and a Solana address 32 to 44`
  return undefined
}

/**
 * A mint address as it is, or the mint of the verified token with that symbol (/trade/pairs, free):
 * `solsentry quick USDC`. Anything else is said here, before anything is paid.
 */
async function mintOrSymbol(solsentry: Solsentry, value: string, what: string): Promise<string> {
  const why = notAnAddress(value)
  if (!why) return value
  const symbol = value.replace(/^\$/, '')
  // A word of letters and digits is a ticker: the verified token with that symbol, when there is one.
  if (/^[A-Za-z0-9]{1,12}$/.test(symbol)) {
    const matches = (await solsentry.pairs()).pairs.filter((pair) => pair.symbol.toUpperCase() === symbol.toUpperCase())
    if (matches.length === 1) return matches[0]!.mint
    throw new SolsentryError(
      'USAGE',
      `${what} ${JSON.stringify(value)} is not a mint address${matches.length > 1 ? `, and ${matches.length} verified tokens have that symbol` : ', nor the symbol of a verified token (solsentry pairs lists them)'}: give the token's mint address (a ticker names many tokens; the mint names one)`,
      0,
    )
  }
  throw new SolsentryError('USAGE', `${what} ${JSON.stringify(value)} is not a mint address: ${why}`, 0)
}

/** The symbol and decimals of each mint, for amounts a person reads (SOL's are known without asking). */
async function labelsOf(solsentry: Solsentry, mints: string[]): Promise<Record<string, TokenLabel>> {
  const labels: Record<string, TokenLabel> = {}
  for (const mint of new Set(mints)) {
    const token = await solsentry.token(mint)
    labels[mint] = mint === SOL_MINT ? { mint, symbol: token.symbol ?? 'SOL', decimals: token.decimals ?? 9 } : token
  }
  return labels
}

/** Asks a yes/no question on the terminal; anything but y or yes (or the input closing) is no. */
async function ask(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr })
  const closed = new Promise<string>((resolve) => prompt.once('close', () => resolve('')))
  // Ctrl-C at the question is a no, like an empty answer: nothing is signed.
  prompt.once('SIGINT', () => prompt.close())
  try {
    const answer = await Promise.race([prompt.question(question), closed])
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    prompt.close()
  }
}

/**
 * `trade`: the amount in the input token's units, the quote shown as a plan, a question before signing
 * when the risk gate warns (--yes skips it; no terminal to ask on and no --yes: refused), then sign,
 * execute and the final job.
 */
async function trade(
  flags: Parsed['flags'],
  output: string,
  style: Style,
  json: boolean,
): Promise<{ job: TradeJob; labels: Record<string, TokenLabel> }> {
  const solsentry = await clientOf(flags)
  const amount = text(flags, 'amount')
  if (!amount)
    throw new SolsentryError(
      'USAGE',
      'trade needs --amount: how much of the input token to sell, in its units (0.1 = 0.1 SOL when buying with SOL)',
      0,
    )
  const from = text(flags, 'from')
  const inputMint = from ? await mintOrSymbol(solsentry, from, '--from') : SOL_MINT
  const outputMint = await mintOrSymbol(solsentry, output, 'the token to buy')
  if (outputMint === inputMint)
    throw new SolsentryError(
      'USAGE',
      `${output} is both the token to buy and the one paid with${from ? ' (--from)' : ' (SOL unless --from says otherwise)'}: nothing to swap; buy another token, or pay with another (--from <mint or symbol>)`,
      0,
    )
  const labels = await labelsOf(solsentry, [inputMint, outputMint])
  const decimals = labels[inputMint]?.decimals
  if (decimals === undefined)
    throw new SolsentryError(
      'USAGE',
      `cannot tell how many decimals ${inputMint} has, so --amount ${amount} cannot be read: it is not among the verified tokens (solsentry pairs) and no Solana RPC is set to read the mint (--solana-rpc <url> or SOLSENTRY_SOLANA_RPC)`,
      0,
    )
  const parsed = parseTokenAmount(amount, decimals)
  if ('error' in parsed) throw new SolsentryError('USAGE', `--amount: ${parsed.error}`, 0)
  const slippage = text(flags, 'slippage')
  if (slippage && !/^\d+$/.test(slippage))
    throw new SolsentryError('USAGE', `--slippage is in basis points, a whole number (50 = 0.5%), not ${slippage}`, 0)
  const fee = await solsentry
    .currencies()
    .then((answer) => answer.prices.find((price) => price.route.endsWith('/trade/execute'))?.usd)
    .catch(() => undefined)
  const say = (line: string) => (json ? console.error(line) : console.log(line))
  const terminal = process.stderr.isTTY === true
  if (terminal) process.stderr.write('quoting (the risk gate scans the token first)…\n')
  const confirm = async (quote: TradeQuote, { expired }: { expired?: TradeQuote }): Promise<boolean> => {
    if (expired)
      say(
        `The quote expired before it could be signed${expired.quote.expires_at ? ` (valid until ${expired.quote.expires_at.replace('T', ' ').slice(0, 19)} UTC)` : ''}: quoted again, the terms may have moved. Nothing was signed.\n`,
      )
    say(`${renderTradePlan(style, quote, labels, fee)}\n`)
    if (quote.risk_gate.verdict !== 'WARN' || flags.has('yes')) return true
    const label = labels[outputMint]?.symbol ?? shortAddress(outputMint)
    if (process.stdin.isTTY !== true)
      throw new SolsentryError(
        'CONFIRMATION_REQUIRED',
        `the risk gate warns about ${label} (grade ${quote.risk_gate.grade ?? 'not measured'}): not signing without a confirmation, and there is no terminal to ask on. Nothing was signed or charged`,
        0,
        { job_id: quote.job_id },
      )
    return ask(`The risk gate warns about ${label}. Sign and send ${expired ? 'this new quote' : 'this swap'}? [y/N] `)
  }
  const job = await solsentry.trade({
    inputMint,
    outputMint,
    amountIn: parsed.atomic.toString(),
    ...(slippage ? { slippageBps: Number(slippage) } : {}),
    confirm,
    onUpdate: (stage) => {
      if (terminal && stage === 'signed') process.stderr.write('signed here; executing…\n')
      if (terminal && stage === 'executing') process.stderr.write('sent; waiting for the chain to confirm…\n')
    },
  })
  return { job, labels }
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
  // The CLI runs on Deno too (the MCP bridge, the calls), but the service's scripts are started with Bun.
  if (typeof Bun === 'undefined') {
    console.error(
      `solsentry: ${path} is started with Bun, and this CLI runs on another runtime: run the CLI with Bun (bin/solsentry.mjs does), or the service on Deno with npm run start:deno (docs/deno.md)`,
    )
    return 1
  }
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
  const argument = (what: string, example: string) => {
    const value = args[0]
    if (!value) throw new SolsentryError('USAGE', `${command} needs ${what}: solsentry ${command} ${example}`, 0)
    return value
  }
  /** The token the command is about: a mint, or the symbol of a verified token. */
  const mint = (solsentry: Solsentry) =>
    mintOrSymbol(solsentry, argument('a token mint address', '<mint>'), 'the token')
  /** `--focus`: a mint or a verified token's symbol, when given. */
  const focus = async (solsentry: Solsentry) => {
    const value = text(flags, 'focus')
    return value ? { token_address: await mintOrSymbol(solsentry, value, '--focus') } : {}
  }

  if (flags.has('help') && command && command !== 'help') {
    const help = commandHelp(command)
    if (!help) return unknownCommand(command)
    console.log(help)
    return 0
  }

  switch (command) {
    case 'quick': {
      const solsentry = await clientOf(flags)
      const scan = await withProgress('quick scan', solsentry.quickScan(await mint(solsentry)))
      print(scan, () => renderQuickScan(style, scan))
      return 0
    }
    case 'batch': {
      const solsentry = await clientOf(flags)
      const wallet = text(flags, 'wallet')
      let request: InputOf<'POST /scan/quick/batch'>
      if (wallet) {
        if (args.length > 0)
          throw new SolsentryError(
            'USAGE',
            'batch takes mints or --wallet <address>, not both (solsentry batch --help)',
            0,
          )
        const why = notAnAddress(wallet)
        if (why)
          throw new SolsentryError('USAGE', `--wallet ${JSON.stringify(wallet)} is not a wallet address: ${why}`, 0)
        const maxUsd = text(flags, 'max-usd')
        if (!maxUsd)
          throw new SolsentryError(
            'USAGE',
            'batch --wallet needs --max-usd <usd>, the most to spend: 0.015 USD per token scanned (solsentry batch --help)',
            0,
          )
        request = { wallet_address: wallet, max_usd: Number(maxUsd) }
      } else {
        if (args.length === 0)
          throw new SolsentryError(
            'USAGE',
            'batch needs mints: solsentry batch <mint> <mint> …, or --wallet <address>',
            0,
          )
        request = {
          token_addresses: await Promise.all(args.map((token) => mintOrSymbol(solsentry, token, 'the token'))),
        }
      }
      const answer = await withProgress('batch of quick scans', solsentry.quickScanBatch(request))
      print(answer, () => renderQuickScanBatch(style, answer))
      return 0
    }
    case 'watch': {
      const solsentry = await clientOf(flags)
      const [first, id] = args
      if (first === 'status' || first === 'cancel') {
        if (!id) throw new SolsentryError('USAGE', `watch ${first} needs a watch id: solsentry watch ${first} <id>`, 0)
        if (first === 'cancel') {
          const cancelled = await solsentry.cancelWatch(id)
          print(cancelled, () => `${cancelled.watch_id}: ${cancelled.message}`)
          return 0
        }
        const status = await solsentry.watchStatus(id)
        print(status, () => renderWatchStatus(status))
        return 0
      }
      const hours = Number(text(flags, 'hours'))
      if (!Number.isInteger(hours) || hours < 1)
        throw new SolsentryError('USAGE', 'watch needs --hours <n>: how long to watch, 1 to 168 hours', 0)
      const webhook = text(flags, 'webhook')
      const token = await mint(solsentry)
      const watched = await withProgress(
        'watch',
        solsentry.watch({ token_address: token, hours, ...(webhook ? { webhook_url: webhook } : {}) }),
      )
      print(watched, () =>
        [
          `watching ${watched.subject.address} until ${watched.period.until} (watch ${watched.watch_id})`,
          watched.webhook_url
            ? `alerts to ${watched.webhook_url}`
            : 'no webhook: alerts on the stream and in watch status',
          `events: ${watched.events.join(', ')}`,
        ].join('\n'),
      )
      if (!flags.has('follow')) return 0
      for await (const { seq, event } of solsentry.watchEvents(watched.watch_id))
        console.log(json ? JSON.stringify({ seq, event }) : alertSentence(event))
      if (!json) console.log('the stream ended: the paid period is over, or the watch was cancelled')
      return 0
    }
    case 'intel': {
      const solsentry = await clientOf(flags)
      const token = await mint(solsentry)
      const intel = await withProgress('market intel', solsentry.marketIntel(token))
      print(intel, () => renderMarketIntel(style, { ...intel, token_address: token }))
      return 0
    }
    case 'deep': {
      const solsentry = await clientOf(flags)
      const dive = await withProgress('deep dive (up to 30 s)', solsentry.deepDive(await mint(solsentry)))
      print(dive, () => renderDeepDive(style, dive))
      return 0
    }
    case 'exit': {
      const solsentry = await clientOf(flags)
      const size = text(flags, 'size')
      const home = text(flags, 'home')
      const token = await mint(solsentry)
      if (home) {
        const check = await withProgress(
          'exit cross-check',
          solsentry.exitCrossCheck({
            token_address: token,
            home_chain: home as never,
            ...(size ? { size_usdc: Number(size) } : {}),
          }),
        )
        print(check, () => renderExitCrossCheck(style, check))
        return 0
      }
      const exit = await withProgress('exit check', solsentry.exitCheck(token, size ? Number(size) : undefined))
      print(exit, () => renderExitCheck(style, exit))
      return 0
    }
    case 'wallet': {
      const solsentry = await clientOf(flags)
      const address = argument('a wallet address', '<address>')
      const why = notAnAddress(address)
      if (why) throw new SolsentryError('USAGE', `${JSON.stringify(address)} is not a wallet address: ${why}`, 0)
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
          ...(await feedOptions(solsentry, flags)),
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
          ...(await focus(solsentry)),
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
          ...(await focus(solsentry)),
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
          ...(await focus(solsentry)),
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
      if (!call)
        throw new SolsentryError(
          'USAGE',
          `--mode must be one of ${Object.keys(calls).join(', ')} (not ${JSON.stringify(mode)})`,
          0,
        )
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
      const feed = await withProgress('trending', solsentry.trending(await feedOptions(solsentry, flags)))
      print(feed, () => renderTrending(style, feed))
      return 0
    }
    case 'radar': {
      const solsentry = await clientOf(flags)
      const minSignals = text(flags, 'min-signals')
      const radar = await withProgress(
        'signal radar',
        solsentry.signalRadar({
          ...(await feedOptions(solsentry, flags)),
          ...(minSignals ? { min_signals: Number(minSignals) } : {}),
        }),
      )
      print(radar, () => renderSignalRadar(style, radar))
      return 0
    }
    case 'trade': {
      try {
        const { job, labels } = await trade(
          flags,
          argument("a token mint address (or a verified token's symbol)", '<mint> --amount <amount>'),
          style,
          json,
        )
        print(job, () => renderJob(style, job, labels))
        return job.status === 'CONFIRMED' ? 0 : exitCode('TRADE_NOT_CONFIRMED')
      } catch (error) {
        // A trade the service would not do: the job as it stands (its rejection, its gate), TRADE_NOT_CONFIRMED.
        if (!(error instanceof SolsentryError) || error.code !== 'TRADE_REJECTED') throw error
        const job = error.body as unknown as TradeJob
        // A slippage out of the service's range is the user's option, said as the other bad values are.
        if (job.status === 'REJECTED_SLIPPAGE_OUT_OF_RANGE')
          throw new SolsentryError(
            'USAGE',
            `${(job.rejection?.reason ?? '--slippage is out of range').replaceAll('slippage_bps', '--slippage')}, in basis points (50 = 0.5%); nothing was signed or charged`,
            0,
          )
        const mints = job.quote
          ? [job.quote.input_mint, job.quote.output_mint]
          : job.risk_gate
            ? [job.risk_gate.token]
            : []
        const labels = made ? await labelsOf(made, mints) : {}
        if (json) console.log(JSON.stringify(error.body, null, 2))
        else console.error(renderJob(style, job, labels))
        return exitCode('TRADE_NOT_CONFIRMED')
      }
    }
    case 'status': {
      const solsentry = await clientOf(flags)
      const job = await solsentry.status(argument('a trade job id', '<job_id>'))
      const labels = job.quote ? await labelsOf(solsentry, [job.quote.input_mint, job.quote.output_mint]) : {}
      print(job, () => renderJob(style, job, labels))
      return 0
    }
    case 'pairs': {
      const pairs = await (await clientOf(flags)).pairs()
      print(pairs, () => renderPairs(style, pairs))
      return 0
    }
    case 'currencies': {
      const currencies = await (await clientOf(flags)).currencies()
      print(currencies, () => renderCurrencies(style, currencies))
      return 0
    }
    case 'mcp': {
      const { runBridge } = await import('./mcp-bridge.ts')
      await runBridge(await clientOf(flags))
      return 0
    }
    case 'serve':
      return runScript('src/main.ts')
    case 'doctor': {
      // Given a service (--url or SOLSENTRY_URL), its own health, as it sees itself; otherwise the settings of
      // this environment, as `solsentry serve` would run with them (the operator's check, src/doctor.ts).
      if (text(flags, 'url') ?? (process.env.SOLSENTRY_URL || undefined)) {
        const solsentry = await clientOf(flags)
        const health = await solsentry.health()
        print(health, () => renderHealth(style, solsentry.url, health))
        return health.status === 'ok' || health.status === 'unknown' ? 0 : exitCode('FAILED')
      }
      return runScript('src/main.ts', json ? ['doctor', '--json'] : ['doctor'])
    }
    case 'sandbox':
      return runScript('sandbox/launch.ts')
    case undefined:
    case 'help':
      if (command === 'help' && args[0]) {
        const help = commandHelp(args[0])
        if (help) {
          console.log(help)
          return 0
        }
      }
      if (flags.has('version')) {
        console.log(`solsentry ${CLIENT_VERSION}`)
        return 0
      }
      console.log(USAGE)
      return command || flags.has('help') ? 0 : exitCode('USAGE')
    default:
      return unknownCommand(command)
  }
}

/** A command that is not one: the nearest that is, when one is near; a usage error. */
function unknownCommand(command: string): number {
  const near = nearest(COMMANDS, command)
  console.error(
    `solsentry: USAGE: unknown command ${command}${near ? `: did you mean ${near}?` : ''} (solsentry --help lists them)`,
  )
  return exitCode('USAGE')
}

/** The commands, as the usage text lists them. */
const COMMANDS = [...USAGE.slice(0, USAGE.indexOf('\noptions\n')).matchAll(/^ {2}([a-z][a-z-]*)(?= |$)/gm)].map(
  (match) => match[1]!,
)

/** One command's part of the usage text, with where the shared options and the exit codes are. */
/** One alert as a line: its severity, kind and sentence, then the evidence. */
function alertSentence(event: WatchAlert): string {
  const evidence = event.signature ? `slot ${event.slot}, transaction ${event.signature}` : `slot ${event.slot}`
  return `${event.severity.toUpperCase()} ${event.kind}: ${event.sentence} (${evidence})`
}

/** `watch status`: the watch, then each alert with its delivery. */
function renderWatchStatus(status: Awaited<ReturnType<Solsentry['watchStatus']>>): string {
  return [
    `watch ${status.watch_id} of ${status.subject.address}: ${status.state}, paid until ${status.period.until}`,
    status.webhook_url ? `webhook ${status.webhook_url}` : 'no webhook',
    ...status.events.map(
      (item) =>
        `#${item.seq} ${alertSentence(item.event as unknown as WatchAlert)} [delivery: ${item.delivery.state}${item.delivery.last_error ? `, ${item.delivery.last_error}` : ''}]`,
    ),
    status.events.length === 0 ? 'no alert so far' : `${status.dead_letters.length} dead letter(s)`,
  ].join('\n')
}

function commandHelp(command: string): string | undefined {
  const lines = USAGE.split('\n')
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`)
  if (start < 0 || lines.slice(0, start).every((line) => line !== 'commands')) return undefined
  const [synopsis, ...said] = lines[start]!.trim().split(/\s{2,}/)
  const rest = lines.slice(start + 1)
  const more = rest
    .slice(
      0,
      rest.findIndex((line) => !line.startsWith('    ')),
    )
    .map((line) => line.trim())
  return [
    `usage: solsentry ${synopsis}`,
    '',
    ...[...said, ...more].map((line) => `  ${line}`),
    '',
    'the wallet, the service and spend options: solsentry --help',
    'exit codes',
    exitCodeLines(),
  ].join('\n')
}

/** The exit code of an error (CLI_EXIT_CODES): usage, a confirmation missing, a swap declined, else failed. */
function exitCodeOf(error: SolsentryError): number {
  if (error.code === 'USAGE') return exitCode('USAGE')
  if (error.code === 'CONFIRMATION_REQUIRED') return exitCode('CONFIRMATION_REQUIRED')
  if (error.code === 'DECLINED') return exitCode('DECLINED')
  return exitCode('FAILED')
}

/**
 * An error in the CLI's words: a request member the service refused (INVALID_REQUEST) as the option
 * typed and the values its route's schema accepts (the service's /openapi.json); routes as commands.
 */
async function inCliWords(error: SolsentryError, argv: string[]): Promise<SolsentryError> {
  let parsed: Parsed
  try {
    parsed = parse(argv)
  } catch {
    return error
  }
  const { command, flags, args } = parsed
  const field = error.body.field
  if (error.code === 'INVALID_REQUEST' && typeof field === 'string' && error.route) {
    const openapi = await fetch(`${context.url}/openapi.json`, { signal: AbortSignal.timeout(5_000) })
      .then((response) => response.json())
      .catch(() => undefined)
    const schema = openapi ? memberSchemaOf(openapi, error.route, field) : undefined
    const accepted = schema ? acceptedOf(schema) : undefined
    if (accepted) {
      const option = optionOf(field, command)
      const typed = option.startsWith('--') ? flags.get(option.slice(2)) : args[0]
      const got = typeof typed === 'string' ? ` (not ${JSON.stringify(typed)})` : ''
      const copy = new SolsentryError(
        'USAGE',
        `${option} ${accepted}${got}; nothing was charged`,
        error.status,
        error.body,
      )
      copy.route = error.route
      return copy
    }
    // No words for what the schema takes: at least the option typed, and where its values are listed.
    const option = optionOf(field, command)
    const copy = new SolsentryError(
      'USAGE',
      `${option}: ${error.message.replace(/^body member \w+: /, '').replace(/; see \/openapi\.json$/, '')} (solsentry ${command ?? ''} --help)`,
      error.status,
      error.body,
    )
    copy.route = error.route
    return copy
  }
  const message = cliWords(error.message)
  if (message === error.message) return error
  const copy = new SolsentryError(error.code, message, error.status, error.body)
  copy.route = error.route
  return copy
}

if (import.meta.main) {
  const argv = process.argv.slice(2)
  try {
    process.exitCode = await main(argv)
  } catch (thrown) {
    const error = thrown instanceof SolsentryError ? await inCliWords(thrown, argv) : thrown
    if (error instanceof SolsentryError) {
      console.error(
        `solsentry: ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`,
      )
      const remedy = remedyOf(error)
      if (remedy) console.error(`  → ${remedy}`)
      process.exitCode = exitCodeOf(error)
    } else {
      // Not a known failure: one line, never a stack trace (SOLSENTRY_DEBUG=1 shows it).
      console.error(`solsentry: INTERNAL: ${(error as Error)?.message ?? String(error)}`)
      if (process.env.SOLSENTRY_DEBUG) console.error(error)
      else console.error('  → a bug in the client: run again with SOLSENTRY_DEBUG=1 and report what it prints')
      process.exitCode = 1
    }
  }
}
