import { afterAll, describe, expect, test } from 'bun:test'
import { createPublicClient, createWalletClient, hashDomain, http, keccak256, toHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { compileContracts, readArtifacts, sourcesSha256 } from './compile.ts'
import { startEvmChain } from './index.ts'

const evm = await startEvmChain('127.0.0.1', 0, 1_000_000_000n)
afterAll(() => evm.stop())

const { SandboxUSDC, Multicall } = readArtifacts().contracts
const { chain } = evm
const reader = createPublicClient({ chain, transport: http(evm.url) })
const walletOf = (privateKey: Hex) =>
  createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport: http(evm.url) })
const read = (functionName: string, args: unknown[] = []) =>
  reader.readContract({ address: evm.usdc, abi: SandboxUSDC.abi, functionName, args } as never) as Promise<unknown>

/** Sends a contract call from `privateKey`; the revert reason when it reverts. */
async function send(privateKey: Hex, functionName: string, args: unknown[]): Promise<string | undefined> {
  const wallet = walletOf(privateKey)
  try {
    const hash = await wallet.writeContract({ address: evm.usdc, abi: SandboxUSDC.abi, functionName, args } as never)
    const receipt = await reader.waitForTransactionReceipt({ hash })
    return receipt.status === 'success' ? undefined : 'reverted'
  } catch (error) {
    return (error as Error).message
  }
}

const now = () => BigInt(Math.floor(Date.now() / 1000))

/** An EIP-3009 authorization signed by `from` under the token's EIP-712 domain. */
async function authorize(
  from: Hex,
  fields: { to: Hex; value: bigint; validAfter?: bigint; validBefore?: bigint; nonce?: Hex },
  primaryType: 'TransferWithAuthorization' | 'ReceiveWithAuthorization' = 'TransferWithAuthorization',
) {
  const account = privateKeyToAccount(from)
  const message = {
    from: account.address,
    to: fields.to,
    value: fields.value,
    validAfter: fields.validAfter ?? 0n,
    validBefore: fields.validBefore ?? now() + 600n,
    nonce: fields.nonce ?? keccak256(toHex(crypto.randomUUID())),
  }
  const fieldsOf = [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ]
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: chain.id, verifyingContract: evm.usdc },
    types: { [primaryType]: fieldsOf },
    primaryType,
    message,
  })
  const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce]
  return { message, args, withSignature: [...args, signature], signature }
}

describe('the sandbox EVM contracts', () => {
  test('artifacts.json is compiled from the current sources, and solc reproduces it', async () => {
    const artifacts = readArtifacts()
    expect(artifacts.sourcesSha256).toBe(sourcesSha256())
    const fresh = await compileContracts()
    expect(fresh.contracts.SandboxUSDC.bytecode).toBe(artifacts.contracts.SandboxUSDC.bytecode)
    expect(fresh.contracts.Multicall.deployedBytecode).toBe(artifacts.contracts.Multicall.deployedBytecode)
  })

  test('the token looks like USDC on Base: name, version, symbol, 6 decimals, the EIP-712 domain separator', async () => {
    expect(await read('name')).toBe('USD Coin')
    expect(await read('version')).toBe('2')
    expect(await read('symbol')).toBe('USDC')
    expect(await read('decimals')).toBe(6)
    expect(await read('DOMAIN_SEPARATOR')).toBe(
      hashDomain({
        domain: { name: 'USD Coin', version: '2', chainId: BigInt(chain.id), verifyingContract: evm.usdc },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    )
    expect(await evm.usdcBalance(evm.buyer.address)).toBe(1_000_000_000n)
  })

  test('transferWithAuthorization moves the value once; the nonce is then spent', async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address
    const auth = await authorize(evm.buyer.privateKey, { to, value: 20_000n })
    expect(await read('authorizationState', [auth.message.from, auth.message.nonce])).toBe(false)
    // Anyone may submit it (the facilitator does), in either signature form.
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', auth.withSignature)).toBeUndefined()
    expect(await evm.usdcBalance(to)).toBe(20_000n)
    expect(await read('authorizationState', [auth.message.from, auth.message.nonce])).toBe(true)
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', auth.withSignature)).toContain(
      'authorization is used or canceled',
    )
    expect(await evm.usdcBalance(to)).toBe(20_000n)
  })

  test("an expired, not-yet-valid, tampered or unfunded authorization reverts with FiatTokenV2's reason", async () => {
    const to = privateKeyToAccount(generatePrivateKey()).address
    const expired = await authorize(evm.buyer.privateKey, { to, value: 1n, validBefore: now() - 10n })
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', expired.withSignature)).toContain(
      'authorization is expired',
    )
    const early = await authorize(evm.buyer.privateKey, { to, value: 1n, validAfter: now() + 600n })
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', early.withSignature)).toContain(
      'authorization is not yet valid',
    )
    const signed = await authorize(evm.buyer.privateKey, { to, value: 1n })
    const tampered = [...signed.args.slice(0, 2), 1_000n, ...signed.args.slice(3), signed.signature]
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', tampered)).toContain('invalid signature')
    const broke = await authorize(generatePrivateKey(), { to, value: 1n })
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', broke.withSignature)).toContain(
      'transfer amount exceeds balance',
    )
    expect(await evm.usdcBalance(to)).toBe(0n)
  })

  test('receiveWithAuthorization only by the payee; cancelAuthorization spends the nonce; only the issuer mints', async () => {
    const payee = generatePrivateKey()
    const payeeAddress = privateKeyToAccount(payee).address
    await reader.request({ method: 'anvil_setBalance', params: [payeeAddress, '0xde0b6b3a7640000'] } as never)
    const receive = await authorize(evm.buyer.privateKey, { to: payeeAddress, value: 5n }, 'ReceiveWithAuthorization')
    expect(
      await send(evm.facilitatorKey, 'receiveWithAuthorization', [
        ...receive.args,
        ...splitSignature(receive.signature),
      ]),
    ).toContain('caller must be the payee')
    expect(
      await send(payee, 'receiveWithAuthorization', [...receive.args, ...splitSignature(receive.signature)]),
    ).toBeUndefined()
    expect(await evm.usdcBalance(payeeAddress)).toBe(5n)

    const buyer = privateKeyToAccount(evm.buyer.privateKey)
    const nonce = keccak256(toHex('cancel me'))
    const cancel = await buyer.signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: chain.id, verifyingContract: evm.usdc },
      types: {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'CancelAuthorization',
      message: { authorizer: buyer.address, nonce },
    })
    expect(
      await send(evm.facilitatorKey, 'cancelAuthorization', [buyer.address, nonce, ...splitSignature(cancel)]),
    ).toBeUndefined()
    const cancelled = await authorize(evm.buyer.privateKey, { to: payeeAddress, value: 1n, nonce })
    expect(await send(evm.facilitatorKey, 'transferWithAuthorization', cancelled.withSignature)).toContain(
      'authorization is used or canceled',
    )

    expect(await send(evm.buyer.privateKey, 'mint', [buyer.address, 1n])).toContain('caller is not the owner')
  })

  test("Multicall3's tryAggregate answers at its canonical address, failures included", async () => {
    const results = (await reader.readContract({
      address: '0xcA11bde05977b3631167028862bE2a173976CA11',
      abi: Multicall.abi,
      functionName: 'tryAggregate',
      args: [
        false,
        [
          { target: evm.usdc, callData: '0x06fdde03' },
          { target: evm.usdc, callData: '0xdeadbeef' },
        ],
      ],
    } as never)) as { success: boolean; returnData: Hex }[]
    expect(results.map((result) => result.success)).toEqual([true, false])
  })
})

function splitSignature(signature: Hex): [number, Hex, Hex] {
  return [
    Number.parseInt(signature.slice(130, 132), 16),
    `0x${signature.slice(2, 66)}`,
    `0x${signature.slice(66, 130)}`,
  ]
}
