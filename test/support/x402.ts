import type { x402Client } from '@x402/core/client'
import type { PaymentRequired } from '@x402/core/types'
import type { RunningSandbox } from '../../sandbox/index.ts'
import { readPayment } from '../../src/payments/payment-header.ts'
import { paymentKey } from '../../src/payments/payment-key.ts'

/** USDC (atomic units) that `owner` holds in its associated account on the sandbox, read over its JSON-RPC. */
export async function usdcOf(sandbox: RunningSandbox, owner: string): Promise<bigint> {
  const account = await sandbox.world.ata(sandbox.file.x402.solana.asset, owner)
  const response = await fetch(sandbox.file.urls.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [account] }),
  })
  return BigInt(((await response.json()) as { result: { value: { amount: string } } }).result.value.amount)
}

/** The payment header (base64 JSON) `client` signs for a challenge's base64 `payment-required` header. */
export async function paymentHeader(client: x402Client, paymentRequired: string): Promise<string> {
  const required = JSON.parse(Buffer.from(paymentRequired, 'base64').toString()) as PaymentRequired
  return Buffer.from(JSON.stringify(await client.createPaymentPayload(required))).toString('base64')
}

/**
 * `count` unpaid quick scans of `mint` in a row from the client address `ip` (X-Forwarded-For: the
 * service must run with TRUST_PROXY): their statuses, 402 while the client's burst lasts, 429 after.
 */
export async function unpaidScanStatuses(url: string, mint: string, ip: string, count: number): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${url}/scan/quick`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ token_address: mint }),
    })
    await answer.arrayBuffer()
    statuses.push(answer.status)
  }
  return statuses
}

/** The ledger key of the payment a base64 payment header carries (as the gate derives it). */
export function ledgerKeyOf(header: string): string {
  const read = readPayment(new Headers({ 'x-payment': header }))
  if (read.kind !== 'payment') throw new Error('unreadable payment')
  const network = read.payment.x402Version === 2 ? read.payment.accepted.network : read.payment.network
  return paymentKey(read.payment, network)!
}
