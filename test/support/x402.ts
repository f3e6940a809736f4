import { x402Client } from '@x402/core/client'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
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

/**
 * The official v2 client paying as the sandbox's demo buyer on the Solana rail: the scheme pointed at
 * the sandbox RPC, the sandbox USDC allowed (the client pays only known assets by default).
 */
export async function sandboxPayer(sandbox: RunningSandbox) {
  const { network, asset } = sandbox.file.x402.solana
  const buyer = await sandbox.world.signer('demo-buyer')
  const caip2 = network as `${string}:${string}`
  const client = new x402Client()
    .register(caip2, new ExactSvmScheme(buyer, { rpcUrl: sandbox.file.urls.rpc }))
    .setSpendControls({ allowedAssets: [{ network: caip2, asset, maxAmountPerPayment: '1000000' }] })
  return { client, buyer }
}

/**
 * The official v2 client paying on the EVM rail (anvil, the test USDC): an EIP-3009 authorization
 * signed by default with the demo buyer's key the world file lists.
 */
export function sandboxEvmPayer(sandbox: RunningSandbox, privateKey = sandbox.file.evm_buyer.private_key as `0x${string}`) {
  const { network, asset } = sandbox.file.x402.base
  const account = privateKeyToAccount(privateKey)
  const caip2 = network as `${string}:${string}`
  const client = new x402Client()
    .register(caip2, new ExactEvmScheme(account))
    .setSpendControls({ allowedAssets: [{ network: caip2, asset, maxAmountPerPayment: '1000000' }] })
  return { client, account }
}
