/**
 * The `memo` of a `getSignaturesForAddress` entry, as a validator's RPC writes it: each top-level
 * instruction of the SPL Memo program (v1 or v3) as `[<data length in bytes>] <text>` (the text as
 * UTF-8, or `(unparseable)`), joined with `; `; null when there is none. Read from the agave source
 * (transaction-status `extract_memos.rs`, `extract_and_fmt_memos`) on 2026-11-27; the recorded
 * mainnet answer test/fixtures/recorded/solana-rpc/getSignaturesForAddress-limit3-solnet.json shows
 * `"memo": null` for transactions without one.
 */
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'

const MEMO_PROGRAMS: readonly string[] = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]

export function memoOfWire(wire: Uint8Array): string | null {
  const message = getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(wire).messageBytes)
  if (!('instructions' in message)) return null
  const memos: string[] = []
  for (const instruction of message.instructions) {
    if (!MEMO_PROGRAMS.includes(message.staticAccounts[instruction.programAddressIndex] ?? '')) continue
    const data = Uint8Array.from(instruction.data ?? [])
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data)
    } catch {
      text = '(unparseable)'
    }
    memos.push(`[${data.length}] ${text}`)
  }
  return memos.length === 0 ? null : memos.join('; ')
}
