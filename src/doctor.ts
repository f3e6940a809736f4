/**
 * `solsentry doctor`: reads the configuration as the service would, asks every upstream one real call
 * through the same probes /health runs on its schedule (src/sources/health-probes.ts, the facilitator's
 * in src/payments/facilitator.ts), adds what only an operator needs once (each RPC method the service
 * needs, Jupiter with and without its key), and prints what works, what is refused, the limits it sees
 * and what to change. Exits 1 when something the service needs fails (docs/operations.md).
 */
import { createApp } from './app.ts'
import { createContext, closeContext } from './context.ts'
import type { Config } from './kernel/config.ts'
import { address } from '@solana/kit'
import { findAssociatedTokenPda } from '@solana-program/token'
import { createLogger, urlForLogs } from './kernel/logger.ts'
import { paymentRails } from './payments/rails.ts'
import { USDC_MINT_ADDRESS } from './onchain/programs.ts'
import { failureDetail } from './sources/health-probes.ts'
import { jupiterPerMinute } from './sources/index.ts'
import { JupiterSource, PRICE_PATHS } from './sources/jupiter.ts'
import { CallMeter } from './sources/upstream.ts'

export type DoctorResult = 'ok' | 'refused' | 'failed' | 'not checked' | 'note'

/** One line of the doctor's table. */
export interface DoctorRow {
  dependency: string
  check: string
  result: DoctorResult
  /** What it saw: the answer, the limits. */
  detail: string
  /** What to change, when something is not right. */
  fix?: string
  /** The service cannot do its work without this: a failure (or refusal) makes the doctor exit 1. */
  needed: boolean
}

/** The doctor's findings; `healthy` is false when a needed check failed or was refused. */
export interface DoctorReport {
  profile: string
  rows: DoctorRow[]
  healthy: boolean
}

/** What to change when a probed dependency does not answer as it should, by component (news feeds share one). */
function fixFor(name: string, config: Config, detail: string): string {
  const refusedKey = /HTTP 40[13]/.test(detail)
  switch (name) {
    case 'solana_rpc':
      return `check SOLANA_RPC_URL (${urlForLogs(config.SOLANA_RPC_URL ?? '')}) and this machine's outbound HTTPS; on mainnet a keyed provider (Helius, Triton, QuickNode) with SOLANA_RPC_PROVIDER=keyed`
    case 'dexscreener':
      return `check DEXSCREENER_URL (${urlForLogs(config.DEXSCREENER_URL ?? '')}) and outbound HTTPS to it`
    case 'jupiter':
      return jupiterFix(config, detail)
    case 'facilitator':
      if (refusedKey)
        return 'the facilitator refuses the credentials: check CDP_API_KEY_ID and CDP_API_KEY_SECRET (portal.cdp.coinbase.com)'
      if (detail.includes('does not list'))
        return 'choose a facilitator that serves these networks, or change SOLANA_PAYMENT_NETWORK / BASE_PAYMENT_NETWORK'
      return `check FACILITATOR_URL (${urlForLogs(config.FACILITATOR_URL ?? '')}); without it no paid call can be taken`
    default:
      return name.startsWith('news:')
        ? 'check that feed in NEWS_FEEDS (or drop it): the /news routes read the others meanwhile'
        : `check the setting of ${name}`
  }
}

/**
 * What to change when Jupiter's probe fails: the token list and the swap API in use are asked apart
 * (src/sources/health-probes.ts), and the detail names the one that failed and how.
 */
function jupiterFix(config: Config, detail: string): string {
  const url = `JUPITER_URL (${urlForLogs(config.JUPITER_URL ?? '')})`
  // A probe that timed out says so alone: no part of it is the swap API's.
  const at = detail.indexOf('swap API')
  const swap = at < 0 ? '' : detail.slice(at)
  const swapFailed = at >= 0 && !/^swap API v[12] \(GET [^)]+\) priced/.test(swap)
  const refused = swapFailed ? swap : detail
  if (/HTTP 40[13]/.test(refused))
    return config.JUPITER_API_KEY
      ? 'JUPITER_API_KEY is refused: create a key at portal.jup.ag, or unset it to run keyless (slower)'
      : `${url} wants a key: get one at portal.jup.ag and set JUPITER_API_KEY`
  if (swapFailed && /HTTP 404/.test(swap))
    return config.JUPITER_SWAP_API === 'v2'
      ? `${url} does not serve Swap API v2: point JUPITER_URL at a host that does (https://api.jup.ag), or set JUPITER_SWAP_API=v1 while the host serves v1`
      : `${url} does not serve the v1 swap API: set JUPITER_SWAP_API=v2 (the default)`
  if (/HTTP 429/.test(refused))
    return 'Jupiter rate-limits the service: set JUPITER_API_KEY, or JUPITER_REQUESTS_PER_MINUTE to the plan’s figure'
  return `check ${url} and outbound HTTPS to it`
}

/** What one of the service's RPC reads is for, and whether the service can do without it. */
const RPC_METHODS: { method: string; params: unknown[]; why: string; needed: boolean }[] = [
  {
    method: 'getAccountInfo',
    params: [USDC_MINT_ADDRESS, { encoding: 'base64' }],
    why: 'every scan reads the mint',
    needed: true,
  },
  {
    method: 'getTokenLargestAccounts',
    params: [USDC_MINT_ADDRESS],
    why: 'holder concentration (else from the token list)',
    needed: false,
  },
  {
    method: 'getSignaturesForAddress',
    params: [USDC_MINT_ADDRESS, { limit: 1 }],
    why: 'launch, developer and wallet history',
    needed: true,
  },
]

/** -32010: the provider keeps no secondary index for the key (Solana's public endpoint). */
const KEY_EXCLUDED = -32010

/** Runs every check once against the configuration's upstreams. Opens (and closes) the service's context. */
export async function runDoctor(config: Config): Promise<DoctorReport> {
  const ctx = createContext(config, { logger: createLogger({ ...config, LOG_LEVEL: 'silent' }) })
  try {
    // The app registers every route: what is off for lack of a setting is known only then.
    createApp(ctx)
    const rows: DoctorRow[] = []
    const stored = await ctx.store.ping()
    rows.push({
      dependency: 'store',
      check: config.REDIS_URL ? 'SQLite and Redis answer' : 'SQLite answers',
      result: stored ? 'ok' : 'failed',
      detail: config.REDIS_URL ? `DATA_DIR ${config.DATA_DIR}, REDIS_URL set` : `DATA_DIR ${config.DATA_DIR}`,
      ...(stored ? {} : { fix: 'check that DATA_DIR is writable and REDIS_URL (when set) reachable' }),
      needed: true,
    })
    const probes = ctx.health.names.filter((name) => ctx.health.probes(name))
    const [probed, methods, keyless, payee] = await Promise.all([
      Promise.all(probes.map(async (name) => [name, await ctx.health.probe(name)] as const)),
      rpcMethods(ctx.sources.solana),
      keylessJupiter(config),
      solanaPayee(config, ctx.sources.solana),
    ])
    for (const [name, result] of probed) {
      if (!result) continue
      const outcome: DoctorResult = result.state === 'ok' ? 'ok' : result.state === 'degraded' ? 'refused' : 'failed'
      rows.push({
        dependency: name,
        check:
          name === 'jupiter'
            ? `GET /tokens/v2/search (USDC), GET ${PRICE_PATHS[config.JUPITER_SWAP_API]} (SOL→USDC)`
            : (CHECKS[name.startsWith('news:') ? 'news' : name] ?? 'one request'),
        result: outcome,
        detail: [result.detail, limitsOf(name, config, ctx.sources.solana?.provider.label)].filter(Boolean).join('; '),
        ...(outcome === 'ok' ? {} : { fix: fixFor(name, config, result.detail) }),
        needed: !name.startsWith('news:'),
      })
    }
    rows.push(...methods, ...keyless, ...payee)
    for (const name of ctx.health.names.filter((name) => !ctx.health.probes(name) && name !== 'store'))
      rows.push({
        dependency: name,
        check: 'not probed',
        result: 'not checked',
        detail:
          name === 'cache'
            ? 'the shared cache rides on REDIS_URL, checked with the store'
            : 'each call counts against its plan: known from live traffic (/health)',
        needed: false,
      })
    if (!config.FACILITATOR_URL)
      rows.push({
        dependency: 'facilitator',
        check: 'FACILITATOR_URL',
        result: 'failed',
        detail: 'not set: every paid route answers 503',
        fix: 'set FACILITATOR_URL (on mainnet Coinbase CDP with CDP_API_KEY_ID and CDP_API_KEY_SECRET)',
        // Every priced route needs one, whatever the profile.
        needed: true,
      })
    for (const { routes, why } of ctx.registry.off())
      rows.push({
        dependency: 'routes off',
        check: routes.length === 1 ? routes[0]! : `${routes[0]} and ${routes.length - 1} more`,
        result: 'note',
        detail: why,
        needed: false,
      })
    // Each dependency's rows together, in the order they first appear.
    const order = [...new Set(rows.map((row) => row.dependency))]
    rows.sort((a, b) => order.indexOf(a.dependency) - order.indexOf(b.dependency))
    const healthy = rows.every((row) => !row.needed || row.result === 'ok' || row.result === 'note')
    return { profile: config.SOLSENTRY_PROFILE, rows, healthy }
  } finally {
    await closeContext(ctx)
  }
}

const CHECKS: Record<string, string> = {
  solana_rpc: 'getSlot',
  dexscreener: 'GET /tokens/v1/solana/<USDC>',
  facilitator: 'GET /supported, the rails’ networks',
  news: 'GET the feed',
}

/** The limits the service paces a dependency to, in words. */
function limitsOf(name: string, config: Config, rpcLabel: string | undefined): string {
  if (name === 'solana_rpc') return `paced as ${rpcLabel} (SOLANA_RPC_PROVIDER)`
  if (name === 'jupiter') {
    const perMinute = jupiterPerMinute(config)
    return perMinute === undefined ? 'no limit paced (not jup.ag)' : `paced to ${perMinute} requests/min`
  }
  if (name === 'dexscreener')
    return new URL(config.DEXSCREENER_URL ?? 'http://x').hostname.endsWith('dexscreener.com')
      ? 'paced to 300 requests/min'
      : 'no limit paced (not dexscreener.com)'
  return ''
}

/** Each RPC read the service needs, asked once: served, refused (with what the service does then) or failed. */
async function rpcMethods(solana: ReturnType<typeof createContext>['sources']['solana']): Promise<DoctorRow[]> {
  if (!solana) return []
  return Promise.all(
    RPC_METHODS.map(async ({ method, params, why, needed }): Promise<DoctorRow> => {
      const row = { dependency: 'solana_rpc', check: method, needed }
      try {
        const answer = await solana.ask(method, params)
        if (!answer.error) return { ...row, result: 'ok', detail: `served (${why})` }
        const excluded = Number(answer.error.code) === KEY_EXCLUDED
        return {
          ...row,
          result: 'refused',
          detail: `${String(answer.error.message)} (${why})`,
          fix: excluded
            ? method === 'getTokenLargestAccounts'
              ? 'holders come from the token list meanwhile; a keyed RPC (SOLANA_RPC_PROVIDER=keyed) reads them on chain'
              : 'use a keyed RPC that serves this method (SOLANA_RPC_URL, SOLANA_RPC_PROVIDER=keyed)'
            : 'check the RPC provider and plan (SOLANA_RPC_URL)',
        }
      } catch (error) {
        return { ...row, result: 'failed', detail: failureDetail(error), fix: 'check SOLANA_RPC_URL and the network' }
      }
    }),
  )
}

/**
 * The Solana payee's token account for the payment asset: a transfer to a wallet without one fails the
 * facilitator's verification (`InvalidAccountData`, FACTS.md), so every Solana payment would be refused.
 * Read on the RPC the service reads (on mainnet, the payment network's chain).
 */
async function solanaPayee(
  config: Config,
  solana: ReturnType<typeof createContext>['sources']['solana'],
): Promise<DoctorRow[]> {
  const rail = paymentRails(config).find((candidate) => candidate.name === 'solana')
  if (!solana || !rail?.asset) return []
  const row = { dependency: 'payee', check: 'PAY_TO_SOLANA’s token account', needed: true }
  const fix = `receive any amount of ${rail.asset} at ${rail.payTo} once, or create its associated token account (spl-token create-account ${rail.asset} --owner ${rail.payTo})`
  try {
    const mint = await solana.ask('getAccountInfo', [rail.asset, { encoding: 'base64' }])
    const tokenProgram = (mint.result as { value?: { owner?: string } | null } | undefined)?.value?.owner
    if (mint.error || !tokenProgram)
      return [
        {
          ...row,
          result: 'failed',
          detail: `the payment asset ${rail.asset} is not an account on this chain`,
          fix: 'check SOLANA_PAYMENT_ASSET and SOLANA_RPC_URL (the same chain as SOLANA_PAYMENT_NETWORK)',
        },
      ]
    const [account] = await findAssociatedTokenPda({
      owner: address(rail.payTo),
      mint: address(rail.asset),
      tokenProgram: address(tokenProgram),
    })
    const answer = await solana.ask('getAccountInfo', [account, { encoding: 'base64' }])
    if (answer.error) return [{ ...row, result: 'failed', detail: String(answer.error.message), fix }]
    const exists = (answer.result as { value?: unknown } | undefined)?.value
    return exists
      ? [{ ...row, result: 'ok', detail: `${account} holds its ${rail.asset}` }]
      : [
          {
            ...row,
            result: 'failed',
            detail: `no token account ${account}: every Solana payment would be refused (InvalidAccountData)`,
            fix,
          },
        ]
  } catch (error) {
    return [{ ...row, result: 'failed', detail: failureDetail(error), fix: 'check SOLANA_RPC_URL and the network' }]
  }
}

/**
 * Jupiter without the key: what the service would get keyless (when a key is set the board's probe
 * already used it). Without a key on jup.ag, a note on what a key changes.
 */
async function keylessJupiter(config: Config): Promise<DoctorRow[]> {
  if (!config.JUPITER_URL) return []
  const onJupiter = new URL(config.JUPITER_URL).hostname.endsWith('jup.ag')
  if (!config.JUPITER_API_KEY)
    return onJupiter
      ? [
          {
            dependency: 'jupiter',
            check: 'JUPITER_API_KEY',
            result: 'note',
            detail: 'not set: keyless, 30 requests/min; token-list facts and trade quotes will be slow or refused',
            fix: 'get a key at portal.jup.ag and set JUPITER_API_KEY (60 requests/min on the Free plan)',
            needed: false,
          },
        ]
      : []
  const keylessSource = new JupiterSource({ baseUrl: config.JUPITER_URL })
  try {
    const tokens = await keylessSource.probeToken(USDC_MINT_ADDRESS, new CallMeter())
    return [
      {
        dependency: 'jupiter',
        check: 'without JUPITER_API_KEY',
        result: 'ok',
        detail: `answers keyless too (${tokens.length} entries)${onJupiter ? ', at 30 requests/min' : ''}`,
        needed: false,
      },
    ]
  } catch (error) {
    return [
      {
        dependency: 'jupiter',
        check: 'without JUPITER_API_KEY',
        result: 'refused',
        detail: `${failureDetail(error)}: the key is what lets the service in`,
        needed: false,
      },
    ]
  }
}

const MARK: Record<DoctorResult, string> = {
  ok: 'ok',
  refused: 'REFUSED',
  failed: 'FAILED',
  'not checked': '-',
  note: 'note',
}

/** The report as a table for a terminal, each fix on the line below its row. */
export function renderDoctor(report: DoctorReport): string {
  const rows = report.rows.map((row) => [row.dependency, row.check, MARK[row.result], row.detail])
  const widths = [0, 1, 2].map((column) =>
    Math.max(
      ...['dependency', 'check', 'result'].map((title, index) => (index === column ? title.length : 0)),
      ...rows.map((row) => row[column]!.length),
    ),
  )
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index < 3 ? cell.padEnd(widths[index]!) : cell))
      .join('  ')
      .trimEnd()
  const out = [`solsentry doctor (profile ${report.profile})`, '', line(['dependency', 'check', 'result', 'detail'])]
  for (const [index, row] of report.rows.entries()) {
    out.push(line(rows[index]!))
    if (row.fix) out.push(`${' '.repeat(widths[0]! + 2)}→ ${row.fix}`)
  }
  const failed = report.rows.filter((row) => row.needed && (row.result === 'failed' || row.result === 'refused'))
  out.push(
    '',
    report.healthy
      ? 'everything the service needs answered'
      : `${failed.length} check${failed.length === 1 ? '' : 's'} the service needs did not pass: ${[...new Set(failed.map((row) => row.dependency))].join(', ')}`,
  )
  return out.join('\n')
}
