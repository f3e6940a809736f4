import { getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { getCreateAccountInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Base58EncodedBytes,
  type Rpc,
  type SolanaRpcApi,
  type Base64EncodedWireTransaction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Chain } from '../chain/chain.ts'
import { Faucet } from '../chain/faucet.ts'
import { execute } from '../chain/transactions.ts'
import { namedSigner } from '../keys.ts'
import { startRpcServer, type RunningRpcServer } from './server.ts'

let chain: Chain
let server: RunningRpcServer
let rpc: Rpc<SolanaRpcApi>
let payer: KeyPairSigner
let mint: KeyPairSigner
let holderA: KeyPairSigner
let holderB: KeyPairSigner
let ataA: Address
let ataB: Address
let transferSignature: string

beforeAll(async () => {
  chain = new Chain({ genesisUnixS: Math.floor(Date.now() / 1000) - 3600 })
  const faucet = new Faucet(chain, await namedSigner('test-faucet'))
  server = startRpcServer(
    {
      chain,
      parse: () => undefined,
      airdrop: (to, amount) => faucet.airdrop(to, amount),
      dust: (to, count) => faucet.dust(to, count),
      genesisHash: 'sandbox-genesis',
    },
    { hostname: '127.0.0.1', port: 0, wsPort: 0 },
  )
  rpc = createSolanaRpc(server.url)
  payer = await generateKeyPairSigner()
  await faucet.airdrop(payer.address, 100_000_000_000n)
  mint = await generateKeyPairSigner()
  holderA = await generateKeyPairSigner()
  holderB = await generateKeyPairSigner()
  ;[ataA] = await findAssociatedTokenPda({
    mint: mint.address,
    owner: holderA.address,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  })
  ;[ataB] = await findAssociatedTokenPda({
    mint: mint.address,
    owner: holderB.address,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  })
  const rent = chain.svm.minimumBalanceForRentExemption(82n)
  await execute(chain, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: lamports(rent),
      space: 82,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({
      mint: mint.address,
      decimals: 6,
      mintAuthority: payer.address,
      freezeAuthority: null,
    }),
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: ataA, owner: holderA.address, mint: mint.address }),
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: ataB, owner: holderB.address, mint: mint.address }),
    getMintToInstruction({ mint: mint.address, token: ataA, mintAuthority: payer, amount: 900_000_000n }),
    getMintToInstruction({ mint: mint.address, token: ataB, mintAuthority: payer, amount: 100_000_000n }),
  ])
  await faucet.airdrop(holderA.address, 1_000_000_000n)
  transferSignature = (
    await execute(chain, holderA, [
      getTransferCheckedInstruction({
        source: ataA,
        mint: mint.address,
        destination: ataB,
        authority: holderA,
        amount: 1_500_000n,
        decimals: 6,
      }),
    ])
  ).signature
})

afterAll(async () => {
  await server.stop()
})

async function signedTransfer(
  from: KeyPairSigner,
  to: Address,
  amount: bigint,
  blockhash?: Awaited<ReturnType<typeof latest>>,
) {
  const lifetime = blockhash ?? (await latest())
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source: from, destination: to, amount: lamports(amount) })],
        m,
      ),
  )
  return signTransactionMessageWithSigners(message)
}

async function latest() {
  return (await rpc.getLatestBlockhash().send()).value
}

async function rawCall(method: string, params: unknown[]) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
}

describe('cluster information', () => {
  test('health, version, genesis hash, slot, block height and epoch', async () => {
    expect<unknown>(await rpc.getHealth().send()).toBe('ok')
    expect<unknown>((await rpc.getVersion().send())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/)
    expect<unknown>(await rpc.getGenesisHash().send()).toBe('sandbox-genesis')
    const slot = await rpc.getSlot().send()
    expect<unknown>(slot).toBe(chain.slot)
    expect<unknown>(await rpc.getBlockHeight().send()).toBe(chain.blockHeight)
    const epoch = await rpc.getEpochInfo().send()
    expect<unknown>(epoch.absoluteSlot).toBe(slot)
    expect<unknown>(epoch.slotsInEpoch).toBe(432_000n)
  })

  test('latest blockhash and rent exemption', async () => {
    const { blockhash, lastValidBlockHeight } = await latest()
    expect<unknown>(blockhash).toBe(chain.latestBlockhash().blockhash)
    expect<unknown>(lastValidBlockHeight).toBe(chain.blockHeight + 150n)
    expect<unknown>(await rpc.getMinimumBalanceForRentExemption(165n).send()).toBe(2_039_280n)
  })
})

describe('accounts', () => {
  test('getAccountInfo in base64, base58 and with a data slice; a missing account is null', async () => {
    const base64 = await rpc.getAccountInfo(mint.address, { encoding: 'base64' }).send()
    expect<unknown>(base64.value?.owner).toBe(TOKEN_PROGRAM_ADDRESS)
    expect<unknown>(base64.value?.space).toBe(82n)
    expect<unknown>(Buffer.from(base64.value!.data[0], 'base64')[44]).toBe(6)
    const base58 = await rpc.getAccountInfo(mint.address, { encoding: 'base58' }).send()
    expect<unknown>(base58.value?.data[1]).toBe('base58')
    const slice = await rpc
      .getAccountInfo(mint.address, { encoding: 'base64', dataSlice: { offset: 44, length: 1 } })
      .send()
    expect<unknown>(Buffer.from(slice.value!.data[0], 'base64')).toEqual(Buffer.from([6]))
    const missing = await rpc.getAccountInfo((await generateKeyPairSigner()).address, { encoding: 'base64' }).send()
    expect<unknown>(missing.value).toBeNull()
  })

  test('getMultipleAccounts keeps order and nulls', async () => {
    const nobody = (await generateKeyPairSigner()).address
    const { value } = await rpc.getMultipleAccounts([ataA, nobody, mint.address], { encoding: 'base64' }).send()
    expect<unknown>(value.map((account) => account?.space ?? null)).toEqual([165n, null, 82n])
  })

  test('getProgramAccounts with dataSize and memcmp filters', async () => {
    const accounts = await rpc
      .getProgramAccounts(TOKEN_PROGRAM_ADDRESS, {
        encoding: 'base64',
        filters: [
          { dataSize: 165n },
          { memcmp: { offset: 0n, bytes: mint.address as string as Base58EncodedBytes, encoding: 'base58' } },
        ],
      })
      .send()
    expect<unknown>(accounts.map((entry) => entry.pubkey).sort()).toEqual([ataA, ataB].sort())
  })

  test('getBalance', async () => {
    expect<unknown>((await rpc.getBalance(holderA.address).send()).value).toBe(1_000_000_000n - 5_000n)
  })
})

describe('token queries', () => {
  test('getTokenSupply and getTokenLargestAccounts (largest first)', async () => {
    const supply = await rpc.getTokenSupply(mint.address).send()
    expect<unknown>(supply.value).toEqual({ amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' })
    const largest = await rpc.getTokenLargestAccounts(mint.address).send()
    expect<unknown>(largest.value.map((entry) => [entry.address, entry.amount])).toEqual([
      [ataA, '898500000'],
      [ataB, '101500000'],
    ])
    expect<unknown>(largest.value[0]?.uiAmountString).toBe('898.5')
  })

  test('getTokenAccountsByOwner by mint and by program, and getTokenAccountBalance', async () => {
    const byMint = await rpc
      .getTokenAccountsByOwner(holderB.address, { mint: mint.address }, { encoding: 'base64' })
      .send()
    expect<unknown>(byMint.value.map((entry) => entry.pubkey)).toEqual([ataB])
    const byProgram = await rpc
      .getTokenAccountsByOwner(holderB.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' })
      .send()
    expect<unknown>(byProgram.value).toHaveLength(1)
    const balance = await rpc.getTokenAccountBalance(ataB).send()
    expect<unknown>(balance.value.amount).toBe('101500000')
  })

  test('a non-mint gets an invalid-params error', async () => {
    const answer = await rawCall('getTokenSupply', [holderA.address])
    expect<unknown>(answer.error?.code).toBe(-32602)
  })
})

describe('history', () => {
  test('getSignaturesForAddress is newest first and honours before, until and limit', async () => {
    const all = await rpc.getSignaturesForAddress(ataB).send()
    expect<unknown>(all.map((entry) => entry.signature)).toHaveLength(2)
    expect<unknown>(all[0]?.signature).toBe(transferSignature as Signature)
    expect<unknown>(all[0]!.slot).toBeGreaterThan(all[1]!.slot)
    expect<unknown>(all[0]?.confirmationStatus).toBe('finalized')
    const limited = await rpc.getSignaturesForAddress(ataB, { limit: 1 }).send()
    expect<unknown>(limited.map((entry) => entry.signature)).toEqual([all[0]!.signature])
    const before = await rpc.getSignaturesForAddress(ataB, { before: all[0]!.signature }).send()
    expect<unknown>(before.map((entry) => entry.signature)).toEqual([all[1]!.signature])
    const until = await rpc.getSignaturesForAddress(ataB, { until: all[1]!.signature }).send()
    expect<unknown>(until.map((entry) => entry.signature)).toEqual([all[0]!.signature])
  })

  test("getSignaturesForAddress writes a transaction's memos as the validator does: [bytes] text, joined with '; '", async () => {
    const memo = (text: string, program: string) => ({
      programAddress: address(program),
      accounts: [],
      data: new TextEncoder().encode(text),
    })
    const { signature } = await execute(chain, payer, [
      memo('héllo', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
      memo('x402', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo'),
    ])
    const [newest] = await rpc.getSignaturesForAddress(payer.address, { limit: 1 }).send()
    expect<unknown>(newest?.signature).toBe(signature)
    expect<unknown>(newest?.memo).toBe('[6] héllo; [4] x402')
    // Without a memo instruction: null, as in the recorded mainnet answer.
    const [transfer] = await rpc.getSignaturesForAddress(ataB, { limit: 1 }).send()
    expect<unknown>(transfer?.memo).toBeNull()
  })

  test('requestDustFlood buries an address under that many distinct transfers, newest first', async () => {
    const wallet = await generateKeyPairSigner()
    await rpc.requestAirdrop(wallet.address, lamports(1_000_000_000n)).send()
    const flood = (count: number) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestDustFlood', params: [wallet.address, count] }),
      }).then(
        (response) =>
          response.json() as Promise<{ result?: { count: number; newest: string }; error?: { code: number } }>,
      )
    const answer = await flood(50)
    expect<unknown>(answer.result?.count).toBe(50)
    const history = await rpc.getSignaturesForAddress(wallet.address).send()
    expect<unknown>(history).toHaveLength(51)
    expect<unknown>(history[0]?.signature).toBe(answer.result?.newest)
    expect<unknown>(new Set(history.map((entry) => entry.signature)).size).toBe(51)
    expect<unknown>((await flood(0)).error?.code).toBe(-32602)
    expect<unknown>((await flood(5_001)).error?.code).toBe(-32602)
  })

  test('getTransaction in json with balances, token balances, fee and logs', async () => {
    const transaction = await rpc
      .getTransaction(transferSignature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send()
    expect<unknown>(transaction?.version).toBe(0)
    expect<unknown>(transaction?.meta?.fee).toBe(5_000n)
    expect<unknown>(transaction?.meta?.err).toBeNull()
    expect<unknown>(transaction?.transaction.message.accountKeys[0]).toBe(holderA.address)
    const pre = transaction?.meta?.preTokenBalances?.find((entry) => entry.owner === holderB.address)
    const post = transaction?.meta?.postTokenBalances?.find((entry) => entry.owner === holderB.address)
    expect<unknown>([pre?.uiTokenAmount.amount, post?.uiTokenAmount.amount]).toEqual(['100000000', '101500000'])
    expect<unknown>(transaction?.meta?.logMessages?.[0]).toBe(`Program ${TOKEN_PROGRAM_ADDRESS} invoke [1]`)
  })

  test('getTransaction in base64 round-trips the wire bytes', async () => {
    const transaction = await rpc
      .getTransaction(transferSignature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send()
    expect<unknown>(Buffer.from(transaction!.transaction[0], 'base64')).toEqual(
      Buffer.from(chain.getTransaction(transferSignature)!.wire),
    )
  })

  test('a v0 transaction without maxSupportedTransactionVersion is refused as the real RPC does', async () => {
    const answer = await rawCall('getTransaction', [transferSignature, { encoding: 'json' }])
    expect<unknown>(answer.error?.code).toBe(-32015)
  })

  test('an unknown signature is null', async () => {
    const unknown = '1'.repeat(64)
    expect<unknown>(await rawCall('getTransaction', [unknown, { maxSupportedTransactionVersion: 0 }])).toMatchObject({
      result: null,
    })
  })
})

describe('sending', () => {
  test('requestAirdrop lands a real transfer that getSignatureStatuses confirms', async () => {
    const wallet = (await generateKeyPairSigner()).address
    const signature = await rpc.requestAirdrop(wallet, lamports(2_000_000_000n)).send()
    const { value } = await rpc.getSignatureStatuses([signature]).send()
    expect<unknown>(value[0]?.confirmationStatus).toBe('finalized')
    expect<unknown>((await rpc.getBalance(wallet).send()).value).toBe(2_000_000_000n)
  })

  test('kit send-and-confirm works over HTTP and WebSocket', async () => {
    const sendAndConfirm = sendAndConfirmTransactionFactory({
      rpc,
      rpcSubscriptions: createSolanaRpcSubscriptions(server.wsUrl),
    })
    const to = (await generateKeyPairSigner()).address
    // Above the rent-exempt minimum of an empty account, or the runtime refuses it (InsufficientFundsForRent).
    const transaction = await signedTransfer(payer, to, 1_000_000n)
    await sendAndConfirm(transaction as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' })
    expect<unknown>((await rpc.getBalance(to).send()).value).toBe(1_000_000n)
  })

  test('a failing transaction fails preflight with -32002 and the simulation logs', async () => {
    const poor = await generateKeyPairSigner()
    await rpc.requestAirdrop(poor.address, lamports(1_000_000n)).send()
    const transaction = await signedTransfer(poor, payer.address, 5_000_000n)
    const answer = await rawCall('sendTransaction', [
      getBase64EncodedWireTransaction(transaction),
      { encoding: 'base64' },
    ])
    expect<unknown>(answer.error?.code).toBe(-32002)
    expect<unknown>(answer.error?.message).toBe(
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    )
    expect<unknown>((answer.error?.data as { err: unknown } | undefined)?.err).toEqual({
      InstructionError: [0, { Custom: 1 }],
    })
    expect<unknown>((answer.error?.data as { logs: string[] } | undefined)?.logs.length).toBeGreaterThan(0)
  })

  test('a stale blockhash fails preflight with BlockhashNotFound', async () => {
    const stale = await latest()
    for (let i = 0; i <= 150; i++) chain.produceBlock()
    const transaction = await signedTransfer(payer, payer.address, 1n, stale)
    const answer = await rawCall('sendTransaction', [
      getBase64EncodedWireTransaction(transaction),
      { encoding: 'base64' },
    ])
    expect<unknown>(answer.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
    })
  })

  test('a tampered signature fails with -32003', async () => {
    const transaction = await signedTransfer(payer, payer.address, 1n)
    const wire = Buffer.from(getBase64EncodedWireTransaction(transaction), 'base64')
    wire[5] = wire[5]! ^ 0xff
    const answer = await rawCall('sendTransaction', [wire.toString('base64'), { encoding: 'base64' }])
    expect<unknown>(answer.error?.code).toBe(-32003)
  })

  test('simulateTransaction: sigVerify, replaceRecentBlockhash, and both together refused', async () => {
    const stale = await latest()
    for (let i = 0; i <= 150; i++) chain.produceBlock()
    const wire = getBase64EncodedWireTransaction(
      await signedTransfer(payer, payer.address, 1n, stale),
    ) as Base64EncodedWireTransaction
    const plain = await rpc.simulateTransaction(wire, { encoding: 'base64' }).send()
    expect<unknown>(plain.value.err).toBe('BlockhashNotFound')
    const replaced = await rpc.simulateTransaction(wire, { encoding: 'base64', replaceRecentBlockhash: true }).send()
    expect<unknown>(replaced.value.err).toBeNull()
    expect<unknown>(replaced.value.replacementBlockhash?.blockhash).toBe(chain.latestBlockhash().blockhash)
    const both = await rawCall('simulateTransaction', [
      wire,
      { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true },
    ])
    expect<unknown>(both.error?.code).toBe(-32602)
  })
})

describe('subscriptions', () => {
  test('slotSubscribe notifies each new block through kit', async () => {
    const subscriptions = createSolanaRpcSubscriptions(server.wsUrl)
    const abort = new AbortController()
    const notifications = await subscriptions.slotNotifications().subscribe({ abortSignal: abort.signal })
    const next = notifications[Symbol.asyncIterator]().next()
    await Bun.sleep(20)
    const block = chain.produceBlock()
    const { value } = await next
    expect<unknown>(value?.slot).toBe(block.slot)
    expect<unknown>(value?.parent).toBe(block.parent)
    abort.abort()
  })

  test('signatureSubscribe answers at once for a signature already processed', async () => {
    const subscriptions = createSolanaRpcSubscriptions(server.wsUrl)
    const abort = new AbortController()
    const notifications = await subscriptions
      .signatureNotifications(transferSignature as Signature, { commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal })
    const { value } = await notifications[Symbol.asyncIterator]().next()
    expect<unknown>(value?.value.err).toBeNull()
    abort.abort()
  })
})

describe('protocol errors', () => {
  test('an unknown method is -32601', async () => {
    expect<unknown>((await rawCall('getEverything', [])).error).toEqual({ code: -32601, message: 'Method not found' })
  })

  test('a malformed public key is -32602', async () => {
    expect<unknown>((await rawCall('getBalance', ['not-a-key'])).error?.code).toBe(-32602)
    expect<unknown>((await rawCall('getBalance', [42])).error?.code).toBe(-32602)
  })

  test('kit surfaces RPC errors as SolanaError', async () => {
    let caught: unknown
    try {
      await rpc.getTokenSupply(address('11111111111111111111111111111111')).send()
    } catch (error) {
      caught = error
    }
    expect<unknown>(isSolanaError(caught)).toBe(true)
  })

  test('a batch request answers each call; a parse error is -32700', async () => {
    const batch = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getHealth' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ]),
    })
    const answers = (await batch.json()) as { id: number; result?: unknown; error?: { code: number } }[]
    expect<unknown>(answers.map((answer) => [answer.id, answer.result ?? answer.error?.code])).toEqual([
      [1, 'ok'],
      [2, -32601],
    ])
    const parse = await fetch(server.url, { method: 'POST', body: '{' })
    expect<unknown>(((await parse.json()) as { error: { code: number } }).error.code).toBe(-32700)
  })
})
