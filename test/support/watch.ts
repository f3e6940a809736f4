import { afterAll } from 'bun:test'
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x'

/** A webhook delivery as a receiver saw it: the body as sent and the two headers a watch signs with. */
export interface Delivery {
  body: string
  signature: string | null
  watchId: string | null
}

/**
 * A webhook receiver on loopback (port 0) that keeps every delivery and answers 204, stopped after the
 * file; `hook` is its URL for a watch's `webhook_url`.
 */
export function webhookReceiver(): { received: Delivery[]; hook: string; port: number } {
  const received: Delivery[] = []
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      received.push({
        body: await request.text(),
        signature: request.headers.get('x-solsentry-signature'),
        watchId: request.headers.get('x-solsentry-watch-id'),
      })
      return new Response(null, { status: 204 })
    },
  })
  afterAll(() => receiver.stop(true))
  return { received, hook: `http://127.0.0.1:${receiver.port}/alerts`, port: receiver.port as number }
}

/**
 * A SIGN-IN-WITH-X header value signed by `signer` for `target` (a URL of the service), on `chainId`
 * (`solana:…` signs ed25519, an EVM chain eip191), built with the official x402 extension.
 */
export async function signInHeader(target: string, signer: unknown, chainId: string): Promise<string> {
  const payload = await createSIWxPayload(
    {
      domain: new URL(target).host,
      uri: target,
      version: '1',
      chainId,
      type: chainId.startsWith('solana:') ? 'ed25519' : 'eip191',
      nonce: crypto.randomUUID().replaceAll('-', ''),
      issuedAt: new Date().toISOString(),
    } as never,
    signer as never,
    target,
  )
  return encodeSIWxHeader(payload)
}
