import { describe, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { base58Encode } from '../../sandbox/chain/base58.ts'
import type { RunningSandbox } from '../../sandbox/index.ts'

/**
 * The official v1 client, `x402-fetch` 1.2, for the interop tests. It is not in package.json: its
 * wallet connectors (wagmi, WalletConnect, the MetaMask SDK) weigh about 590 MB that a user's install
 * does not need. `.ci/run` installs it; without it those tests are reported skipped with the reason.
 * (The name is a `string`, so the type checker does not look for a module that may be absent.)
 */
const V1_MODULE: string = 'x402-fetch'
interface X402V1 {
  createSigner(network: string, secretKey: string): Promise<unknown>
  wrapFetchWithPayment(
    fetch: typeof globalThis.fetch,
    signer: unknown,
    maxValue?: bigint,
    selector?: unknown,
    config?: { svmConfig?: { rpcUrl: string } },
  ): typeof globalThis.fetch
}
const x402V1 = (await import(V1_MODULE).catch(() => undefined)) as X402V1 | undefined

/** Why the v1 interop tests are skipped on this machine, or undefined when the v1 client is installed. */
export const v1Missing: string | undefined = x402V1
  ? undefined
  : 'the v1 client is not installed (npm install --no-save x402-fetch@1.2.0; .ci/run does)'

/** `describe`, skipped with the reason in its title when the v1 client is not installed. */
export function describeWithV1(title: string, body: () => void): void {
  if (v1Missing) describe.skip(`${title} — skipped: ${v1Missing}`, body)
  else describe(title, body)
}

/** `test`, skipped with the reason in its title when the v1 client is not installed. */
export function testWithV1(title: string, body: () => Promise<void>, timeoutMs?: number): void {
  if (v1Missing) test.skip(`${title} — skipped: ${v1Missing}`, body)
  else test(title, body, timeoutMs)
}

/**
 * The v1 client paying as the sandbox's demo buyer (network `solana-devnet`, from the 402 body),
 * recording every X-PAYMENT it sends. Only inside a test the v1 guard lets run.
 */
export async function v1Payer(sandbox: RunningSandbox): Promise<{ fetch: typeof fetch; sent: string[] }> {
  if (!x402V1) throw new Error(v1Missing)
  const sent: string[] = []
  const recording = ((input: string | URL | Request, init?: RequestInit) => {
    const payment = new Headers(init?.headers).get('x-payment')
    if (payment) sent.push(payment)
    return fetch(input, init)
  }) as typeof fetch
  const secret = base58Encode(
    Uint8Array.from(JSON.parse(readFileSync(sandbox.file.buyer.keypair_path, 'utf8')) as number[]),
  )
  const signer = await x402V1.createSigner('solana-devnet', secret)
  return {
    fetch: x402V1.wrapFetchWithPayment(recording, signer, 1_000_000n, undefined, {
      svmConfig: { rpcUrl: sandbox.file.urls.rpc },
    }),
    sent,
  }
}
