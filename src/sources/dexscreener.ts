import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { HttpJsonSource, type HttpJsonSourceOptions } from './http-json.ts'
import type { CallMeter } from './upstream.ts'

const Window = <T extends ReturnType<typeof Type.Number>>(value: T) =>
  Type.Object({
    m5: Type.Optional(value),
    h1: Type.Optional(value),
    h6: Type.Optional(value),
    h24: Type.Optional(value),
  })
/** Documented nullable (docs.dexscreener.com), or null as recorded answers carry it. */
const Maybe = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
const Token = Type.Object({ address: Type.String(), name: Type.String(), symbol: Type.String() })
const Count = Type.Object({ buys: Type.Number(), sells: Type.Number() })

/** The DexScreener `Pair` fields the scanners read; extra fields are allowed, missing optional ones are null upstream. */
export const DexPairSchema = Type.Object({
  chainId: Type.String(),
  dexId: Type.String(),
  pairAddress: Type.String(),
  labels: Type.Optional(Maybe(Type.Array(Type.String()))),
  baseToken: Token,
  quoteToken: Token,
  priceNative: Type.String(),
  priceUsd: Type.Optional(Maybe(Type.String())),
  txns: Type.Optional(
    Type.Object({
      m5: Type.Optional(Count),
      h1: Type.Optional(Count),
      h6: Type.Optional(Count),
      h24: Type.Optional(Count),
    }),
  ),
  volume: Type.Optional(Window(Type.Number())),
  priceChange: Type.Optional(Maybe(Window(Type.Number()))),
  liquidity: Type.Optional(
    Maybe(
      Type.Object({
        usd: Type.Optional(Maybe(Type.Number())),
        // Launchpad pairs (a pump.fun curve) come with part of it: every member is optional upstream.
        base: Type.Optional(Type.Number()),
        quote: Type.Optional(Type.Number()),
      }),
    ),
  ),
  fdv: Type.Optional(Maybe(Type.Number())),
  marketCap: Type.Optional(Maybe(Type.Number())),
  pairCreatedAt: Type.Optional(Maybe(Type.Number())),
  info: Type.Optional(Type.Object({ imageUrl: Type.Optional(Type.String()) })),
})

export type DexPair = Static<typeof DexPairSchema>

/** DexScreener's limit of addresses per /tokens/v1 call. */
const MAX_TOKENS_PER_CALL = 30

/** Market data changes by the second; a few seconds of reuse lets concurrent scans share one call. */
const PAIRS_TTL_MS = 5_000

/** DexScreener (no key, ~300 requests/min): every pair that trades a token on Solana. */
export class DexScreenerSource {
  readonly #http: HttpJsonSource

  constructor(options: Omit<HttpJsonSourceOptions, 'name'>) {
    this.#http = new HttpJsonSource({ ...options, name: 'dexscreener' })
  }

  get upstream() {
    return this.#http.upstream
  }

  /** `GET /tokens/v1/solana/{mints}`: pairs of up to 30 tokens in one call. */
  pairsOfTokens(mints: readonly string[], meter: CallMeter): Promise<DexPair[]> {
    if (mints.length === 0) return Promise.resolve([])
    return this.#http.get(
      `/tokens/v1/solana/${mints.slice(0, MAX_TOKENS_PER_CALL).join(',')}`,
      Type.Array(DexPairSchema),
      meter,
      PAIRS_TTL_MS,
    )
  }

  /** `GET /tokens/v1/solana/{mint}` uncached: the health probe's one call (DexScreener has no status route). */
  probePairs(mint: string, meter: CallMeter): Promise<DexPair[]> {
    return this.#http.get(`/tokens/v1/solana/${mint}`, Type.Array(DexPairSchema), meter, 0)
  }

  /** `GET /token-pairs/v1/solana/{mint}`: pairs where the token is base or quote. */
  pairsOfToken(mint: string, meter: CallMeter): Promise<DexPair[]> {
    return this.#http.get(`/token-pairs/v1/solana/${mint}`, Type.Array(DexPairSchema), meter, PAIRS_TTL_MS)
  }
}
