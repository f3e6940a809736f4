/**
 * Signed attestations of paid answers (docs/attestations.md): the service's Ed25519 attestation key
 * signs what was asked (route and the request body's SHA-256), what was answered (the response body's
 * SHA-256 and status), the newest Solana slot the service had read when it answered, the time, the
 * request id and the payment's settlement. The key signs attestations only: it never holds or moves
 * funds. Anyone verifies with the published public key and nothing but Ed25519 (node:crypto, or
 * @solana/kit's verifySignature).
 *
 * Wire form, one header: `x-attestation: v1.<base64url(payload JSON)>.<base64url(signature)>`, the
 * signature over the payload's exact UTF-8 bytes (as carried, so no canonical form is needed).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { getBase58Decoder, getBase58Encoder } from '@solana/kit'

export const ATTESTATION_HEADER = 'x-attestation'
export const ATTESTATION_VERSION = 'v1'

/** What an attestation states. */
export interface AttestationPayload {
  v: 1
  /** The service that answered (its public origin) and the key's public half (base58, a Solana address). */
  service: string
  key: string
  /** `METHOD /path` of the paid route. */
  route: string
  /** SHA-256 (hex) of the request body's exact bytes ('' for a request without a body hashes as empty). */
  request_sha256: string
  /** SHA-256 (hex) of the response body's exact bytes, and its status. */
  response_sha256: string
  status: number
  /** The newest Solana slot the service had read from the chain when it answered; null before any. */
  slot: number | null
  /** When the answer was attested (ISO 8601). */
  at: string
  request_id: string
  /** The settlement of the payment: its network, transaction and payer; null when none was made (a waived call). */
  payment: { network: string; transaction: string; payer: string | null } | null
}

// DER prefixes of a raw Ed25519 key (RFC 8410): PKCS#8 private (seed) and SPKI public.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

const base58 = {
  encode: (bytes: Uint8Array) => getBase58Decoder().decode(bytes),
  decode: (text: string) => getBase58Encoder().encode(text),
}
const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')

/** The public half of an Ed25519 key from its base58 form (a Solana address), for node:crypto. */
export function publicKeyOf(base58Key: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, Buffer.from(base58.decode(base58Key))]),
    format: 'der',
    type: 'spki',
  })
}

export class Attestor {
  readonly publicKey: string
  readonly #private: KeyObject

  /** From a 64-byte Solana keypair (seed then public key) or a 32-byte seed. */
  constructor(secret: Uint8Array) {
    if (secret.length !== 64 && secret.length !== 32)
      throw new Error('an Ed25519 key is a 32-byte seed or a 64-byte keypair')
    const seed = secret.subarray(0, 32)
    this.#private = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })
    const spki = createPublicKey(this.#private).export({ format: 'der', type: 'spki' })
    const raw = spki.subarray(SPKI_PREFIX.length)
    if (secret.length === 64 && !Buffer.from(secret.subarray(32)).equals(raw))
      throw new Error('the keypair’s public half does not match its seed')
    this.publicKey = base58.encode(raw)
  }

  /** The header value attesting `payload` (its `key` is set to this key). */
  attest(payload: Omit<AttestationPayload, 'key' | 'v'>): string {
    const json = JSON.stringify({ v: 1, key: this.publicKey, ...payload })
    const signature = sign(null, Buffer.from(json, 'utf8'), this.#private)
    return `${ATTESTATION_VERSION}.${b64url(json)}.${b64url(signature)}`
  }

  /**
   * A base58 Ed25519 signature over `message`'s UTF-8 bytes: what the position guard's webhooks carry
   * (plugins/watch/webhook-signature.ts), so a receiver checks an alert with the key it already trusts
   * for attestations.
   */
  signText(message: string): string {
    return base58.encode(sign(null, Buffer.from(message, 'utf8'), this.#private))
  }
}

/**
 * Verifies a header value against `publicKey` (base58): the payload when the signature holds and the
 * payload names that key, else null. The caller then compares the hashes with the bytes it sent and got.
 */
export function verifyAttestation(header: string, publicKey: string): AttestationPayload | null {
  const [version, payload, signature, extra] = header.split('.')
  if (version !== ATTESTATION_VERSION || !payload || !signature || extra !== undefined) return null
  const bytes = Buffer.from(payload, 'base64url')
  try {
    if (!verify(null, bytes, publicKeyOf(publicKey), Buffer.from(signature, 'base64url'))) return null
    const parsed = JSON.parse(bytes.toString('utf8')) as AttestationPayload
    return parsed.key === publicKey && parsed.v === 1 ? parsed : null
  } catch {
    return null
  }
}

/** SHA-256 (hex) of bytes. */
export const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')

/**
 * The service's attestation key: the operator's (ATTESTATION_KEY, a Solana keypair JSON file), else
 * one kept in the data directory (generated on first start, mode 0600), else — with an in-memory data
 * directory — one for this process only.
 */
export function loadAttestor(keyFile: string | undefined, dataDir: string): { attestor: Attestor; source: string } {
  const read = (path: string) => {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
    if (!Array.isArray(parsed) || !parsed.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255))
      throw new Error(`${path}: must be a Solana keypair file (a JSON array of 64 bytes)`)
    return new Attestor(Uint8Array.from(parsed as number[]))
  }
  if (keyFile) return { attestor: read(keyFile), source: keyFile }
  const fresh = () => {
    const seed = crypto.getRandomValues(new Uint8Array(32))
    const attestor = new Attestor(seed)
    return { seed, attestor }
  }
  if (dataDir === ':memory:') return { attestor: fresh().attestor, source: 'generated for this process' }
  const path = `${dataDir}/attestation-key.json`
  if (existsSync(path)) return { attestor: read(path), source: path }
  const { seed, attestor } = fresh()
  mkdirSync(dirname(path), { recursive: true })
  const keypair = [...seed, ...base58.decode(attestor.publicKey)]
  writeFileSync(path, JSON.stringify(keypair), { mode: 0o600 })
  chmodSync(path, 0o600)
  return { attestor, source: `${path} (generated)` }
}
