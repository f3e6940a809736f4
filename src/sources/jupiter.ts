import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { HttpJsonSource, type HttpJsonSourceOptions } from './http-json.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../onchain/programs.ts'
import type { CallMeter } from './upstream.ts'

/** An optional member that may also be null: Jupiter's OpenAPI marks most of its fields nullable. */
const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/**
 * Tokens v2 `SwapStats`: the members we read. Changes are percent against the window before (the
 * recorded USDC entry's 5-minute `volumeChange` of -47.6 is a 47.6% drop); volumes are USD; the counts
 * are trades and wallets in the window. Every member is nullable in Jupiter's schema and each may be
 * absent (the stand-in measures no organic or holder members).
 */
const SwapStats = Type.Object({
  priceChange: Maybe(Type.Number()),
  holderChange: Maybe(Type.Number()),
  liquidityChange: Maybe(Type.Number()),
  volumeChange: Maybe(Type.Number()),
  buyVolume: Maybe(Type.Number()),
  sellVolume: Maybe(Type.Number()),
  buyOrganicVolume: Maybe(Type.Number()),
  sellOrganicVolume: Maybe(Type.Number()),
  numBuys: Maybe(Type.Number()),
  numSells: Maybe(Type.Number()),
  numTraders: Maybe(Type.Number()),
  numOrganicBuyers: Maybe(Type.Number()),
  numNetBuyers: Maybe(Type.Number()),
})
export type JupiterSwapStats = Static<typeof SwapStats>

/**
 * The Jupiter Tokens API v2 entry fields we read (jup-ag/docs openapi-spec/tokens/v2/tokens.yaml,
 * `MintInformation`; recorded answers in test/fixtures/recorded/). Other members are allowed and
 * ignored. The audit's `*Disabled` flags are left out when false — absent never means revoked.
 */
export const JupiterTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  icon: Maybe(Type.String()),
  decimals: Type.Number(),
  tokenProgram: Type.Optional(Type.String()),
  dev: Maybe(Type.String()),
  /** Present when the mint authority is not disabled. */
  mintAuthority: Maybe(Type.String()),
  /** Present when the freeze authority is not disabled. */
  freezeAuthority: Maybe(Type.String()),
  holderCount: Maybe(Type.Number()),
  firstPool: Maybe(Type.Object({ id: Type.String(), createdAt: Type.String() })),
  audit: Maybe(
    Type.Object({
      isSus: Maybe(Type.Boolean()),
      mintAuthorityDisabled: Maybe(Type.Boolean()),
      freezeAuthorityDisabled: Maybe(Type.Boolean()),
      /** Share of the supply held by the top holders, 0–100 (25.07 means 25.07%). */
      topHoldersPercentage: Maybe(Type.Number()),
      devBalancePercentage: Maybe(Type.Number()),
      devMints: Maybe(Type.Number()),
    }),
  ),
  organicScore: Maybe(Type.Number()),
  organicScoreLabel: Maybe(Type.String()),
  usdPrice: Maybe(Type.Number()),
  /** USD in the token's pools. */
  liquidity: Maybe(Type.Number()),
  mcap: Maybe(Type.Number()),
  fdv: Maybe(Type.Number()),
  /** The token's own swap stats per window; `priceChange` in percent (SOL's 1.51 is +1.51% in 24 h). */
  stats5m: Maybe(SwapStats),
  stats1h: Maybe(SwapStats),
  stats6h: Maybe(SwapStats),
  stats24h: Maybe(SwapStats),
  tags: Maybe(Type.Array(Type.String())),
  isVerified: Maybe(Type.Boolean()),
  /** Centralised exchanges that list the token (supporting evidence of an established asset). */
  cexes: Maybe(Type.Array(Type.String())),
})

export type JupiterToken = Static<typeof JupiterTokenSchema>

/** An amount in a token's smallest units, a decimal string: a u64 outgrows a JavaScript number. */
const Amount = Type.String({ pattern: '^\\d+$' })

/**
 * What every Jupiter quote states, whichever API answers (v1 `/quote`, Swap API v2 `/order` and
 * `/build`): the mints and the amounts in and out — all a price needs.
 */
const tradedAmounts = {
  inputMint: Type.String(),
  inAmount: Amount,
  outputMint: Type.String(),
  outAmount: Amount,
}

/**
 * The terms of a quote a swap is built on (v1 `/quote`, v2 `/build`): the amounts, the least the swap
 * may pay and the slippage that sets it. v2's `/order` without a taker builds nothing: its amounts only.
 */
const quoteTerms = {
  ...tradedAmounts,
  otherAmountThreshold: Amount,
  swapMode: Type.String(),
  slippageBps: Type.Number(),
}

/** A leg of a route as a quote a swap is built on names it: the pool (`ammKey`), its venue, the mints. */
const SwapLeg = Type.Object({
  ammKey: Type.String(),
  label: Type.Optional(Type.String()),
  inputMint: Type.String(),
  outputMint: Type.String(),
})

/** A step of a route plan: its leg and the share of the input it carries, in percent. */
const routeStep = { swapInfo: SwapLeg, percent: Type.Number() }

/** The Jupiter swap v1 quote fields we read (extra fields allowed; the whole quote is passed back to /swap). */
export const JupiterQuoteSchema = Type.Object({
  ...quoteTerms,
  priceImpactPct: Type.String(),
  routePlan: Type.Array(Type.Object(routeStep)),
  contextSlot: Type.Optional(Type.Number()),
})

export type JupiterQuote = Static<typeof JupiterQuoteSchema>

export const JupiterSwapSchema = Type.Object({
  swapTransaction: Type.String({ minLength: 1 }),
  lastValidBlockHeight: Type.Number(),
})

export type JupiterSwap = Static<typeof JupiterSwapSchema>

/** An instruction as Swap API v2 `/build` returns it: the program, its accounts, its data in base64. */
const BuildInstructionSchema = Type.Object({
  programId: Type.String({ minLength: 32, maxLength: 44 }),
  accounts: Type.Array(
    Type.Object({
      pubkey: Type.String({ minLength: 32, maxLength: 44 }),
      isSigner: Type.Boolean(),
      isWritable: Type.Boolean(),
    }),
  ),
  data: Type.String(),
})

export type JupiterBuildInstruction = Static<typeof BuildInstructionSchema>

/**
 * The Swap API v2 `GET /swap/v2/build` answer, the members we read (extra fields allowed): the quote's
 * terms as v1's quote gave them, then the instructions to assemble (compute price, setup, the swap,
 * cleanup, other), the lookup tables as a map of table address to the addresses it holds (v1 named
 * only the tables' addresses), and the blockhash as bytes with its last valid block height
 * (jup-ag/docs openapi-spec/swap/v2/swap.yaml, GetBuild).
 */
export const JupiterBuildSchema = Type.Object({
  ...quoteTerms,
  /** A fraction ("0.001" is 0.1 %); the docs' schema has it since 2026-08-21 — absent, the impact is unknown. */
  priceImpactPct: Type.Optional(Type.String()),
  // v2 gives each step's share in basis points too.
  routePlan: Type.Array(Type.Object({ ...routeStep, bps: Type.Number() })),
  computeBudgetInstructions: Type.Array(BuildInstructionSchema),
  setupInstructions: Type.Array(BuildInstructionSchema),
  swapInstruction: BuildInstructionSchema,
  cleanupInstruction: Type.Union([BuildInstructionSchema, Type.Null()]),
  otherInstructions: Type.Array(BuildInstructionSchema),
  tipInstruction: Type.Optional(Type.Union([BuildInstructionSchema, Type.Null()])),
  addressesByLookupTableAddress: Type.Union([
    Type.Record(Type.String(), Type.Array(Type.String({ minLength: 32, maxLength: 44 }))),
    Type.Null(),
  ]),
  blockhashWithMetadata: Type.Object({
    blockhash: Type.Array(Type.Integer({ minimum: 0, maximum: 255 }), { minItems: 32, maxItems: 32 }),
    lastValidBlockHeight: Type.Number(),
  }),
})

export type JupiterBuild = Static<typeof JupiterBuildSchema>

/**
 * The Swap API v2 `GET /swap/v2/order` answer without a `taker`, the members we read (extra fields
 * allowed): a quote and no transaction (`transaction` null). All of Jupiter's routers compete (Metis,
 * JupiterZ RFQ, Dflow, OKX). `priceImpact` is in percentage points and negative when the output is worth
 * less than the input (-0.1 is a 0.1 % loss); the deprecated `priceImpactPct` is the same as a fraction
 * (jup-ag/docs openapi-spec/swap/v2/swap.yaml, GetOrder; test/fixtures/recorded/jupiter/order-v2-*).
 * Every member is optional in Jupiter's schema; the amounts are what a price needs.
 */
export const JupiterOrderSchema = Type.Object({
  ...tradedAmounts,
  priceImpact: Type.Optional(Type.Number()),
  priceImpactPct: Type.Optional(Type.String()),
  // Only the legs are counted (a price's `legs`): no more of each is asked than its pool and venue.
  routePlan: Type.Optional(
    Type.Array(Type.Object({ swapInfo: Type.Pick(SwapLeg, ['ammKey', 'label']), percent: Type.Number() })),
  ),
  router: Type.Optional(Type.String()),
  transaction: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

export type JupiterOrder = Static<typeof JupiterOrderSchema>

/** Which of Jupiter's swap APIs the service speaks (`JUPITER_SWAP_API`, docs/trade.md). */
export type JupiterSwapApi = 'v2' | 'v1'

/** The route each swap API prices on (`price`): what the health probe asks of the API in use. */
export const PRICE_PATHS: Record<JupiterSwapApi, string> = { v2: '/swap/v2/order', v1: '/swap/v1/quote' }

/**
 * A price: what `inAmount` of the input buys, through the configured swap API, read the same from both.
 * `priceImpactPct` is percent, positive when the trade moves the price against the trader; null when
 * the answer did not say (never read as zero).
 */
export interface JupiterPrice {
  api: JupiterSwapApi
  inAmount: string
  outAmount: string
  priceImpactPct: number | null
  /** Legs of the route (0 when the answer names none). */
  legs: number
}

/** Percent with four decimals, without a negative zero. */
const percent4 = (value: number) => Math.round(value * 10_000) / 10_000 + 0

/**
 * The impact a v1 quote or a v2 `/build` reports (`priceImpactPct`, a fraction), in percent; null when
 * the member is absent (v2's `/build` schema lists it only since 2026-08-21) or not a number.
 */
export function impactOfFraction(fraction: string | undefined): number | null {
  if (fraction === undefined || fraction.trim() === '') return null
  const value = Number(fraction)
  return Number.isFinite(value) ? percent4(value * 100) : null
}

/**
 * The impact a v2 `/order` reports, in percent against the trader: `priceImpact` (percentage points,
 * negative for a loss) turned around, else the deprecated `priceImpactPct` (a fraction, same sign);
 * null when it has neither.
 */
export function impactOfOrder(order: Pick<JupiterOrder, 'priceImpact' | 'priceImpactPct'>): number | null {
  if (typeof order.priceImpact === 'number' && Number.isFinite(order.priceImpact)) return percent4(-order.priceImpact)
  const fraction = impactOfFraction(order.priceImpactPct)
  return fraction === null ? null : percent4(-fraction)
}

/** Token-list tags change rarely. */
const TOKEN_TTL_MS = 10 * 60 * 1000
/** A category ranking is reused for half a minute: feeds asking at once share one call. */
const CATEGORY_TTL_MS = 30 * 1000

/** Tokens v2 categories and their windows (`/tokens/v2/{category}/{interval}`; limit 1 to 100, default 50). */
export const JUPITER_CATEGORIES = ['toptrending', 'toptraded', 'toporganicscore'] as const
export type JupiterCategory = (typeof JUPITER_CATEGORIES)[number]
export const JUPITER_INTERVALS = ['5m', '1h', '6h', '24h'] as const
export type JupiterInterval = (typeof JUPITER_INTERVALS)[number]
export const JUPITER_CATEGORY_MAX_LIMIT = 100

/**
 * Jupiter: the token list (tokens v2: verified flag, tags, audit), swap quotes and swap transactions (v1
 * API), swap instructions (Swap API v2 `/build`) and quotes without a wallet (Swap API v2 `/order`).
 */
export class JupiterSource {
  readonly #http: HttpJsonSource
  /** The swap API prices are asked of (`JUPITER_SWAP_API`; v2 unless told). */
  readonly swapApi: JupiterSwapApi
  /** Whether requests carry an API key: a refusal then means the key, else the want of one. */
  readonly keyed: boolean

  constructor(
    options: Omit<HttpJsonSourceOptions, 'name'> & {
      swapApi?: JupiterSwapApi
      /** `JUPITER_API_KEY`, sent as `x-api-key`; keyless without it. */
      apiKey?: string
    },
  ) {
    const { swapApi = 'v2', apiKey, ...http } = options
    const headers = apiKey ? { ...http.headers, 'x-api-key': apiKey } : http.headers
    this.#http = new HttpJsonSource({ ...http, ...(headers ? { headers } : {}), name: 'jupiter' })
    this.swapApi = swapApi
    this.keyed = Boolean(apiKey)
  }

  get upstream() {
    return this.#http.upstream
  }

  /**
   * A swap quote (`GET /swap/v1/quote`, ExactIn). A refusal (no route, same mint, ...) throws an
   * UpstreamError with reason `rejected` whose `body` carries Jupiter's `{ error, errorCode }`.
   */
  quote(
    request: { inputMint: string; outputMint: string; amount: bigint; slippageBps: number },
    meter: CallMeter,
  ): Promise<JupiterQuote> {
    const query = new URLSearchParams({
      inputMint: request.inputMint,
      outputMint: request.outputMint,
      amount: request.amount.toString(),
      slippageBps: String(request.slippageBps),
      swapMode: 'ExactIn',
    })
    return this.#quote(`${PRICE_PATHS.v1}?${query}`, meter)
  }

  /**
   * A quote without a wallet (`GET /swap/v2/order` with no `taker`: Jupiter answers the quote and no
   * transaction). ExactIn, the only mode v2 serves; no slippage asked (nothing is built), so no optional
   * parameter narrows the routers that compete. Refusals throw as the v1 quote's do (400 `{error}`).
   */
  order(request: { inputMint: string; outputMint: string; amount: bigint }, meter: CallMeter): Promise<JupiterOrder> {
    const query = new URLSearchParams({
      inputMint: request.inputMint,
      outputMint: request.outputMint,
      amount: request.amount.toString(),
    })
    // Quotes move with every trade: never served from a cache.
    return this.#http.get(`${PRICE_PATHS.v2}?${query}`, JupiterOrderSchema, meter, 0)
  }

  /**
   * What `amount` of `inputMint` buys of `outputMint` now, ExactIn, through the configured swap API:
   * v2 `/swap/v2/order` without a taker, v1 `/swap/v1/quote`. For prices only (the exit check, the
   * trade idea): a trade is quoted with its own transaction (plugins/trade/quote.ts).
   */
  async price(
    request: { inputMint: string; outputMint: string; amount: bigint; slippageBps: number },
    meter: CallMeter,
  ): Promise<JupiterPrice> {
    if (this.swapApi === 'v1') {
      const quote = await this.quote(request, meter)
      return {
        api: 'v1',
        inAmount: quote.inAmount,
        outAmount: quote.outAmount,
        priceImpactPct: impactOfFraction(quote.priceImpactPct),
        legs: quote.routePlan.length,
      }
    }
    const order = await this.order(request, meter)
    return {
      api: 'v2',
      inAmount: order.inAmount,
      outAmount: order.outAmount,
      priceImpactPct: impactOfOrder(order),
      legs: order.routePlan?.length ?? 0,
    }
  }

  /**
   * The swap transaction for a quote (`POST /swap/v1/swap`): base64, the user's signature slot empty.
   * `trackingAccount` is Jupiter's integrator tracking key ("any public key"), added read-only to the
   * swap: a key of its own per trade job makes each job's transaction distinct.
   */
  swap(
    request: { quote: JupiterQuote; userPublicKey: string; trackingAccount?: string },
    meter: CallMeter,
  ): Promise<JupiterSwap> {
    const tracking = request.trackingAccount ? { trackingAccount: request.trackingAccount } : {}
    return this.#http.post(
      '/swap/v1/swap',
      {
        quoteResponse: request.quote,
        userPublicKey: request.userPublicKey,
        wrapAndUnwrapSol: true,
        dynamicComputeUnitLimit: true,
        ...tracking,
      },
      JupiterSwapSchema,
      meter,
    )
  }

  /**
   * A quote with the instructions of its swap (`GET /swap/v2/build`, Swap API v2: ExactIn only, the
   * swapping wallet named `taker`). Refusals throw as the quote's do. Never cached: it carries a blockhash.
   */
  build(
    request: { inputMint: string; outputMint: string; amount: bigint; slippageBps: number; taker: string },
    meter: CallMeter,
  ): Promise<JupiterBuild> {
    const query = new URLSearchParams({
      inputMint: request.inputMint,
      outputMint: request.outputMint,
      amount: request.amount.toString(),
      taker: request.taker,
      slippageBps: String(request.slippageBps),
    })
    return this.#http.get(`/swap/v2/build?${query}`, JupiterBuildSchema, meter, 0)
  }

  #quote(path: string, meter: CallMeter): Promise<JupiterQuote> {
    // Quotes move with every trade: never served from a cache.
    return this.#http.get(path, JupiterQuoteSchema, meter, 0)
  }

  /** Every token-list entry carrying `tag` (the endpoint accepts `verified`, `lst` and `stocks`). */
  tagged(tag: string, meter: CallMeter): Promise<JupiterToken[]> {
    return this.#http.get(
      `/tokens/v2/tag?query=${encodeURIComponent(tag)}`,
      Type.Array(JupiterTokenSchema),
      meter,
      TOKEN_TTL_MS,
    )
  }

  /**
   * The top tokens of a category over a window (`GET /tokens/v2/{category}/{interval}`), best first.
   * Jupiter leaves out generic top tokens (SOL, USDC, ...).
   */
  category(
    category: JupiterCategory,
    interval: JupiterInterval,
    limit: number,
    meter: CallMeter,
  ): Promise<JupiterToken[]> {
    return this.#http.get(
      `/tokens/v2/${category}/${interval}?limit=${limit}`,
      Type.Array(JupiterTokenSchema),
      meter,
      CATEGORY_TTL_MS,
    )
  }

  /** Today's SOL price in USD: wrapped SOL's token-list entry; null when the list gives none. */
  async solUsd(meter: CallMeter): Promise<number | null> {
    const entry = await this.token(WRAPPED_SOL_MINT_ADDRESS, meter)
    return typeof entry?.usdPrice === 'number' ? entry.usdPrice : null
  }

  /** The token-list entry of `mint`, or null when the list does not know it. */
  async token(mint: string, meter: CallMeter): Promise<JupiterToken | null> {
    const found = await this.search(mint, meter)
    return found.find((token) => token.id === mint) ?? null
  }

  /** The token list's search for `mint`, uncached: the health probe's one call (the list's cheapest route). */
  probeToken(mint: string, meter: CallMeter): Promise<JupiterToken[]> {
    return this.#http.get(
      `/tokens/v2/search?query=${encodeURIComponent(mint)}`,
      Type.Array(JupiterTokenSchema),
      meter,
      0,
    )
  }

  /** The token list's search (`GET /tokens/v2/search`): by mint, symbol or name, best matches first. */
  search(query: string, meter: CallMeter): Promise<JupiterToken[]> {
    return this.#http.get(
      `/tokens/v2/search?query=${encodeURIComponent(query)}`,
      Type.Array(JupiterTokenSchema),
      meter,
      TOKEN_TTL_MS,
    )
  }
}
