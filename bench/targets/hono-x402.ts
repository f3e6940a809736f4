// Bench target: the official x402 middleware for Hono (@x402/hono) serving the same offers as
// solsentry's quick scan (both rails: same price, assets, payTos, facilitator), on Bun, with the same
// extensions in its 402, declared and enriched by the official @x402/extensions helpers: bazaar (the
// quick scan's body example and schema and its answer's example, from its manifest; the method added
// by the bazaar server extension), sign-in-with-x (a fresh nonce and times per challenge, the same
// statement and 5-minute expiry) and payment-identifier (optional); the resource's service name and
// tags as solsentry names them. Prints "READY <url>" on stderr.
import { Hono } from 'hono'
import { HTTPFacilitatorClient } from '@x402/core/server'
import { paymentMiddleware, x402ResourceServer } from '@x402/hono'
import { ExactSvmScheme } from '@x402/svm/exact/server'
import { ExactEvmScheme } from '@x402/evm/exact/server'
import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar'
import {
  declarePaymentIdentifierExtension,
  PAYMENT_IDENTIFIER,
  paymentIdentifierResourceServerExtension,
} from '@x402/extensions/payment-identifier'
import {
  createSIWxResourceServerExtension,
  declareSIWxExtension,
  InMemorySIWxStorage,
} from '@x402/extensions/sign-in-with-x'
import { manifest } from '../../plugins/quick-scan/manifest.ts'
import { discoveryDeclaration, discoveryTags, SERVICE_NAME } from '../../src/payments/discovery.ts'
import { SIGN_IN_STATEMENT } from '../../src/payments/answer-replay.ts'
import { SIWX_MAX_AGE_MS } from '../../src/payments/sign-in.ts'

const env = process.env as Record<string, string>
const network = env.SOLANA_PAYMENT_NETWORK as `${string}:${string}`
const baseNetwork = env.BASE_PAYMENT_NETWORK as `${string}:${string}`
const [name, version] = env.BASE_PAYMENT_ASSET_DOMAIN!.split(',')
const route = manifest.routes.scan

let app: Hono | undefined
const served = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => app!.fetch(request) })
const origin = `http://127.0.0.1:${served.port}`

const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: env.FACILITATOR_URL }))
  .register(network, new ExactSvmScheme())
  .register(baseNetwork, new ExactEvmScheme())
  .registerExtension(bazaarResourceServerExtension)
  .registerExtension(paymentIdentifierResourceServerExtension)
  .registerExtension(createSIWxResourceServerExtension({ storage: new InMemorySIWxStorage(), origin }))
app = new Hono()
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
        description: route.summary,
        mimeType: 'application/json',
        serviceName: SERVICE_NAME,
        tags: discoveryTags(route),
        extensions: {
          ...declareDiscoveryExtension(discoveryDeclaration(route)),
          [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
          ...declareSIWxExtension({ statement: SIGN_IN_STATEMENT, expirationSeconds: SIWX_MAX_AGE_MS / 1000 }),
        },
      },
    },
    server,
  ),
)
app.post('/scan/quick', (c) => c.json({ ok: true }))
console.error(`READY ${origin}`)
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage()
  console.error(`CPU ${user + system}`)
  served.stop(true).then(() => process.exit(0))
})
