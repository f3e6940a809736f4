import { describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { loadConfig } from '../settings.ts'
import { FacilitatorClient } from './facilitator.ts'
import { cdpAuthorizer, cdpSigningKey } from './cdp-auth.ts'

/** A CDP-style Ed25519 secret (base64 of seed ‖ public key) and its public key. */
function ed25519Secret() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const jwk = privateKey.export({ format: 'jwk' })
  return {
    secret: Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64'),
    publicKey,
  }
}

const bearer = (headers: Record<string, string>) => headers.authorization!.replace(/^Bearer /, '')

describe('CDP per-request JWT', () => {
  test('Ed25519: signed for the one request (METHOD host/path), kid/sub = key id, iss cdp, 120 s, a fresh nonce each time', async () => {
    const { secret, publicKey } = ed25519Secret()
    const authorize = cdpAuthorizer('key-1', secret)
    const url = new URL('https://api.cdp.coinbase.com/platform/v2/x402/verify')
    const first = bearer(await authorize('POST', url))
    const { payload, protectedHeader } = await jwtVerify(first, publicKey, { issuer: 'cdp', subject: 'key-1' })
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: 'key-1', typ: 'JWT' })
    expect(payload.uris).toEqual(['POST api.cdp.coinbase.com/platform/v2/x402/verify'])
    expect(payload.exp! - payload.iat!).toBe(120)
    const second = bearer(await authorize('POST', url))
    expect(decodeProtectedHeader(second).nonce).not.toBe(protectedHeader.nonce)
  })

  test('EC P-256 PEM (SEC1 or PKCS#8): ES256', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    for (const pem of [
      privateKey.export({ format: 'pem', type: 'sec1' }),
      privateKey.export({ format: 'pem', type: 'pkcs8' }),
    ]) {
      const token = bearer(
        await cdpAuthorizer('key-2', String(pem))(
          'GET',
          new URL('https://api.cdp.coinbase.com/platform/v2/x402/supported'),
        ),
      )
      const { payload, protectedHeader } = await jwtVerify(token, publicKey)
      expect(protectedHeader.alg).toBe('ES256')
      expect(payload.uris).toEqual(['GET api.cdp.coinbase.com/platform/v2/x402/supported'])
    }
  })

  test('a secret of neither form is refused at start-up with one line naming the setting', () => {
    expect(() => cdpSigningKey('not a key')).toThrow('expected an Ed25519 secret')
    expect(() => loadConfig({ CDP_API_KEY_ID: 'k', CDP_API_KEY_SECRET: 'bm9wZQ==' })).toThrow(
      'CDP_API_KEY_SECRET: expected an Ed25519 secret',
    )
    expect(() => loadConfig({ CDP_API_KEY_ID: 'k' })).toThrow('CDP_API_KEY_SECRET: required with CDP_API_KEY_ID')
    expect(loadConfig({ CDP_API_KEY_ID: 'k', CDP_API_KEY_SECRET: ed25519Secret().secret }).CDP_API_KEY_ID).toBe('k')
  })

  test("CDP's facilitator URL wants the key, both halves, its id in CDP's form", () => {
    // A payee too: taking payments wants one (the checks below are about the key alone).
    const payee = { PAY_TO_BASE: '0x1111111111111111111111111111111111111111' }
    const FACILITATOR_URL = 'https://api.cdp.coinbase.com/platform/v2/x402'
    const id = '4f9c2a1e-7b3d-4c8e-9a6f-0d1e2f3a4b5c'
    const secret = ed25519Secret().secret
    expect(() => loadConfig({ ...payee, FACILITATOR_URL })).toThrow(
      'CDP_API_KEY_ID and CDP_API_KEY_SECRET: required when FACILITATOR_URL is Coinbase CDP’s',
    )
    expect(() => loadConfig({ ...payee, FACILITATOR_URL, CDP_API_KEY_ID: 'k', CDP_API_KEY_SECRET: secret })).toThrow(
      'CDP_API_KEY_ID: not a CDP key id',
    )
    expect(
      loadConfig({ ...payee, FACILITATOR_URL, CDP_API_KEY_ID: id, CDP_API_KEY_SECRET: secret }).CDP_API_KEY_ID,
    ).toBe(id)
    const legacy = `organizations/${id}/apiKeys/${id}`
    expect(
      loadConfig({ ...payee, FACILITATOR_URL, CDP_API_KEY_ID: legacy, CDP_API_KEY_SECRET: secret }).CDP_API_KEY_ID,
    ).toBe(legacy)
    // Another facilitator needs no CDP key.
    expect(loadConfig({ ...payee, FACILITATOR_URL: 'https://facilitator.example' }).FACILITATOR_URL).toBe(
      'https://facilitator.example',
    )
  })

  test('the facilitator client signs every request afresh, for its own method and path', async () => {
    const { secret, publicKey } = ed25519Secret()
    const seen: { method: string; path: string; token: string }[] = []
    const recorder = Bun.serve({
      port: 0,
      fetch: (request) => {
        seen.push({
          method: request.method,
          path: new URL(request.url).pathname,
          token: (request.headers.get('authorization') ?? '').replace(/^Bearer /, ''),
        })
        return request.method === 'GET'
          ? Response.json({ kinds: [] })
          : Response.json({ isValid: false, invalidReason: 'test' })
      },
    })
    try {
      const client = new FacilitatorClient({
        url: `http://127.0.0.1:${recorder.port}/platform/v2/x402`,
        authorize: cdpAuthorizer('key-3', secret),
      })
      await client.supported()
      await client.verify({ x402Version: 2, accepted: {} as never, payload: {} } as never, {})
      expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'GET /platform/v2/x402/supported',
        'POST /platform/v2/x402/verify',
      ])
      for (const { method, path, token } of seen) {
        const { payload } = await jwtVerify(token, publicKey)
        expect(payload.uris).toEqual([`${method} 127.0.0.1:${recorder.port}${path}`])
      }
    } finally {
      await recorder.stop(true)
    }
  })
})
