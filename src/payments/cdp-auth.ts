/**
 * Coinbase CDP's facilitator authenticates every request with a short-lived JWT signed by the API
 * key's secret (not a static header): `kid` and `sub` are the key id, `iss` is `cdp`, `uris` names
 * the one request (`METHOD host/path`), valid for 120 s, with a random `nonce` in the header. The
 * secret is an Ed25519 key (base64 of seed ‖ public key, CDP's default) or an EC P-256 PEM (ES256).
 */
import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto'
import { SignJWT } from 'jose'
import type { Authorizer } from '../sources/http-json.ts'

const LIFETIME_S = 120

interface SigningKey {
  alg: 'EdDSA' | 'ES256'
  key: KeyObject
}

/** Reads the secret; throws with a message that says which forms are accepted. */
export function cdpSigningKey(secret: string): SigningKey {
  const trimmed = secret.trim()
  if (trimmed.startsWith('-----BEGIN')) {
    try {
      // PKCS#8 ("PRIVATE KEY") or SEC1 ("EC PRIVATE KEY"), as CDP hands them out.
      const key = createPrivateKey(trimmed.replace(/\\n/g, '\n'))
      if (key.asymmetricKeyType !== 'ec') throw new Error(`a ${key.asymmetricKeyType} key`)
      return { alg: 'ES256', key }
    } catch (error) {
      throw new Error(`not a usable EC private key PEM (${(error as Error).message})`)
    }
  }
  const bytes = Buffer.from(trimmed, 'base64')
  if (bytes.length !== 64) throw new Error('expected an Ed25519 secret (base64 of 64 bytes) or an EC private key PEM')
  const key = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      d: bytes.subarray(0, 32).toString('base64url'),
      x: bytes.subarray(32).toString('base64url'),
    },
  })
  return { alg: 'EdDSA', key }
}

/** The per-request Authorization header for a CDP-hosted facilitator. */
export function cdpAuthorizer(keyId: string, secret: string): Authorizer {
  const signing = cdpSigningKey(secret)
  return async (method, url) => {
    const now = Math.floor(Date.now() / 1000)
    const jwt = await new SignJWT({
      sub: keyId,
      iss: 'cdp',
      uris: [`${method.toUpperCase()} ${url.host}${url.pathname}`],
    })
      .setProtectedHeader({ alg: signing.alg, kid: keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + LIFETIME_S)
      .sign(signing.key)
    return { authorization: `Bearer ${jwt}` }
  }
}
