import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { lamports, type Address } from '@solana/kit'
import { base58Decode } from './chain/base58.ts'
import type { Chain } from './chain/chain.ts'

/** One account in the `solana account --output json` format (what `solana-test-validator --account` reads). */
interface AccountFile {
  pubkey: string
  account: {
    lamports: number
    data: [string, string]
    owner: string
    executable: boolean
    rentEpoch?: number
    space?: number
  }
}

/**
 * Loads every `*.json` account file in `directory` into the chain, so real mainnet accounts can be
 * replayed and scanned. Throws one clear error naming the file on anything malformed.
 */
export function loadAccountFiles(chain: Chain, directory: string): string[] {
  const loaded: string[] = []
  for (const name of readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const path = join(directory, name)
    const file = parseAccountFile(readFileSync(path, 'utf8'), path)
    chain.setAccount({
      address: file.pubkey as Address,
      lamports: lamports(BigInt(file.account.lamports)),
      data: decodeData(file.account.data, path),
      programAddress: file.account.owner as Address,
      executable: file.account.executable,
    })
    loaded.push(file.pubkey)
  }
  return loaded
}

export function parseAccountFile(text: string, path: string): AccountFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error(`${path}: not JSON (expected the output of \`solana account <address> --output json\`)`)
  }
  const file = value as Partial<AccountFile>
  const account = file.account
  const valid =
    typeof file.pubkey === 'string' &&
    isAddress(file.pubkey) &&
    typeof account === 'object' &&
    account !== null &&
    Number.isInteger(account.lamports) &&
    Array.isArray(account.data) &&
    typeof account.data[0] === 'string' &&
    typeof account.owner === 'string' &&
    isAddress(account.owner) &&
    typeof account.executable === 'boolean'
  if (!valid)
    throw new Error(`${path}: expected { pubkey, account: { lamports, data: [data, encoding], owner, executable } }`)
  return file as AccountFile
}

function decodeData([data, encoding]: [string, string], path: string): Uint8Array {
  if (encoding === 'base64') return new Uint8Array(Buffer.from(data, 'base64'))
  if (encoding === 'base58') return base58Decode(data)
  if (encoding === 'base64+zstd') return new Uint8Array(Bun.zstdDecompressSync(Buffer.from(data, 'base64')))
  throw new Error(`${path}: unsupported data encoding "${encoding}" (use base64, base58 or base64+zstd)`)
}

function isAddress(value: string): boolean {
  try {
    return base58Decode(value).length === 32
  } catch {
    return false
  }
}
