/**
 * The position guard's webhook signature (docs/watch.md): `X-Solsentry-Signature: t=<unix s>,sig=<base58>`,
 * an Ed25519 signature by the service's attestation key (src/attest/attestation.ts) over
 * `<t>.<watch_id>.<body>` — the time (a receiver refuses stale ones), the watch (an alert for one watch
 * cannot be replayed to another's receiver) and the exact body bytes. Verified with @solana/kit alone.
 */
import {
  address,
  getBase58Encoder,
  getPublicKeyFromAddress,
  getUtf8Encoder,
  signatureBytes,
  verifySignature,
} from '@solana/kit'
import type { Attestor } from '../../src/attest/attestation.ts'

export const WEBHOOK_SIGNATURE_HEADER = 'X-Solsentry-Signature'
/** How old a signature a receiver accepts by default: long enough for a retried delivery's clock skew. */
export const WEBHOOK_TOLERANCE_S = 300

/** The header value for `body`, sent for `watchId` at `nowS` (Unix seconds). */
export function signWebhook(attestor: Attestor, watchId: string, body: string, nowS: number): string {
  return `t=${nowS},sig=${attestor.signText(`${nowS}.${watchId}.${body}`)}`
}

/**
 * Whether `header` is the service's (`publicKey`, base58) signature of `body` for `watchId`, made within
 * `toleranceS` of `nowS`. What a receiver runs; it needs @solana/kit and nothing else.
 */
export async function verifyWebhook(options: {
  header: string | null
  watchId: string
  body: string
  publicKey: string
  nowS?: number
  toleranceS?: number
}): Promise<boolean> {
  const { header, watchId, body, publicKey } = options
  const fields = Object.fromEntries(
    (header ?? '').split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  )
  const time = Number(fields.t)
  if (!fields.sig || !Number.isInteger(time)) return false
  const now = options.nowS ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - time) > (options.toleranceS ?? WEBHOOK_TOLERANCE_S)) return false
  try {
    const key = await getPublicKeyFromAddress(address(publicKey))
    const signature = signatureBytes(getBase58Encoder().encode(fields.sig))
    return await verifySignature(key, signature, getUtf8Encoder().encode(`${time}.${watchId}.${body}`))
  } catch {
    return false
  }
}
