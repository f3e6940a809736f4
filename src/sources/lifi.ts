import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { HttpJsonSource, type HttpJsonSourceOptions } from './http-json.ts'
import type { CallMeter } from './upstream.ts'

/** An optional member that may also be null. */
const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/** LI.FI's id of Solana (docs.li.fi agents/reference/schemas: "Solana 1151111081099710 SVM"). */
export const LIFI_SOLANA_CHAIN_ID = 1151111081099710

/**
 * The EVM chains an exit can be bridged home to: LI.FI chain id and key (docs.li.fi agents/reference/
 * schemas) and native USDC there (Circle's USDC contract addresses; Polygon's is native USDC, not the
 * bridged USDC.e 0x2791…4174 of LI.FI's older Solana example).
 */
export const HOME_CHAINS = {
  base: { id: 8453, key: 'BAS', name: 'Base', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  ethereum: { id: 1, key: 'ETH', name: 'Ethereum', usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
  arbitrum: { id: 42161, key: 'ARB', name: 'Arbitrum', usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' },
  optimism: { id: 10, key: 'OPT', name: 'Optimism', usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' },
  polygon: { id: 137, key: 'POL', name: 'Polygon', usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' },
} as const
export type HomeChain = keyof typeof HOME_CHAINS

const LifiToken = Type.Object({
  address: Type.String(),
  chainId: Type.Number(),
  symbol: Type.String(),
  decimals: Type.Number(),
  priceUSD: Maybe(Type.String()),
})

/** A fee or gas cost: amounts are strings in the token's smallest unit, `amountUSD` a decimal string. */
const LifiCost = Type.Object({
  name: Type.Optional(Type.String()),
  amount: Type.String(),
  amountUSD: Maybe(Type.String()),
  /** Fees only: true when already taken out of `toAmount`. */
  included: Type.Optional(Type.Boolean()),
  token: LifiToken,
})

/**
 * The LI.FI `GET /v1/quote` members we read (a recorded answer: test/fixtures/recorded/lifi/, Ethereum →
 * Arbitrum through CCTP, 2026-10-04). Other members are allowed and ignored.
 */
export const LifiQuoteSchema = Type.Object({
  type: Type.String(),
  id: Type.String(),
  tool: Type.String(),
  toolDetails: Type.Object({ key: Type.String(), name: Type.String() }),
  action: Type.Object({
    fromChainId: Type.Number(),
    toChainId: Type.Number(),
    fromToken: LifiToken,
    toToken: LifiToken,
    fromAmount: Type.String(),
  }),
  estimate: Type.Object({
    fromAmount: Type.String(),
    toAmount: Type.String(),
    toAmountMin: Type.String(),
    /** Seconds. */
    executionDuration: Type.Number(),
    feeCosts: Maybe(Type.Array(LifiCost)),
    gasCosts: Maybe(Type.Array(LifiCost)),
    fromAmountUSD: Maybe(Type.String()),
    toAmountUSD: Maybe(Type.String()),
  }),
  includedSteps: Maybe(Type.Array(Type.Object({ type: Type.String(), tool: Type.String() }))),
})
export type LifiQuote = Static<typeof LifiQuoteSchema>

/** LI.FI's error body (`{message, code}`; 1002 = no quote, 1011 = invalid parameters). */
export const LIFI_NO_QUOTE = 1002

/** A quote is reused for 20 s: a retry or a second caller for the same exit does not spend the keyless limit. */
const QUOTE_TTL_MS = 20_000

/** LI.FI: bridge quotes (read-only; nothing is signed or sent). */
export class LifiSource {
  readonly #http: HttpJsonSource

  constructor(options: Omit<HttpJsonSourceOptions, 'name'>) {
    this.#http = new HttpJsonSource({ ...options, name: 'lifi' })
  }

  get upstream() {
    return this.#http.upstream
  }

  /**
   * A quote for moving `amount` (smallest units) of `fromToken` on Solana to `toToken` on `home`. A
   * refusal (no route: 404 with code 1002; bad parameters: 400 with 1011) throws an UpstreamError with
   * reason `rejected` whose `body` carries LI.FI's `{message, code}`.
   */
  quote(
    request: { fromToken: string; home: HomeChain; amount: bigint; fromAddress: string; toAddress: string },
    meter: CallMeter,
  ): Promise<LifiQuote> {
    const chain = HOME_CHAINS[request.home]
    const query = new URLSearchParams({
      fromChain: String(LIFI_SOLANA_CHAIN_ID),
      toChain: String(chain.id),
      fromToken: request.fromToken,
      toToken: chain.usdc,
      fromAmount: request.amount.toString(),
      fromAddress: request.fromAddress,
      toAddress: request.toAddress,
      integrator: 'solsentry',
    })
    return this.#http.get(`/v1/quote?${query}`, LifiQuoteSchema, meter, QUOTE_TTL_MS)
  }
}
