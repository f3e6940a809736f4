/**
 * The sandbox's x402 facilitator (Solana rail) as a process of its own, so a chaos run can freeze it
 * (SIGSTOP) and resume it (SIGCONT) mid-settlement without touching the chain or the service. It signs
 * with the sandbox's facilitator fee payer and settles through the sandbox RPC named by RPC_URL;
 * prints "READY <url>" on stderr once it serves.
 *
 * SETTLE_LATENCY_MS (default 800) gives a settlement the time a hosted facilitator's takes on mainnet
 * (it waits for the transaction to confirm; the sandbox chain confirms at once): half before the
 * transaction is sent, half after. So a freeze lands mid-settlement on either side of the money moving.
 */
import { namedSigner } from '../../sandbox/keys.ts'
import { createSandboxFacilitator, handleFacilitatorRequest } from '../../sandbox/facilitator/index.ts'

const rpcUrl = process.env.RPC_URL
if (!rpcUrl) throw new Error('RPC_URL names the sandbox chain the facilitator settles on')
const facilitator = createSandboxFacilitator(await namedSigner('x402-facilitator'), rpcUrl)
const latencyMs = Number(process.env.SETTLE_LATENCY_MS ?? 800)
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    if (new URL(request.url).pathname !== '/settle') return handleFacilitatorRequest(facilitator, request)
    await Bun.sleep(latencyMs / 2)
    const answer = await handleFacilitatorRequest(facilitator, request)
    await Bun.sleep(latencyMs / 2)
    return answer
  },
})
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
console.error(`READY http://127.0.0.1:${server.port}`)
