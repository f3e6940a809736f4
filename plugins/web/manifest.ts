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
        'Paste a mint and see its quick scan as a card, then go deeper to market intel, the deep dive, the exit check and ' +
        'the news; a wallet for its intel; the market for trending, the radars and a trade idea, with pictures; paid calls are paid ' +
        'from a Solana (wallet standard) or EVM (EIP-6963) browser wallet with the official x402 client, or from the demo ' +
        'wallet where the operator configured one. Every asset is served by the service.',
      price: 'free',
      response: Html,
      produces: 'text/html',
      tags: ['web'],
    },
    tokenPage: {
      method: 'GET',
      path: '/t/:mint',
      summary: "The web page, opened on a token's view",
      description:
        'The page at `/`, opened on the token `mint`: its address in the form and every answer about it (quick scan, ' +
        'market intel, deep dive, exit check, news) one click away, each paid only when pressed. The URL to share a token. ' +
        'Not a mint (a ticker, say): a browser (Accept: text/html) gets the page with status 400 saying so in words, any other client the JSON error.',
      price: 'free',
      // Checked by the handler with checkSolanaAddress, for its actionable message (a ticker is named as one).
      params: Type.Object({
        mint: Type.String({ description: 'Solana SPL mint address (base58, 32 to 44 characters); not a ticker' }),
      }),
      errors: ['INVALID_ADDRESS'],
      response: Html,
      produces: 'text/html',
      tags: ['web'],
    },
    walletPage: {
      method: 'GET',
      path: '/w/:address',
      summary: "The web page, opened on a wallet's view",
      description:
        'The page at `/`, opened on the wallet `address`, its wallet intel one click away (paid only when pressed). The URL to share a wallet. ' +
        'Not a wallet address (a ticker, say): a browser (Accept: text/html) gets the page with status 400 saying so in words, any other client the JSON error.',
      price: 'free',
      params: Type.Object({ address: Type.String({ description: 'The Solana wallet (base58, 32 to 44 characters)' }) }),
      errors: ['INVALID_ADDRESS'],
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
    favicon: {
      method: 'GET',
      path: '/favicon.ico',
      summary: "The page's icon",
      description:
        'A small SVG shield (image/svg+xml), linked by the page, so a browser asking for /favicon.ico finds it.',
      price: 'free',
      response: Type.String(),
      produces: 'image/svg+xml',
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
    demoSignIn: {
      method: 'POST',
      path: '/demo/sign-in',
      summary: 'The demo wallet signs in to fetch again an answer it paid for (sign-in-with-x)',
      description:
        "Only where DEMO_WALLET_KEYPAIR is set: signs the sign-in-with-x message of one of this service's own 402s (its domain, a priced route, its statement, the Solana network it takes payment on) with the demo wallet, and answers the SIGN-IN-WITH-X header; with it the same request gets the answer the demo wallet paid for in the last 24 hours again, without a payment. Any other message is refused.",
      price: 'free',
      body: Type.Object(
        {
          info: Type.Object(
            {
              domain: Type.String(),
              uri: Type.String(),
              statement: Type.Optional(Type.String()),
              version: Type.String(),
              nonce: Type.String(),
              issuedAt: Type.String(),
              expirationTime: Type.Optional(Type.String()),
              resources: Type.Optional(Type.Array(Type.String())),
            },
            { description: "The 402's extensions['sign-in-with-x'].info" },
          ),
          chainId: Type.String({ description: 'The Solana network of its supportedChains (CAIP-2)' }),
        },
        { additionalProperties: false },
      ),
      response: Type.Object({ header: Type.String({ description: 'The SIGN-IN-WITH-X header to send' }) }),
      errors: ['NOT_FOUND', 'INVALID_REQUEST'],
      rateLimit: 'scanner',
      tags: ['web'],
    },
  },
})
