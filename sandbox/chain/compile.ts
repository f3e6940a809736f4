import type { Address, Instruction, TransactionSigner } from '@solana/kit'
import { base58Decode } from './base58.ts'

/** A signer the sandbox can sign for directly: kit's KeyPairSigner carries its CryptoKeyPair. */
type KeyPairHolder = { address: Address; keyPair: CryptoKeyPair }

const WRITABLE = 0b01
const SIGNER = 0b10
const VERSION_0_PREFIX = 0x80

/**
 * Compiles and signs a v0 transaction (no lookup tables) the way @solana/kit does, for the sandbox's
 * own transactions. kit's compiler validates and sorts addresses through BigInt base58 and a locale
 * collator; with thousands of scenario transactions at boot it was the largest cost after execution.
 * The fee payer's slot stays empty when `feePayer` is a bare address (the owner signs later).
 */
export async function compileAndSign(
  feePayer: Address | TransactionSigner,
  instructions: readonly Instruction[],
  blockhash: string,
): Promise<Uint8Array> {
  const payer = typeof feePayer === 'string' ? feePayer : feePayer.address
  const roles = new Map<string, number>([[payer, WRITABLE | SIGNER]])
  const signers = new Map<string, TransactionSigner>()
  if (typeof feePayer !== 'string') signers.set(payer, feePayer)
  for (const instruction of instructions) {
    if (!roles.has(instruction.programAddress)) roles.set(instruction.programAddress, 0)
    for (const account of instruction.accounts ?? []) {
      roles.set(account.address, (roles.get(account.address) ?? 0) | account.role)
      const signer = (account as { signer?: TransactionSigner }).signer
      if (signer) signers.set(account.address, signer)
    }
  }
  // Fee payer first, then writable signers, read-only signers, writable and read-only non-signers.
  const rank = (role: number) => (role & SIGNER ? (role & WRITABLE ? 0 : 1) : role & WRITABLE ? 2 : 3)
  const keys = [...roles.keys()].filter((key) => key !== payer)
  keys.sort((a, b) => rank(roles.get(a)!) - rank(roles.get(b)!))
  keys.unshift(payer)
  const index = new Map(keys.map((key, i) => [key, i]))
  const count = (predicate: (role: number) => boolean) => keys.filter((key) => predicate(roles.get(key)!)).length
  const numSigners = count((role) => (role & SIGNER) !== 0)

  const out: number[] = [VERSION_0_PREFIX, numSigners, count((role) => role === SIGNER), count((role) => role === 0)]
  pushLength(out, keys.length)
  for (const key of keys) out.push(...base58Decode(key))
  out.push(...base58Decode(blockhash))
  pushLength(out, instructions.length)
  for (const instruction of instructions) {
    out.push(index.get(instruction.programAddress)!)
    const accounts = instruction.accounts ?? []
    pushLength(out, accounts.length)
    for (const account of accounts) out.push(index.get(account.address)!)
    const data = instruction.data ?? new Uint8Array()
    pushLength(out, data.length)
    for (const byte of data) out.push(byte)
  }
  pushLength(out, 0) // no address lookup tables
  const message = new Uint8Array(out)

  const signatures = await Promise.all(
    keys.slice(0, numSigners).map(async (key) => {
      const signer = signers.get(key) as Partial<KeyPairHolder> | undefined
      if (!signer) return new Uint8Array(64)
      if (!signer.keyPair) throw new Error(`compileAndSign signs with key pairs only; ${key} is another kind of signer`)
      return new Uint8Array(await crypto.subtle.sign('Ed25519', signer.keyPair.privateKey, message))
    }),
  )
  const wire: number[] = []
  pushLength(wire, numSigners)
  for (const signature of signatures) wire.push(...signature)
  const result = new Uint8Array(wire.length + message.length)
  result.set(wire)
  result.set(message, wire.length)
  return result
}

/** Solana's compact-u16 length prefix. */
function pushLength(out: number[], value: number): void {
  let rest = value
  for (;;) {
    const byte = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out.push(byte)
      return
    }
    out.push(byte | 0x80)
  }
}
