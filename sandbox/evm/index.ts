/**
 * The sandbox's EVM chain: an anvil node (chain id 31337) with a USDC-like EIP-3009 token deployed
 * from the compiled artifact, Multicall3's `tryAggregate` at its canonical address, and named,
 * deterministic accounts: the token's issuer, the x402 facilitator (pays settlement gas), the
 * service's treasury (is paid) and the demo buyer (holds test USDC).
 */
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  publicActions,
  type Chain,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { evmPrivateKey } from '../keys.ts'
import { ANVIL_CHAIN_ID, startAnvil } from './anvil.ts'
import { readArtifacts } from './compile.ts'

/** Where the official x402 EVM scheme looks for Multicall3. */
const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** The token's EIP-712 domain as `name,version` (BASE_PAYMENT_ASSET_DOMAIN): the same as USDC on Base. */
export const SANDBOX_USDC_DOMAIN = 'USD Coin,2'

/** The sandbox's EVM chain as viem names it, served at `url`. */
function sandboxEvmChain(url: string): Chain {
  return defineChain({
    id: ANVIL_CHAIN_ID,
    name: 'solsentry sandbox (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
}

export interface EvmChain {
  url: string
  /** The chain for viem clients (id 31337, its RPC at `url`). */
  chain: Chain
  network: string
  usdc: Hex
  /** The token's deployer, the only account allowed to mint. */
  issuer: { address: Hex; privateKey: Hex }
  /** The x402 facilitator's account, which submits settlements and pays their gas. */
  facilitator: Hex
  facilitatorKey: Hex
  treasury: Hex
  buyer: { address: Hex; privateKey: Hex }
  /** Mints test USDC (atomic units, 6 decimals) to `to`. */
  mintUsdc(to: Hex, amount: bigint): Promise<void>
  usdcBalance(owner: Hex): Promise<bigint>
  stop(): Promise<void>
}

/** The ETH each named account starts with: gas for settlements and deployments. */
const START_ETH = parseEther('100')

export async function startEvmChain(hostname: string, port: number, buyerUsdc: bigint): Promise<EvmChain> {
  const node = await startAnvil(hostname, port)
  try {
    const chain = sandboxEvmChain(node.url)
    const transport = http(node.url)
    const client = createPublicClient({ chain, transport })
    const named = (name: string) => {
      const privateKey = evmPrivateKey(name)
      return { address: privateKeyToAccount(privateKey).address, privateKey }
    }
    const issuer = named('usdc-issuer')
    const facilitator = named('x402-facilitator')
    const treasury = named('service-treasury')
    const buyer = named('demo-buyer')
    await Promise.all(
      [issuer, facilitator, treasury, buyer].map(({ address }) =>
        client.request({ method: 'anvil_setBalance', params: [address, `0x${START_ETH.toString(16)}`] } as never),
      ),
    )
    const { SandboxUSDC, Multicall } = readArtifacts().contracts
    await client.request({ method: 'anvil_setCode', params: [MULTICALL3_ADDRESS, Multicall.deployedBytecode] } as never)

    const wallet = createWalletClient({ account: privateKeyToAccount(issuer.privateKey), chain, transport }).extend(
      publicActions,
    )
    const deployed = await wallet.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: SandboxUSDC.abi, bytecode: SandboxUSDC.bytecode }),
    })
    if (!deployed.contractAddress) throw new Error('the sandbox USDC deployment produced no contract')
    const usdc = deployed.contractAddress
    const mintUsdc = async (to: Hex, amount: bigint) => {
      const hash = await wallet.writeContract({
        address: usdc,
        abi: SandboxUSDC.abi,
        functionName: 'mint',
        args: [to, amount],
      })
      const receipt = await wallet.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success') throw new Error(`minting ${amount} sandbox USDC to ${to} reverted`)
    }
    await mintUsdc(buyer.address, buyerUsdc)
    return {
      url: node.url,
      chain,
      network: `eip155:${ANVIL_CHAIN_ID}`,
      usdc,
      issuer,
      facilitator: facilitator.address,
      facilitatorKey: facilitator.privateKey,
      treasury: treasury.address,
      buyer,
      mintUsdc,
      usdcBalance: async (owner) =>
        (await client.readContract({
          address: usdc,
          abi: SandboxUSDC.abi,
          functionName: 'balanceOf',
          args: [owner],
        })) as bigint,
      stop: node.stop,
    }
  } catch (error) {
    await node.stop()
    throw error
  }
}
