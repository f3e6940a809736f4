/**
 * The upstream sources' health probes: one cheap real call each (Jupiter's two: its token list and its
 * swap API are served apart), paced by the source's own limits (the
 * call goes through the source like any other, so it counts against the provider's budget and its
 * breaker). The health board runs them on its schedule; `solsentry doctor` runs each once.
 */
import type { HealthComponent, ProbedState, ProbeResult } from '../kernel/health.ts'
import { USDC_MINT_ADDRESS, WRAPPED_SOL_MINT_ADDRESS } from '../onchain/programs.ts'
import type { DexScreenerSource } from './dexscreener.ts'
import { type JupiterSource, PRICE_PATHS } from './jupiter.ts'
import type { LifiSource } from './lifi.ts'
import type { ModelClient } from './llm.ts'
import type { NewsFeedsSource } from './news.ts'
import type { SolanaSource } from './solana-rpc.ts'
import type { XSource } from './x.ts'
import { CallMeter, type Upstream, UpstreamError } from './upstream.ts'

/**
 * Not probed, known from live traffic only: LI.FI (keyless, 200 requests per two hours, and no route
 * cheaper than a quote in its stand-in), X (searches counted per 15 minutes by plan) and the language
 * model (billed per call). Each is `unknown` until the service has called it.
 */
export const UNPROBED = ['lifi', 'x', 'llm'] as const

/** What a failed call says in words: the upstream's failure class and detail. */
export function failureDetail(error: unknown): string {
  // An UpstreamError's message already reads `<source>: <reason> (<detail>)`.
  return (error as Error)?.message ?? String(error)
}

/** A probe result from a call that throws when the upstream did not answer. */
async function answered(call: () => Promise<string>): Promise<ProbeResult> {
  try {
    return { state: 'ok', detail: await call() }
  } catch (error) {
    return { state: failedState(error), detail: failureDetail(error) }
  }
}

/** A refusal (4xx) is an answer: the upstream is there, but refuses what the service asks. */
function failedState(error: unknown): ProbedState {
  return error instanceof UpstreamError && error.reason === 'rejected' ? 'degraded' : 'down'
}

/** The Solana RPC's probe: `getSlot` (the cheapest call every provider serves), its slot in words. */
export function probeSolana(solana: SolanaSource): Promise<ProbeResult> {
  return answered(async () => {
    const answer = await solana.ask('getSlot')
    if (answer.error)
      throw new UpstreamError(solana.upstream.name, 'rejected', `getSlot: ${String(answer.error.message)}`)
    return `getSlot answered slot ${String(answer.result)}`
  })
}

/** What the swap probe prices: 0.01 SOL in USDC, the pair every router quotes. */
const PROBED_LAMPORTS = 10_000_000n

/**
 * Why Jupiter refused a swap API's request, in words an operator acts on: a key wanted or refused
 * (401/403), a host that does not serve that API's path (404: Swap API v2 is not everywhere v1 is),
 * the rate limit (429); undefined when the failure says enough as it is.
 */
export function swapApiRefusal(error: unknown, path: string, keyed: boolean): string | undefined {
  const status = error instanceof UpstreamError ? error.status : undefined
  if (status === 401 || status === 403)
    return keyed ? 'the API key is refused' : 'no API key is sent and this host wants one'
  if (status === 404) return `this host does not serve ${path}`
  if (status === 429) return 'more requests than the plan allows'
  return undefined
}

/** How bad each state is, to tell the worse of two. */
const SEVERITY: Record<ProbedState, number> = { ok: 0, degraded: 1, down: 2 }

/**
 * Jupiter's probe: the token list's search (what every scan reads), and a price through the swap API
 * the service is set to use (`JUPITER_SWAP_API`: v2 `GET /swap/v2/order` without a taker, v1 `GET
 * /swap/v1/quote`), since a host or a key can serve one and not the other. `/swap/v2/build` is not
 * asked: it needs a taker wallet, and it shares /order's host and key. The worse of the two decides.
 */
export async function probeJupiter(jupiter: JupiterSource, usdcMint: string = USDC_MINT_ADDRESS): Promise<ProbeResult> {
  const [tokens, swap] = await Promise.all([
    answered(async () => {
      const found = await jupiter.probeToken(USDC_MINT_ADDRESS, new CallMeter())
      return `token search answered (${found.length} entries for USDC)`
    }),
    probeSwapApi(jupiter, usdcMint),
  ])
  return {
    state: SEVERITY[swap.state] > SEVERITY[tokens.state] ? swap.state : tokens.state,
    detail: `${tokens.detail}; ${swap.detail}`,
  }
}

/**
 * A price of 0.01 SOL in `usdcMint` (the USDC the exit check prices in) through the swap API in use,
 * named with its path whatever the outcome.
 */
async function probeSwapApi(jupiter: JupiterSource, usdcMint: string): Promise<ProbeResult> {
  const path = PRICE_PATHS[jupiter.swapApi]
  const api = `swap API ${jupiter.swapApi} (GET ${path})`
  try {
    const price = await jupiter.price(
      // Jupiter's default slippage (v1's quote asks one; v2's /order does not).
      { inputMint: WRAPPED_SOL_MINT_ADDRESS, outputMint: usdcMint, amount: PROBED_LAMPORTS, slippageBps: 50 },
      new CallMeter(),
    )
    return { state: 'ok', detail: `${api} priced 0.01 SOL at ${price.outAmount} USDC units` }
  } catch (error) {
    const why = swapApiRefusal(error, path, jupiter.keyed)
    return { state: failedState(error), detail: `${api}: ${failureDetail(error)}${why ? `: ${why}` : ''}` }
  }
}

/**
 * Each configured source's health component (live traffic, and a probe where one is cheap), by upstream
 * name. `usdcMint` is the USDC the service prices in (SOLANA_PAYMENT_ASSET; mainnet's by default).
 */
export function sourceComponents(
  sources: {
    solana?: SolanaSource
    dexscreener?: DexScreenerSource
    jupiter?: JupiterSource
    lifi?: LifiSource
    news?: NewsFeedsSource
    x?: XSource
    llm?: ModelClient
  },
  usdcMint: string = USDC_MINT_ADDRESS,
): [string, HealthComponent][] {
  const observing = (upstream: Upstream, probe?: HealthComponent['probe']) =>
    [upstream.name, { observe: () => upstream.observed(), probe }] as [string, HealthComponent]
  const components: [string, HealthComponent][] = []
  const { solana, dexscreener, jupiter, lifi, news, x, llm } = sources
  if (solana) components.push(observing(solana.upstream, () => probeSolana(solana)))
  if (dexscreener)
    components.push(
      observing(dexscreener.upstream, () =>
        answered(async () => {
          const pairs = await dexscreener.probePairs(USDC_MINT_ADDRESS, new CallMeter())
          return `USDC's pairs: ${pairs.length}`
        }),
      ),
    )
  if (jupiter) components.push(observing(jupiter.upstream, () => probeJupiter(jupiter, usdcMint)))
  if (lifi) components.push(observing(lifi.upstream))
  if (news)
    for (const [index, upstream] of news.upstreams.entries()) {
      const name = news.names[index]!
      components.push(
        observing(upstream, () => answered(async () => `${await news.probe(name, new CallMeter())} posts in the feed`)),
      )
    }
  if (x) components.push(observing(x.upstream))
  if (llm) components.push(observing(llm.upstream))
  return components
}

/** The health components a source of the `requires` of a manifest stands for (`news` is every feed). */
function componentsOf(source: string, names: readonly string[]): string[] {
  if (source === 'news') return names.filter((name) => name.startsWith('news:'))
  return [source === 'solana' ? 'solana_rpc' : source]
}

/**
 * The routes served but failing now, grouped by why: a priced route while the facilitator is down (no
 * payment can be taken), a route whose every source of one requirement is down. Each `why` names the
 * dependency and what its last probe found.
 */
export function failingRoutes(
  routes: readonly { key: string; price: unknown; requires?: readonly { source: string | readonly string[] }[] }[],
  reading: { components: Record<string, string>; details: Record<string, string> },
): { routes: string[]; why: string }[] {
  const names = Object.keys(reading.components)
  const down = (name: string) => reading.components[name] === 'down'
  const because = (name: string) => `${name} is down${reading.details[name] ? ` (${reading.details[name]})` : ''}`
  const failing = new Map<string, string[]>()
  for (const route of routes) {
    let why: string | undefined
    if (route.price !== 'free' && down('facilitator')) why = `${because('facilitator')}: no payment can be taken`
    for (const requirement of route.requires ?? []) {
      if (why) break
      const sources = typeof requirement.source === 'string' ? [requirement.source] : requirement.source
      const components = sources
        .flatMap((source) => componentsOf(source, names))
        .filter((name) => name in reading.components)
      if (components.length > 0 && components.every(down)) why = components.map(because).join('; ')
    }
    if (why) failing.set(why, [...(failing.get(why) ?? []), route.key])
  }
  return [...failing].map(([why, keys]) => ({ routes: keys, why }))
}
