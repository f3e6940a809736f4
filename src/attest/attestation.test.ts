import { describe, expect, test } from 'bun:test'
import { verify } from 'node:crypto'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Attestor, loadAttestor, publicKeyOf, verifyAttestation } from './attestation.ts'

const attestor = new Attestor(new Uint8Array(32).fill(7))
const payload = {
  service: 'http://127.0.0.1:8402',
  route: 'POST /scan/quick',
  request_sha256: 'a'.repeat(64),
  response_sha256: 'b'.repeat(64),
  status: 200,
  slot: 123,
  at: '2026-11-25T00:00:00.000Z',
  request_id: 'r1',
  payment: null,
}

describe('attestations', () => {
  test('the header verifies with node:crypto alone against the base58 public key', () => {
    const header = attestor.attest(payload)
    const [version, body, signature] = header.split('.')
    expect(version).toBe('v1')
    expect(
      verify(
        null,
        Buffer.from(body!, 'base64url'),
        publicKeyOf(attestor.publicKey),
        Buffer.from(signature!, 'base64url'),
      ),
    ).toBe(true)
    expect(verifyAttestation(header, attestor.publicKey)).toMatchObject({ ...payload, v: 1, key: attestor.publicKey })
  })

  test('a changed byte, another key, or a malformed header fails', () => {
    const header = attestor.attest(payload)
    const [version, body, signature] = header.split('.') as [string, string, string]
    const json = Buffer.from(body, 'base64url').toString('utf8').replace('"status":200', '"status":201')
    expect(
      verifyAttestation(`${version}.${Buffer.from(json).toString('base64url')}.${signature}`, attestor.publicKey),
    ).toBeNull()
    const flipped = Buffer.from(signature, 'base64url')
    flipped[0] = flipped[0]! ^ 1
    expect(verifyAttestation(`${version}.${body}.${flipped.toString('base64url')}`, attestor.publicKey)).toBeNull()
    const other = new Attestor(new Uint8Array(32).fill(8))
    expect(verifyAttestation(header, other.publicKey)).toBeNull()
    expect(verifyAttestation('v1.nope', attestor.publicKey)).toBeNull()
  })

  test('the key is kept in the data directory (0600) and the same on the next start; a keypair file is read as Solana writes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'attest-'))
    const first = loadAttestor(undefined, dir)
    expect(first.source).toContain('generated')
    const path = join(dir, 'attestation-key.json')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(loadAttestor(undefined, dir).attestor.publicKey).toBe(first.attestor.publicKey)
    expect(loadAttestor(path, '/nonexistent').attestor.publicKey).toBe(first.attestor.publicKey)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(64)
  })

  test('a keypair whose halves disagree is refused', () => {
    const bad = new Uint8Array(64).fill(1)
    expect(() => new Attestor(bad)).toThrow('does not match')
  })
})
