import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PaymentRequirements } from '@x402/core/types'
import type { SIWxExtensionInfo } from '@x402/extensions/sign-in-with-x'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { htmlHeaders } from '../../src/http/html.ts'
import { publicOrigin } from '../../src/http/request.ts'
import { checkSolanaAddress } from '../../src/onchain/address.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { paymentRails } from '../../src/payments/rails.ts'
import { type DemoWallet, demoWallet } from './demo-wallet.ts'
import { manifest } from './manifest.ts'
import { BundleUnavailable, browserBundle } from '../../src/runtime/files.ts'
import { renderPage } from './page.ts'

export { manifest }

/** The web page for people at `/`: the page, its script (bundled here, no CDN) and the demo wallet. */
export function webPlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { routes } = manifest
  // The configured rails: the page offers wallets of those chains, and the demo wallet (Solana) with that rail only.
  const rails = paymentRails(ctx.config).map((rail) => rail.name)
  const wallet: Promise<DemoWallet | null> = rails.includes('solana') ? demoWallet(ctx) : Promise.resolve(null)
  const browserRpc = ctx.config.WEB_SOLANA_RPC_URL ?? null
  const connect = browserRpc ? [new URL(browserRpc).origin] : []

  /** The page; at /t/<mint> and /w/<address> the same page, whose script opens that view (`status` 400: says why not). */
  async function page(status = 200) {
    const demo = await wallet
    const html = renderPage({
      demoWallet: demo ? { address: demo.address, network: 'solana' } : null,
      rails,
      solanaRpcUrl: browserRpc,
      networks: [
        ...new Set(
          ctx.registry.prices().flatMap((price) => ctx.payments.offers(price.atomic).map((offer) => offer.network)),
        ),
      ],
      prices: Object.fromEntries(
        ctx.registry
          .prices()
          .map((price) => [price.route, price.per ? `${price.usd} per ${price.per.unit}` : price.usd]),
      ),
    })
    return new Response(html, { status, headers: htmlHeaders(connect) })
  }

  return new Elysia({ name: 'plugin:web' })
    .get(routes.page.path, () => page(), routeOptions(ctx, routes.page))
    .get(
      routes.tokenPage.path,
      function tokenPage({ params, request }) {
        return page(refusedAddress(request, params.mint, 'mint', 'Solana SPL mint address') ? 400 : 200)
      },
      routeOptions(ctx, routes.tokenPage),
    )
    .get(
      routes.walletPage.path,
      function walletPage({ params, request }) {
        return page(refusedAddress(request, params.address, 'address', 'Solana wallet address') ? 400 : 200)
      },
      routeOptions(ctx, routes.walletPage),
    )
    .get(
      routes.script.path,
      async function script() {
        const code = await pageScript().catch((error: unknown) => {
          if (error instanceof BundleUnavailable) throw new ApiError('NOT_FOUND', { message: error.message })
          throw error
        })
        return new Response(code, {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
        })
      },
      routeOptions(ctx, routes.script),
    )
    .get(
      routes.favicon.path,
      function favicon() {
        return new Response(FAVICON, {
          headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
        })
      },
      routeOptions(ctx, routes.favicon),
    )
    .post(
      routes.demoPay.path,
      async function demoPay({ body }) {
        const demo = await wallet
        if (!demo)
          throw new ApiError('NOT_FOUND', {
            message: rails.includes('solana')
              ? 'this service offers no demo wallet (DEMO_WALLET_KEYPAIR is not set)'
              : 'this service offers no demo wallet: it pays on Solana, and this service takes no payment there (PAY_TO_SOLANA is not set)',
          })
        return demo.pay(body.x402Version, body.requirements as PaymentRequirements)
      },
      routeOptions(ctx, routes.demoPay),
    )
    .post(
      routes.demoSignIn.path,
      async function demoSignIn({ body, request }) {
        const demo = await wallet
        if (!demo) throw new ApiError('NOT_FOUND', { message: 'this service offers no demo wallet' })
        return demo.signIn(body.info as SIWxExtensionInfo, body.chainId, publicOrigin(ctx, request))
      },
      routeOptions(ctx, routes.demoSignIn),
    )
}

webPlugin.manifest = manifest

/** The page's icon: a shield in the page's accent colour with a check mark (an SVG, a few hundred bytes). */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 2 4 6v9c0 7.5 5.1 13 12 15 6.9-2 12-7.5 12-15V6z" fill="#5b3fd1"/><path d="m10 16 4 4 8-9" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>`

/**
 * Whether a page URL's address is refused: false when it is an address. A browser (it accepts
 * text/html) is answered the page with status 400 (true), whose script says what is wrong in words
 * (web/app.ts); any other client the API's INVALID_ADDRESS with what to send instead (a ticker is
 * named as one), thrown.
 */
function refusedAddress(request: Request, value: string, field: string, noun: string): boolean {
  const check = checkSolanaAddress(value, field, noun)
  if (check.ok) return false
  if ((request.headers.get('accept') ?? '').includes('text/html')) return true
  throw new ApiError('INVALID_ADDRESS', { message: check.message, details: { field } })
}

let bundle: Promise<string> | undefined

/**
 * The page's script for the browser: the file `npm run build` embeds in the binary when there is one,
 * else bundled from web/app.ts on first use (a second or two) and kept for the life of the process; on
 * Deno, the bundle `npm run build:web` wrote (src/runtime/files.ts, docs/deno.md).
 */
function pageScript(): Promise<string> {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  bundle ??= browserBundle({
    entry: join(root, 'web', 'app.ts'),
    prebuilt: join(root, 'dist', 'web-app.txt'),
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  bundle.catch(() => {
    bundle = undefined
  })
  return bundle
}
