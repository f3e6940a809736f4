import { Type, type Static } from '@sinclair/typebox'
import { HttpJsonSource, type HttpJsonSourceOptions } from './http-json.ts'
import type { CallMeter } from './upstream.ts'

/** The Jupiter Tokens API v2 entry fields we read (tags carry `verified`, `stablecoin`, ...). */
export const JupiterTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  decimals: Type.Number(),
  tags: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  isVerified: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
})

export type JupiterToken = Static<typeof JupiterTokenSchema>

/** Token-list tags change rarely. */
const TOKEN_TTL_MS = 10 * 60 * 1000

/** Jupiter: the token list (verified and stablecoin tags) now; quotes and swaps with the trade issue. */
export class JupiterSource {
  readonly #http: HttpJsonSource

  constructor(options: Omit<HttpJsonSourceOptions, 'name'>) {
    this.#http = new HttpJsonSource({ ...options, name: 'jupiter' })
  }

  get upstream() {
    return this.#http.upstream
  }

  /** The token-list entry of `mint`, or null when the list does not know it. */
  async token(mint: string, meter: CallMeter): Promise<JupiterToken | null> {
    const found = await this.#http.get(`/tokens/v2/search?query=${mint}`, Type.Array(JupiterTokenSchema), meter, TOKEN_TTL_MS)
    return found.find((token) => token.id === mint) ?? null
  }
}
