// Bench target: the official x402 middleware for Hono (@x402/hono) serving the same offers as
// solsentry's quick scan (both rails: same price, assets, payTos, facilitator), on Bun. Prints
// "READY <url>" on stderr.
import { Hono } from 'hono'
import { HTTPFacilitatorClient } from '@x402/core/server'
import { paymentMiddleware, x402ResourceServer } from '@x402/hono'
import { ExactSvmScheme } from '@x402/svm/exact/server'
import { ExactEvmScheme } from '@x402/evm/exact/server'

const env = process.env as Record<string, string>
const network = env.SOLANA_PAYMENT_NETWORK as `${string}:${string}`
const baseNetwork = env.BASE_PAYMENT_NETWORK as `${string}:${string}`
const [name, version] = env.BASE_PAYMENT_ASSET_DOMAIN!.split(',')
const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: env.FACILITATOR_URL }))
  .register(network, new ExactSvmScheme())
  .register(baseNetwork, new ExactEvmScheme())
const app = new Hono()
app.use(
  paymentMiddleware(
    {
      'POST /scan/quick': {
        accepts: [
          {
            scheme: 'exact',
            network: baseNetwork,
            payTo: env.PAY_TO_BASE!,
            price: { asset: env.BASE_PAYMENT_ASSET!, amount: '20000', extra: { name, version } },
            maxTimeoutSeconds: 120,
          },
          {
            scheme: 'exact',
            network,
            payTo: env.PAY_TO_SOLANA!,
            price: { asset: env.SOLANA_PAYMENT_ASSET!, amount: '20000' },
            maxTimeoutSeconds: 120,
          },
        ],
        description: 'Structural safety check (A to F)',
        mimeType: 'application/json',
      },
    },
    server,
  ),
)
app.post('/scan/quick', (c) => c.json({ ok: true }))
const served = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch })
console.error(`READY http://127.0.0.1:${served.port}`)
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage()
  console.error(`CPU ${user + system}`)
  served.stop(true).then(() => process.exit(0))
})
