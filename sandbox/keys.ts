import { createHash } from 'node:crypto'
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit'

/** Prefix of every derived seed, so sandbox keys never collide with keys derived elsewhere. */
const SEED_DOMAIN = 'solsentry-sandbox:'

/**
 * The keypair named `name`: its private key is sha256 of the name, so every boot yields the same
 * addresses (scenario mints, wallets, pools). Extractable, so it can be written as a CLI keypair file.
 */
export function namedSigner(name: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(seedOf(name), true)
}

/** The 32-byte seed behind `namedSigner(name)`. */
export function seedOf(name: string): Uint8Array {
  return new Uint8Array(
    createHash('sha256')
      .update(SEED_DOMAIN + name)
      .digest(),
  )
}

/**
 * The 64-byte secret key (seed ‖ public key) in the Solana CLI keypair-file format: a JSON array of
 * 64 numbers, as `solana-keygen` writes it.
 */
export async function cliKeypairJson(name: string): Promise<string> {
  const signer = await namedSigner(name)
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', signer.keyPair.publicKey))
  return JSON.stringify([...seedOf(name), ...publicKey])
}

/** The EVM private key named `name` (sha256 of the name under its own prefix), as viem takes it. */
export function evmPrivateKey(name: string): `0x${string}` {
  return `0x${createHash('sha256').update(`${SEED_DOMAIN}evm:${name}`).digest('hex')}`
}
