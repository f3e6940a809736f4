/**
 * `npm run pay -- <route> <mint>`: pays one call of the service running on the sandbox (`npm start`)
 * as the demo buyer, with the official x402 v2 client, and prints the receipt and the answer. It pays
 * in sandbox USDC on the Solana rail, or with `--rail base` in the test USDC on anvil (EIP-3009).
 *
 *   npm run pay -- /scan/quick <mint> [--rail solana|base] [--service URL] [--world ./data/sandbox/world.json]
 *
 * The service: --service, else SOLSENTRY_URL, else the one `npm start` wrote in the world file, else PORT
 * on this machine, else 8402.
 */
import { demoPayer, paymentLine, payingFetch, readWorld, runDemo, serviceOf, takeOption } from './demo-client.ts'

const args = process.argv.slice(2)
const rail = takeOption(args, 'rail', 'solana')
const world = readWorld(args)
const service = serviceOf(args, world)
const [route, mint] = args
if (!route || !mint || (rail !== 'solana' && rail !== 'base')) {
  console.error(
    'usage: npm run pay -- <route such as /scan/quick> <mint> [--rail solana|base] [--service URL] [--world path/to/world.json]',
  )
  process.exit(2)
}

await runDemo(
  'npm run pay',
  () => service,
  async () => {
    const { client, payer, network } = await demoPayer(world, rail)
    const response = await payingFetch(client, rail)(`${service}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token_address: mint }),
    })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {}
    console.error(paymentLine('npm run pay', response, body, `paid by ${payer} on ${network}`))
    console.log(body === undefined ? text : JSON.stringify(body, null, 2))
    return response.ok ? 0 : 1
  },
)
