/**
 * The sandbox's x402 facilitator: the official `@x402/core` facilitator with the `@x402/svm` exact
 * scheme, settling on the sandbox chain through its JSON-RPC, and the `@x402/evm` exact scheme
 * (EIP-3009), settling on the sandbox's anvil chain; served over HTTP with the routes of a hosted
 * facilitator (`GET /supported`, `POST /verify`, `POST /settle`). The service reaches it by URL
 * (FACILITATOR_URL), exactly as it would reach a hosted one.
 */
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'
import { toFacilitatorSvmSigner } from '@x402/svm'
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator'
import { toFacilitatorEvmSigner } from '@x402/evm'
import type { KeyPairSigner } from '@solana/kit'
import { createWalletClient, http, publicActions, type Chain, type Hex } from 'viem'
import { createNonceManager, jsonRpc } from 'viem/nonce'
import { privateKeyToAccount } from 'viem/accounts'
import { faultResponse, type FaultPlan } from '../faults.ts'

/**
 * The CAIP-2 id the sandbox chain poses as: Solana devnet. The x402 packages accept only the built-in
 * Solana networks (a `solana:localnet` id is refused), and devnet's v1 short name is `solana-devnet`.
 */
export const SANDBOX_SOLANA_NETWORK = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

/** The EVM side: the account that submits settlements (and pays their gas) on `chain`. */
export interface EvmFacilitatorSetup {
  chain: Chain
  network: `${string}:${string}`
  privateKey: Hex
}

/**
 * A facilitator whose Solana fee payer is `feePayer`, settling through the JSON-RPC at `rpcUrl`, and,
 * with `evm`, settling EIP-3009 payments on that chain. With `faults`, its reads of the EVM chain
 * honour `facilitator-rpc:<method>` faults (its Solana reads do at the RPC's FACILITATOR_RPC_PATH).
 */
export function createSandboxFacilitator(
  feePayer: KeyPairSigner,
  rpcUrl: string,
  evm?: EvmFacilitatorSetup,
  faults?: FaultPlan,
): x402Facilitator {
  const facilitator = new x402Facilitator()
  // A per-network RPC map would serve v2 lookups only; `defaultRpcUrl` serves v1 names as well.
  registerExactSvmScheme(facilitator, {
    signer: toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: rpcUrl }),
    networks: SANDBOX_SOLANA_NETWORK,
  })
  if (evm) {
    // Concurrent settlements each need their own nonce, as a hosted facilitator's sender gives them: without
    // a nonce manager two settlements at once read the same nonce and the second transaction fails. One
    // manager per facilitator: viem's shared one would carry nonces over from an earlier anvil.
    const account = privateKeyToAccount(evm.privateKey, { nonceManager: createNonceManager({ source: jsonRpc() }) })
    const client = createWalletClient({
      account,
      chain: evm.chain,
      transport: http(undefined, faults ? { fetchFn: faultingFetch(faults) } : {}),
    }).extend(publicActions)
    // A settlement is bounded by the service's facilitator timeout; anvil mines at once.
    // viem 2.57's verifyTypedData takes a union the scheme's narrower signer type does not name; the
    // call the scheme makes (address, domain, types, primaryType, message, signature) is one of its members.
    const viemSigner = { ...client, address: account.address } as unknown as Parameters<
      typeof toFacilitatorEvmSigner
    >[0]
    const signer = toFacilitatorEvmSigner(viemSigner, { confirmationTimeoutMs: 30_000 })
    registerExactEvmScheme(facilitator, { signer, networks: evm.network })
  }
  return facilitator
}

/** A fetch for viem's transport that answers a `facilitator-rpc:<method>` fault instead of the chain. */
function faultingFetch(faults: FaultPlan): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    const calls = (Array.isArray(body) ? body : [body]) as { method?: unknown }[]
    const fault = calls.map((call) => faults.match('facilitator-rpc', String(call?.method))).find(Boolean)
    return (
      (await faultResponse(fault, { jsonrpc: '2.0', id: 1, result: { unexpected: 'shape' } })) ?? fetch(input, init)
    )
  }) as typeof fetch
}

const json = (body: unknown, status = 200) => Response.json(body, { status })

/**
 * A settlement that succeeded, answered as one whose confirmation timed out (`settlement_pending`
 * with its transaction: the official schemes' answer, @x402/svm and @x402/evm 2.27).
 */
function asPending(answer: Awaited<ReturnType<x402Facilitator['settle']>>) {
  if (!answer.success) return answer
  return {
    ...answer,
    success: false,
    errorReason: 'settlement_pending',
    errorMessage: 'Transaction confirmation timeout',
  }
}

/**
 * The facilitator's HTTP routes, in the request and answer shapes of a hosted x402 facilitator. With
 * `faults`, a `facilitator:/settle` fault of kind `settlement_pending` settles, then answers pending.
 */
export async function handleFacilitatorRequest(
  facilitator: x402Facilitator,
  request: Request,
  faults?: FaultPlan,
): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (request.method === 'GET' && pathname === '/supported') return json(facilitator.getSupported())
  if (request.method !== 'POST' || (pathname !== '/verify' && pathname !== '/settle')) {
    return json(
      {
        error: `no route ${request.method} ${pathname}: this facilitator serves GET /supported, POST /verify and POST /settle`,
      },
      404,
    )
  }
  let body: { paymentPayload?: unknown; paymentRequirements?: unknown }
  try {
    body = (await request.json()) as typeof body
  } catch {
    return json({ error: 'the body must be JSON: {"x402Version", "paymentPayload", "paymentRequirements"}' }, 400)
  }
  if (
    typeof body?.paymentPayload !== 'object' ||
    body.paymentPayload === null ||
    typeof body.paymentRequirements !== 'object' ||
    body.paymentRequirements === null
  ) {
    return json({ error: 'paymentPayload and paymentRequirements must both be objects' }, 400)
  }
  const payload = body.paymentPayload as Parameters<x402Facilitator['verify']>[0]
  const requirements = body.paymentRequirements as Parameters<x402Facilitator['verify']>[1]
  try {
    if (pathname === '/verify') return json(await facilitator.verify(payload, requirements))
    const settled = await facilitator.settle(payload, requirements)
    return json(faults?.match('facilitator', pathname)?.kind === 'settlement_pending' ? asPending(settled) : settled)
  } catch (error) {
    // What the scheme could not even judge (an unknown network or scheme, a payload it cannot parse).
    return json({ error: error instanceof Error ? error.message : String(error) }, 400)
  }
}
