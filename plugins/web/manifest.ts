import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { PaymentRequirementsSchema } from '../../src/payments/schemas.ts'

const Html = Type.String({ description: 'An HTML page' })

export const manifest = defineManifest({
  name: 'web',
  routes: {
    page: {
      method: 'GET',
      path: '/',
      summary: 'The web page for people',
      description:
        'Paste a mint and see its quick scan as a card, then go deeper to market intel and the deep dive; paid calls are paid ' +
        'from a Solana (wallet standard) or EVM (EIP-6963) browser wallet with the official x402 client, or from the demo ' +
        'wallet where the operator configured one. Every asset is served by the service.',
      price: 'free',
      response: Html,
      produces: 'text/html',
      tags: ['web'],
    },
    script: {
      method: 'GET',
      path: '/assets/app.js',
      summary: "The web page's script",
      description: 'The page, its wallets and the official x402 client, bundled for the browser by the service.',
      price: 'free',
      response: Type.String(),
      produces: 'text/javascript',
      tags: ['web'],
    },
    demoPay: {
      method: 'POST',
      path: '/demo/pay',
      summary: "The demo wallet signs a payment for one of this service's offers",
      description:
        "Only where DEMO_WALLET_KEYPAIR is set (never on mainnet): signs an x402 payment from the demo wallet for one of this service's own offers at a published price (any other offer is refused), so the web page can be tried without a wallet. The key never leaves the service.",
      price: 'free',
      body: Type.Object(
        {
          x402Version: Type.Literal(2),
          requirements: PaymentRequirementsSchema,
        },
        { additionalProperties: false },
      ),
      response: Type.Object(
        { x402Version: Type.Literal(2), payload: Type.Record(Type.String(), Type.Unknown()) },
        { description: 'What the x402 client puts in the payment it sends' },
      ),
      errors: ['NOT_FOUND', 'INVALID_REQUEST', 'UPSTREAM_UNAVAILABLE'],
      rateLimit: 'scanner',
      tags: ['web'],
    },
  },
})
