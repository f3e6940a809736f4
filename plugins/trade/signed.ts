/**
 * The signed transaction an execute presents, checked against the quoted one: byte-identical message,
 * every signature present and valid. Pure (no I/O): what it answers decides whether any money is asked for.
 */
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  verifySignature,
  type Address,
  type SignatureBytes,
} from '@solana/kit'
import type { TradeJob } from './job.ts'
import type { RejectionCode } from './rejections.ts'

export interface Signed {
  ok: true
  /** The transaction's signature (the fee payer's, the user's): its id on chain. */
  signature: string
  blockhash: string
}

/** The signed transaction must be the quoted one byte for byte, with every signature present and valid. */
export async function checkSigned(
  job: Pick<TradeJob, 'unsigned_transaction_b64'>,
  b64: string,
): Promise<Signed | { ok: false; code: RejectionCode; reason: string }> {
  let signed: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>
  try {
    signed = getTransactionDecoder().decode(Buffer.from(b64, 'base64'))
  } catch {
    return {
      ok: false,
      code: 'TRANSACTION_UNREADABLE',
      reason: 'signed_transaction_b64 is not a base64 Solana transaction',
    }
  }
  if (job.unsigned_transaction_b64 === null)
    return {
      ok: false,
      code: 'TRANSACTION_MISMATCH',
      reason: 'this job has no quoted transaction to sign: quote again',
    }
  const quoted = getTransactionDecoder().decode(Buffer.from(job.unsigned_transaction_b64, 'base64'))
  if (!Buffer.from(signed.messageBytes).equals(Buffer.from(quoted.messageBytes)))
    return {
      ok: false,
      code: 'TRANSACTION_MISMATCH',
      reason:
        'the signed transaction is not the quoted one (its message differs): sign unsigned_transaction_b64 exactly as answered by the quote',
    }
  for (const [signer, signature] of Object.entries(signed.signatures)) {
    if (!signature)
      return { ok: false, code: 'SIGNATURE_MISSING', reason: `the transaction lacks the signature of ${signer}` }
    const key = await getPublicKeyFromAddress(signer as Address)
    if (!(await verifySignature(key, signature as SignatureBytes, signed.messageBytes)))
      return {
        ok: false,
        code: 'SIGNATURE_INVALID',
        reason: `the signature of ${signer} does not verify against the quoted message`,
      }
  }
  const message = getCompiledTransactionMessageDecoder().decode(signed.messageBytes)
  const feePayer = message.staticAccounts[0]!
  return {
    ok: true,
    signature: getBase58Decoder().decode(signed.signatures[feePayer]!),
    blockhash: message.lifetimeToken,
  }
}
