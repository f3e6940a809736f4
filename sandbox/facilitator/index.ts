/**
 * The sandbox's x402 facilitator: the official `@x402/core` facilitator with the `@x402/svm` exact
 * scheme, settling on the sandbox chain through its JSON-RPC, served over HTTP with the routes of a
 * hosted facilitator (`GET /supported`, `POST /verify`, `POST /settle`). The service reaches it by
 * URL (FACILITATOR_URL), exactly as it would reach a hosted one.
 */
import { x402Facilitator } from '@x402/core/facilitator'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'
import { toFacilitatorSvmSigner } from '@x402/svm'
import type { KeyPairSigner } from '@solana/kit'

/**
 * The CAIP-2 id the sandbox chain poses as: Solana devnet. The x402 packages accept only the built-in
 * Solana networks (a `solana:localnet` id is refused), and devnet's v1 short name is `solana-devnet`.
 */
export const SANDBOX_SOLANA_NETWORK = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

/** A facilitator whose fee payer is `feePayer`, settling through the JSON-RPC at `rpcUrl`. */
export function createSandboxFacilitator(feePayer: KeyPairSigner, rpcUrl: string): x402Facilitator {
  const facilitator = new x402Facilitator()
  // A per-network RPC map would serve v2 lookups only; `defaultRpcUrl` serves v1 names as well.
  registerExactSvmScheme(facilitator, { signer: toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: rpcUrl }), networks: SANDBOX_SOLANA_NETWORK })
  return facilitator
}

const json = (body: unknown, status = 200) => Response.json(body, { status })

/** The facilitator's HTTP routes, in the request and answer shapes of a hosted x402 facilitator. */
export async function handleFacilitatorRequest(facilitator: x402Facilitator, request: Request): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (request.method === 'GET' && pathname === '/supported') return json(facilitator.getSupported())
  if (request.method !== 'POST' || (pathname !== '/verify' && pathname !== '/settle')) {
    return json({ error: `no route ${request.method} ${pathname}: this facilitator serves GET /supported, POST /verify and POST /settle` }, 404)
  }
  let body: { paymentPayload?: unknown; paymentRequirements?: unknown }
  try {
    body = (await request.json()) as typeof body
  } catch {
    return json({ error: 'the body must be JSON: {"x402Version", "paymentPayload", "paymentRequirements"}' }, 400)
  }
  if (typeof body?.paymentPayload !== 'object' || body.paymentPayload === null || typeof body.paymentRequirements !== 'object' || body.paymentRequirements === null) {
    return json({ error: 'paymentPayload and paymentRequirements must both be objects' }, 400)
  }
  const payload = body.paymentPayload as Parameters<x402Facilitator['verify']>[0]
  const requirements = body.paymentRequirements as Parameters<x402Facilitator['verify']>[1]
  try {
    return json(pathname === '/verify' ? await facilitator.verify(payload, requirements) : await facilitator.settle(payload, requirements))
  } catch (error) {
    // What the scheme could not even judge (an unknown network or scheme, a payload it cannot parse).
    return json({ error: error instanceof Error ? error.message : String(error) }, 400)
  }
}
