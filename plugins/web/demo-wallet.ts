import { readFileSync } from 'node:fs'
import { createKeyPairSignerFromBytes, type KeyPairSigner, signBytes } from '@solana/kit'
import type { PaymentRequirements } from '@x402/core/types'
import { createSIWxPayload, encodeSIWxHeader, type SIWxExtensionInfo } from '@x402/extensions/sign-in-with-x'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import type { ServiceContext } from '../../src/context.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { SIGN_IN_STATEMENT } from '../../src/payments/answer-replay.ts'
import { WATCH_SIGN_IN_STATEMENT } from './page.ts'

/**
 * The demo wallet (DEMO_WALLET_KEYPAIR): a Solana keypair the operator lends to visitors of the web
 * page. It signs with the official x402 Solana scheme, and only for this service's own offers at a
 * published price: it cannot be made to pay anyone else, or more.
 */
export interface DemoWallet {
  address: string
  pay(
    x402Version: number,
    requirements: PaymentRequirements,
  ): Promise<{ x402Version: number; payload: Record<string, unknown> }>
  /**
   * Signs in to this service (`origin`, as callers reach it) from a 402's sign-in-with-x offer on
   * `chainId`: the `SIGN-IN-WITH-X` header that fetches again an answer the demo wallet paid for. Any
   * other message (another site, another statement, a path that is neither a priced route nor a watch's
   * page) is refused. The page signs in the same way to a watch's pages (GET and DELETE /watch/:id, its
   * stream) with WATCH_SIGN_IN_STATEMENT: the demo wallet is shared, so anyone holding a watch id it paid
   * for may follow or stop that watch (ids are random, shown only to the tab that bought it).
   */
  signIn(info: SIWxExtensionInfo, chainId: string, origin: string): Promise<{ header: string }>
}

/** Seconds a caller waits before asking the demo wallet again when its RPC failed. */
const RETRY_AFTER_S = 5

export async function demoWallet(ctx: ServiceContext): Promise<DemoWallet | null> {
  const path = ctx.config.DEMO_WALLET_KEYPAIR
  if (!path) return null
  const signer: KeyPairSigner = await createKeyPairSignerFromBytes(
    Uint8Array.from(JSON.parse(readFileSync(path, 'utf8')) as number[]),
  )
  const scheme = new ExactSvmScheme(signer, { rpcUrl: ctx.config.SOLANA_RPC_URL })
  return {
    address: signer.address,
    async pay(x402Version, requirements) {
      if (!ownOffer(ctx, requirements))
        throw new ApiError('INVALID_REQUEST', {
          message: `the demo wallet pays this service's own offers only (${ctx.registry
            .prices()
            .map((price) => `${price.route} ${price.usd} USD`)
            .join(', ')}): this one is not among them`,
        })
      // The scheme reads the chain (the asset's mint, a blockhash): an RPC that fails is not the caller's
      // fault. Its error is logged as the cause, never answered (it may name the RPC's URL).
      const created = await scheme.createPaymentPayload(x402Version, requirements).catch((error: unknown) => {
        throw new ApiError('UPSTREAM_UNAVAILABLE', {
          message: `the demo wallet cannot read the Solana RPC to sign this payment: nothing was signed or charged; retry after ${RETRY_AFTER_S} s`,
          details: { retry_after_s: RETRY_AFTER_S },
          headers: { 'retry-after': String(RETRY_AFTER_S) },
          cause: error,
        })
      })
      return { x402Version, payload: created.payload as Record<string, unknown> }
    },
    async signIn(info, chainId, origin) {
      const refuse = (why: string) =>
        new ApiError('INVALID_REQUEST', {
          message: `the demo wallet signs in to this service's own sign-in offers only: ${why}`,
        })
      const uri = URL.canParse(info.uri) ? new URL(info.uri) : null
      if (!uri || uri.origin !== origin || info.domain !== uri.host) throw refuse(`this message is for ${info.uri}`)
      const pricedRoute = ctx.registry.prices().some((price) => price.route.endsWith(` ${uri.pathname}`))
      // A watch's own pages (GET and DELETE /watch/:id, its stream): the page follows and stops the watches
      // the demo wallet paid for. Free routes of the watch plugin only, never another free route.
      const watchPage =
        !pricedRoute &&
        ['GET', 'DELETE'].some((method) => {
          const route = ctx.registry.route(method, uri.pathname)
          return route?.plugin === 'watch' && route.price === 'free'
        })
      if (!pricedRoute && !watchPage) throw refuse(`${uri.pathname} is not one of its priced routes nor a watch's page`)
      if (info.statement !== (pricedRoute ? SIGN_IN_STATEMENT : WATCH_SIGN_IN_STATEMENT))
        throw refuse("its statement is not the service's")
      const networks = ctx.registry
        .prices()
        .flatMap((price) => ctx.payments.offers(price.atomic).map((offer) => offer.network))
      if (!chainId.startsWith('solana:') || !networks.includes(chainId as (typeof networks)[number]))
        throw refuse(`${chainId} is not the Solana network this service takes payment on`)
      // The message signed with the demo wallet's key (Ed25519), as a wallet adapter signs it.
      const messageSigner = {
        publicKey: signer.address as string,
        signMessage: async (message: Uint8Array) => new Uint8Array(await signBytes(signer.keyPair.privateKey, message)),
      }
      const payload = await createSIWxPayload({ ...info, chainId, type: 'ed25519' }, messageSigner, info.uri)
      return { header: encodeSIWxHeader(payload) }
    },
  }
}

/**
 * True when `requirements` is one of the service's own offers, on the Solana rail, at a published price
 * (for a price per unit: a whole number of units, 1 to its max).
 */
function ownOffer(ctx: ServiceContext, requirements: PaymentRequirements): boolean {
  if (!requirements.network.startsWith('solana:')) return false
  const amount = /^[1-9]\d{0,20}$/.test(requirements.amount) ? BigInt(requirements.amount) : 0n
  return ctx.registry
    .prices()
    .some((price) =>
      ctx.payments
        .offers(
          price.per &&
            amount > 0n &&
            amount % BigInt(price.atomic) === 0n &&
            amount / BigInt(price.atomic) <= BigInt(price.per.max)
            ? requirements.amount
            : price.atomic,
        )
        .some(
          (offer) =>
            offer.scheme === requirements.scheme &&
            offer.network === requirements.network &&
            offer.asset === requirements.asset &&
            offer.payTo === requirements.payTo &&
            offer.amount === requirements.amount,
        ),
    )
}
