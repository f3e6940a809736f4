import type { RunningSandbox } from '../../sandbox/index.ts'

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
