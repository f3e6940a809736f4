import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseJsonWithBigInts } from '@solana/rpc-spec-types'
import { USDC_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { CASSETTE_VERSION, type Cassette, type Exchange } from '../../src/sources/tape.ts'

/**
 * Cassettes assembled from the recorded real answers (test/fixtures/recorded, each with its source and
 * date), to replay real tokens' scans in the mainnet profile on the public RPC (docs/replay.md):
 *
 * - the mint account: a recorded getAccountInfo answer;
 * - getTokenLargestAccounts: the public endpoint's refusal, in agave's wording for the mint's key
 *   (`{key} excluded from account secondary indexes; this RPC method unavailable for key`, recorded for
 *   the Token program's key in solana-labs/solana#20973) — the only answer in these cassettes that is
 *   written from a recorded form rather than copied;
 * - the token list: Jupiter's recorded tokens v2 entry;
 * - DexScreener: recorded pairs that trade the token (for USDC, the SOL/USDC Raydium pair of a recorded
 *   answer — the real answer for USDC lists many more pairs).
 *
 * Anything else the scan asks (the metadata account, the launchpad PDAs, the mint's history) is not in
 * the cassette: the replay answers 404 and lists it, and the scan degrades as it would on any outage.
 */
const RECORDED = join(import.meta.dir, '..', 'fixtures', 'recorded')
const answerOf = (folder: string, name: string) =>
  (parseJsonWithBigInts(readFileSync(join(RECORDED, folder, name), 'utf8')) as { answer: unknown }).answer
const jsonAnswerOf = (folder: string, name: string) =>
  (JSON.parse(readFileSync(join(RECORDED, folder, name), 'utf8')) as { answer: unknown }).answer

const CONFIRMED = { commitment: 'confirmed' }

function mintExchanges(mint: string, accountFixture: string): Exchange[] {
  const { id: _id, ...answer } = answerOf('solana-rpc', accountFixture) as { id: unknown }
  return [
    {
      source: 'solana_rpc',
      request: { method: 'getAccountInfo', params: [mint, { encoding: 'jsonParsed', ...CONFIRMED }] },
      answer,
      ms: 0,
    },
    {
      source: 'solana_rpc',
      request: { method: 'getTokenLargestAccounts', params: [mint, CONFIRMED] },
      answer: {
        jsonrpc: '2.0',
        error: {
          code: -32010,
          message: `${mint} excluded from account secondary indexes; this RPC method unavailable for key`,
        },
      },
      ms: 0,
    },
  ]
}

function cassette(mint: string, exchanges: Exchange[]): Cassette {
  return {
    cassette: CASSETTE_VERSION,
    request_id: `assembled-${mint}`,
    route: 'POST /scan/quick',
    body: { token_address: mint },
    recorded_at: '2026-11-25T00:00:00.000Z',
    settings: { SOLSENTRY_PROFILE: 'mainnet', SOLANA_RPC_PROVIDER: 'public' },
    exchanges,
  }
}

/** Real USDC: its recorded mint, Jupiter entry and SOL/USDC pair; the public RPC refusing its holders. */
export function usdcCassette(): Cassette {
  const [solUsdc] = jsonAnswerOf('dexscreener', 'sol-tokens-v1-sol-usdc-raydium.json') as unknown[]
  return cassette(USDC_MINT_ADDRESS, [
    ...mintExchanges(USDC_MINT_ADDRESS, 'getAccountInfo-usdc-mint-jsonParsed.json'),
    {
      source: 'jupiter',
      request: { method: 'GET', path: `/tokens/v2/search?query=${USDC_MINT_ADDRESS}` },
      status: 200,
      answer: jsonAnswerOf('jupiter', 'tokens-v2-search-usdc.json'),
      ms: 0,
    },
    {
      source: 'dexscreener',
      request: { method: 'GET', path: `/token-pairs/v1/solana/${USDC_MINT_ADDRESS}` },
      status: 200,
      answer: [solUsdc],
      ms: 0,
    },
  ])
}

export const TSLAX_MINT = 'XsDoVfqeBukxuZHWhdvWHBhgEHjGNst4MLodqsJHzoB'

/** Real TSLAx (xStocks, Token-2022: permanent delegate, pausable, scaled UI amount): its recorded mint only. */
export function tslaxCassette(): Cassette {
  return cassette(TSLAX_MINT, mintExchanges(TSLAX_MINT, 'getAccountInfo-tslax-xstocks-token2022-mint-jsonParsed.json'))
}
