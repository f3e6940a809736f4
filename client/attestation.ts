/**
 * Verifying a paid answer's attestation on the caller's side (docs/attestations.md), with node:crypto
 * and @solana/kit's base58 only — the client carries none of the server's code. The header is
 * `v1.<base64url(payload JSON)>.<base64url(Ed25519 signature over the payload bytes)>`.
 */
import { createHash, createPublicKey, verify } from 'node:crypto'
import { getBase58Encoder } from '@solana/kit'
import type { AttestationPayload } from '../src/attest/attestation.ts'

/** What a verified attestation states: the service's own payload type (a type-only import). */
export type Attestation = AttestationPayload

const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex')
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/**
 * Checks `header` against the service's published key and the exact bytes sent and received: the
 * statement when the signature holds, it names that key, the route, and both hashes match; else why not.
 */
export function checkAttestation(
  header: string,
  publicKey: string,
  expected: { route: string; requestBody: string; responseBody: Uint8Array; status: number },
): { ok: true; attestation: Attestation } | { ok: false; reason: string } {
  const [version, payload, signature, extra] = header.split('.')
  if (version !== 'v1' || !payload || !signature || extra !== undefined)
    return { ok: false, reason: 'not a v1 attestation' }
  const bytes = Buffer.from(payload, 'base64url')
  const key = createPublicKey({
    key: Buffer.concat([SPKI_ED25519, Buffer.from(getBase58Encoder().encode(publicKey))]),
    format: 'der',
    type: 'spki',
  })
  if (!verify(null, bytes, key, Buffer.from(signature, 'base64url')))
    return { ok: false, reason: 'the signature does not verify with the published key' }
  let statement: Attestation
  try {
    statement = JSON.parse(bytes.toString('utf8')) as Attestation
  } catch {
    return { ok: false, reason: 'the signed payload is not JSON' }
  }
  if (statement.key !== publicKey) return { ok: false, reason: 'it names another key' }
  if (statement.route !== expected.route) return { ok: false, reason: `it attests ${statement.route}` }
  if (statement.request_sha256 !== sha256(expected.requestBody))
    return { ok: false, reason: 'it attests another request' }
  if (statement.response_sha256 !== sha256(expected.responseBody) || statement.status !== expected.status)
    return { ok: false, reason: 'the answer received is not the answer attested' }
  return { ok: true, attestation: statement }
}
