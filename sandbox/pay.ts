/**
 * `npm run pay -- <route> <mint>`: pays one call of the service running on the sandbox (`npm start`)
 * as the demo buyer, with the official x402 v2 client, and prints the receipt and the answer. It pays
 * in sandbox USDC on the Solana rail, or with `--rail base` in the test USDC on anvil (EIP-3009).
 *
 *   npm run pay -- /scan/quick <mint> [--rail solana|base] [--service http://127.0.0.1:8402] [--world ./data/sandbox/world.json]
 */
import { readFileSync } from 'node:fs'
import { createKeyPairSignerFromBytes } from '@solana/kit'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { SandboxWorldFile } from './index.ts'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args.splice(index, 2)[1]! : fallback
}
const service = option('service', 'http://127.0.0.1:8402')
const worldPath = option('world', `${process.env.DATA_DIR || './data'}/sandbox/world.json`)
const rail = option('rail', 'solana')
const [route, mint] = args
if (!route || !mint || (rail !== 'solana' && rail !== 'base')) {
  console.error('usage: npm run pay -- <route such as /scan/quick> <mint> [--rail solana|base] [--service URL] [--world path/to/world.json]')
  process.exit(2)
}

let world: SandboxWorldFile
try {
  world = JSON.parse(readFileSync(worldPath, 'utf8')) as SandboxWorldFile
} catch {
  console.error(`cannot read the sandbox world file ${worldPath}: start the sandbox first (npm start)`)
  process.exit(2)
}
const offer = world.x402[rail]
const network = offer.network as `${string}:${string}`
let payer: string
const client = new x402Client()
if (rail === 'base') {
  const account = privateKeyToAccount(world.evm_buyer.private_key as `0x${string}`)
  payer = account.address
  client.register(network, new ExactEvmScheme(account))
} else {
  const buyer = await createKeyPairSignerFromBytes(Uint8Array.from(JSON.parse(readFileSync(world.buyer.keypair_path, 'utf8')) as number[]))
  payer = buyer.address
  client.register(network, new ExactSvmScheme(buyer, { rpcUrl: world.urls.rpc }))
}
// The sandbox assets are not among the client's known ones: allow this one, up to 1 USDC a call.
client.setSpendControls({ allowedAssets: [{ network, asset: offer.asset, maxAmountPerPayment: '1000000' }] })
const response = await wrapFetchWithPayment(fetch, client)(`${service}${route}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ token_address: mint }),
})
const receipt = response.headers.get('payment-response')
console.error(`HTTP ${response.status}; paid by ${payer} on ${network}`)
if (receipt) console.error(`receipt: ${Buffer.from(receipt, 'base64').toString()}`)
console.log(JSON.stringify(await response.json(), null, 2))
process.exit(response.ok ? 0 : 1)
