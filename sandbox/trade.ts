/**
 * `npm run trade -- <mint>`: a swap on the service running on the sandbox (`npm start`), as a caller
 * with its own wallet does it: quote (risk gate, unsigned transaction), sign locally with the demo
 * buyer's keypair, execute with the fee paid by the official x402 v2 client; prints each answer.
 * Buys `<mint>` with SOL, or sells it for SOL with `--sell`.
 *
 *   npm run trade -- <mint> [--amount 100000000] [--sell] [--rail solana|base] [--service URL] [--world path]
 *
 * `--amount` is in atomic units of the token sold (lamports when buying: 100000000 = 0.1 SOL).
 */
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import { WRAPPED_SOL_MINT_ADDRESS } from '../src/onchain/programs.ts'
import { demoBuyer, demoPayer, payingFetch, readWorld, takeOption } from './demo-client.ts'

const SOL = WRAPPED_SOL_MINT_ADDRESS
const args = process.argv.slice(2)
const service = takeOption(args, 'service', 'http://127.0.0.1:8402')
const rail = takeOption(args, 'rail', 'solana')
const amount = takeOption(args, 'amount', '100000000')
const sell = args.includes('--sell')
const world = readWorld(args)
const mint = args.find((arg) => !arg.startsWith('--'))
if (!mint || (rail !== 'solana' && rail !== 'base') || !/^\d+$/.test(amount)) {
  console.error(
    'usage: npm run trade -- <mint> [--amount <atomic units>] [--sell] [--rail solana|base] [--service URL] [--world path/to/world.json]',
  )
  process.exit(2)
}

const buyer = await demoBuyer(world)
const post = (path: string, body: unknown, fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch) =>
  fetcher(`${service}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const request = {
  input_mint: sell ? mint : SOL,
  output_mint: sell ? SOL : mint,
  amount_in: amount,
  user_public_key: buyer.address,
}
const quoted = await post('/trade/quote', request)
const quote = (await quoted.json()) as { job_id: string; status: string; unsigned_transaction_b64?: string }
console.error(`quote: HTTP ${quoted.status}, ${quote.status}`)
console.log(
  JSON.stringify(
    { ...quote, unsigned_transaction_b64: quote.unsigned_transaction_b64 ? '(base64, signed below)' : undefined },
    null,
    2,
  ),
)
if (quoted.status !== 200 || !quote.unsigned_transaction_b64) process.exit(1)

const transaction = getTransactionDecoder().decode(Buffer.from(quote.unsigned_transaction_b64, 'base64'))
const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
const { client, payer, network } = await demoPayer(world, rail)
const executed = await post(
  '/trade/execute',
  { job_id: quote.job_id, signed_transaction_b64: signed },
  payingFetch(client, rail),
)
const receipt = executed.headers.get('payment-response')
console.error(
  `execute: HTTP ${executed.status}; fee paid by ${payer} on ${network}${receipt ? `; receipt ${Buffer.from(receipt, 'base64').toString()}` : ''}`,
)
console.log(JSON.stringify(await executed.json(), null, 2))
process.exit(executed.ok ? 0 : 1)
