/**
 * `npm run trade -- <mint>`: a swap on the service running on the sandbox (`npm start`), as a caller
 * with its own wallet does it: quote (risk gate, unsigned transaction), sign locally with the demo
 * buyer's keypair, execute with the fee paid by the official x402 v2 client; prints each answer.
 * Buys `<mint>` with SOL, or sells it for SOL with `--sell`.
 *
 *   npm run trade -- <mint> [--amount 0.1] [--sell] [--yes] [--rail solana|base] [--service URL] [--world path]
 *
 * When the quote's risk gate says WARN it stops before signing unless `--yes` is given, as `solsentry
 * trade` does without a terminal to ask on (exit 3, nothing signed or paid).
 *
 * `--amount` is in the units of the token sold (0.1 = 0.1 SOL when buying; its decimals are read from
 * the chain when selling). The service: --service, else SOLSENTRY_URL, else the one `npm start` wrote
 * in the world file, else PORT on this machine, else 8402.
 */
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import { parseTokenAmount } from '../client/format.ts'
import { WRAPPED_SOL_MINT_ADDRESS } from '../src/onchain/programs.ts'
import {
  demoBuyer,
  demoPayer,
  paymentLine,
  payingFetch,
  readWorld,
  runDemo,
  serviceOf,
  takeOption,
} from './demo-client.ts'

const SOL = WRAPPED_SOL_MINT_ADDRESS
const args = process.argv.slice(2)
const rail = takeOption(args, 'rail', 'solana')
const amountText = takeOption(args, 'amount', '0.1')
const sell = args.includes('--sell')
const yes = args.includes('--yes')
const world = readWorld(args)
const service = serviceOf(args, world)
const mint = args.find((arg) => !arg.startsWith('--'))
if (!mint || (rail !== 'solana' && rail !== 'base')) {
  console.error(
    'usage: npm run trade -- <mint> [--amount 0.1] [--sell] [--yes] [--rail solana|base] [--service URL] [--world path/to/world.json]',
  )
  process.exit(2)
}

/** The decimals of the token sold: SOL's, or the mint's from the sandbox's RPC. */
async function decimalsSold(): Promise<number> {
  if (!sell) return 9
  const response = await fetch(world.urls.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenSupply', params: [mint] }),
  })
  const answer = (await response.json()) as { result?: { value?: { decimals?: number } } }
  const decimals = answer.result?.value?.decimals
  if (decimals === undefined) throw new Error(`${mint} is not a token mint on the sandbox's chain`)
  return decimals
}

await runDemo(
  'npm run trade',
  () => service,
  async () => {
    const parsed = parseTokenAmount(amountText, await decimalsSold())
    if ('error' in parsed) {
      console.error(`npm run trade: --amount: ${parsed.error}`)
      return 2
    }
    const buyer = await demoBuyer(world)
    const post = (
      path: string,
      body: unknown,
      fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
    ) =>
      fetcher(`${service}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })

    const request = {
      input_mint: sell ? mint : SOL,
      output_mint: sell ? SOL : mint,
      amount_in: parsed.atomic.toString(),
      user_public_key: buyer.address,
    }
    const quoted = await post('/trade/quote', request)
    const quote = (await quoted.json()) as {
      job_id: string
      status: string
      unsigned_transaction_b64?: string
      code?: string
      message?: string
      risk_gate?: { verdict: string; grade: string | null; reasons: { severity: string; detail: string }[] }
    }
    console.error(
      quoted.ok
        ? `quote: HTTP ${quoted.status}, ${quote.status}`
        : `npm run trade: quote refused: ${quote.code ?? quote.status ?? `HTTP ${quoted.status}`}: ${quote.message ?? (quote as { rejection?: { reason?: string } }).rejection?.reason ?? ''} (HTTP ${quoted.status}); nothing was signed or paid`,
    )
    console.log(
      JSON.stringify(
        { ...quote, unsigned_transaction_b64: quote.unsigned_transaction_b64 ? '(base64, signed below)' : undefined },
        null,
        2,
      ),
    )
    if (quoted.status !== 200 || !quote.unsigned_transaction_b64) return 1
    const gate = quote.risk_gate
    if (gate?.verdict === 'WARN' && !yes) {
      console.error(
        `npm run trade: the risk gate warns (grade ${gate.grade ?? 'not graded'}): ${gate.reasons.map((reason) => `${reason.severity} ${reason.detail.replace(/\.$/, '')}`).join('; ')}. Not signing without --yes; nothing was signed or paid`,
      )
      return 3
    }

    const transaction = getTransactionDecoder().decode(Buffer.from(quote.unsigned_transaction_b64, 'base64'))
    const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
    const { client, payer, network } = await demoPayer(world, rail)
    const executed = await post(
      '/trade/execute',
      { job_id: quote.job_id, signed_transaction_b64: signed },
      payingFetch(client, rail),
    )
    const answer = await executed.json()
    const line = paymentLine('npm run trade', executed, answer, `fee paid by ${payer} on ${network}`)
    console.error(executed.ok ? `execute: ${line}` : line)
    console.log(JSON.stringify(answer, null, 2))
    return executed.ok ? 0 : 1
  },
)
