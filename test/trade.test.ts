import { afterAll, afterEach, describe, expect, test } from 'bun:test'
import pino from 'pino'
import {
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  generateKeyPairSigner,
  partiallySignTransaction,
  type KeyPairSigner,
} from '@solana/kit'
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x'
import { wrapFetchWithPayment } from '@x402/fetch'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/settings.ts'
import { createContext } from '../src/context.ts'
import { startServer } from '../src/http/server.ts'
import { REPLAYED_MINT, replayedMintDir } from './support/replayed-mint.ts'
import { openApiValidator } from './support/openapi.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { usdcOf } from './support/x402.ts'
import { describeWithRedis, startRedis } from './support/redis.ts'
import { WAIVED_PAYMENTS } from './support/payments.ts'
import { Jobs, trackingAccountOf } from '../plugins/trade/job.ts'
import { Solsentry } from '../client/index.ts'
import { eventually } from './support/eventually.ts'
import { runSandboxScript } from './support/run.ts'
import { chainBalances, signLocally } from './support/wallet.ts'

// The whole service on the sandbox over HTTP; swaps signed locally with @solana/kit as a caller would,
// the execute fee paid by the official v2 client on the EVM rail (so the Solana balances move only by the swap).
// The swap API is the service's default (Swap API v2's /build) unless JUPITER_SWAP_API=v1 runs the file
// on v1's /quote + /swap (docs/trade.md): the file passes on both.
const SWAP_API = process.env.JUPITER_SWAP_API === 'v1' ? 'v1' : 'v2'
/** The aggregator request a trade's quote begins with, on the swap API under test. */
const QUOTE_PATH = SWAP_API === 'v2' ? '/swap/v2/build' : '/swap/v1/quote'
const sandbox = await startSandbox(ephemeralSandboxOptions({ accountsDir: replayedMintDir() }))
const config = loadConfig({
  ...sandbox.serviceSettings,
  PORT: '0',
  DATA_DIR: ':memory:',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_SCANNER_BURST: '1000',
  JUPITER_SWAP_API: SWAP_API,
})
const ctx = createContext(config, { logger: pino({ level: 'silent' }) })
await ctx.payments.start()
const running = startServer(createApp(ctx), ctx)
afterAll(async () => {
  await running.shutdown('test over')
  await sandbox.stop()
})
afterEach(() => sandbox.faults.clear())

const SOL = 'So11111111111111111111111111111111111111112'
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
const buyer = await sandbox.world.signer('demo-buyer')
const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)
const { x402: offers } = sandbox.file
/** What the service has been paid, on both rails. */
const fees = async () => [
  await sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`),
  await usdcOf(sandbox, offers.solana.pay_to),
]
const sends = () => sandbox.faults.countOf('rpc:sendTransaction')
/** Every answer checked against the service's own /openapi.json. */
const validate = await openApiValidator({
  handle: (request) => fetch(`${running.url}${new URL(request.url).pathname}`),
})
// Called before toMatchObject: Bun's toMatchObject writes its asymmetric matchers into the object it checks.
const conforms = (method: string, path: string, status: number, body: unknown) =>
  expect(validate(method, path, status, body)).toEqual([])

const post = (
  path: string,
  body: unknown,
  fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
  headers: Record<string, string> = {},
) =>
  fetcher(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
async function quote(
  request: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const body = {
    input_mint: SOL,
    output_mint: mintOf('blue-chip'),
    amount_in: '100000000',
    user_public_key: buyer.address,
    ...request,
  }
  const response = await post('/trade/quote', body, fetch, headers)
  return { status: response.status, body: await response.json() }
}

/** Signs the quoted transaction locally, as the caller's wallet does. */
const sign = (unsigned: string, signer: KeyPairSigner = buyer) => signLocally(unsigned, signer)
const { tokensOf, lamportsOf } = chainBalances(sandbox.file.urls.rpc)
const statusOf = async (jobId: string) => (await (await fetch(`${running.url}/trade/status/${jobId}`)).json()) as Json

describe('a swap end to end (quote → sign locally → execute → CONFIRMED)', () => {
  test('the balances move by the quoted amounts and the fee settles exactly once; executing again answers the first outcome', async () => {
    const token = mintOf('blue-chip')
    const [tokenBefore, lamportsBefore, feesBefore, sendsBefore] = [
      await tokensOf(buyer.address, token),
      await lamportsOf(buyer.address),
      await fees(),
      sends(),
    ]

    const quoted = await quote()
    expect(quoted.status).toBe(200)
    expect(quoted.body).toMatchObject({
      schema_version: '2.0',
      status: 'QUOTED',
      risk_gate: { verdict: 'PASS', grade: 'A' },
      quote: { in_amount: '100000000', input_mint: SOL, output_mint: token },
      rejection: null,
    })
    conforms('POST', '/trade/quote', 200, quoted.body)
    const { quote: terms, job_id } = quoted.body
    expect(BigInt(terms.min_out_amount)).toBeLessThan(BigInt(terms.out_amount))
    expect(terms.last_valid_block_height).toBeGreaterThan(0)
    expect(Date.parse(terms.expires_at)).toBeGreaterThan(Date.now())
    // A free route: no payment was asked for.
    expect(await fees()).toEqual(feesBefore)

    const executed = await post(
      '/trade/execute',
      { job_id, signed_transaction_b64: await sign(quoted.body.unsigned_transaction_b64) },
      payingFetch,
    )
    expect(executed.status).toBe(200)
    const outcome = (await executed.json()) as Json
    conforms('POST', '/trade/execute', 200, outcome)
    expect(outcome).toMatchObject({
      schema_version: '2.0',
      job_id,
      status: 'CONFIRMED',
      execution: { tx_signature: expect.any(String), slot: expect.any(Number) },
      rejection: null,
    })
    expect(JSON.parse(Buffer.from(executed.headers.get('payment-response')!, 'base64').toString())).toMatchObject({
      success: true,
      network: 'eip155:31337',
    })

    const received = (await tokensOf(buyer.address, token)) - tokenBefore
    expect(received).toBeGreaterThanOrEqual(BigInt(terms.min_out_amount))
    expect(received).toBe(BigInt(terms.out_amount))
    const spent = lamportsBefore - (await lamportsOf(buyer.address))
    expect(spent).toBeGreaterThanOrEqual(100_000_000n)
    expect(spent).toBeLessThan(100_000_000n + 5_000_000n) // the swap, the network fee, token-account rent
    const [evmFees, solanaFees] = await fees()
    expect(evmFees).toBe(feesBefore[0]! + 150_000n)
    expect(solanaFees).toBe(feesBefore[1]!)
    expect(sends() - sendsBefore).toBe(1)

    const job = await statusOf(job_id)
    conforms('GET', '/trade/status/{job_id}', 200, job)
    expect(job).toMatchObject({
      status: 'CONFIRMED',
      execution: outcome.execution,
      fee: { status: 'settled', amount: '150000', network: 'eip155:31337' },
      rejection: null,
    })
    expect(job.history.map((entry: Json) => entry.status)).toEqual(['QUOTED', 'EXECUTING', 'EXECUTING', 'CONFIRMED'])
    expect(job).not.toHaveProperty('unsigned_transaction_b64')

    // Again: the first outcome, no second broadcast, no second fee (nothing is even asked for).
    const again = await post(
      '/trade/execute',
      { job_id, signed_transaction_b64: await sign(quoted.body.unsigned_transaction_b64) },
      payingFetch,
    )
    expect(again.status).toBe(200)
    expect(((await again.json()) as Json).execution).toEqual(outcome.execution)
    expect(await fees()).toEqual([evmFees!, solanaFees!])
    expect(sends() - sendsBefore).toBe(1)
    // And its job_id cannot be quoted again.
    expect((await quote({ job_id })).status).toBe(409)
  })

  test('selling a token for SOL: the gate has nothing to scan in SOL and passes', async () => {
    const usdc = mintOf('usdc-stablecoin')
    const sold = await quote({ input_mint: usdc, output_mint: SOL, amount_in: '1000000' })
    expect(sold.status).toBe(200)
    expect(sold.body.risk_gate).toMatchObject({ verdict: 'PASS', token: SOL, reasons: [{ code: 'NATIVE_SOL' }] })
  })
})

describe('every rejection, through real requests: 422 with its status, recorded on the job, nothing charged', () => {
  const fresh = () => `${crypto.randomUUID().replace(/-/g, '').slice(0, 8)}`
  test.each([
    ['REJECTED_SAME_MINT', () => ({ input_mint: mintOf('blue-chip') })],
    ['REJECTED_SLIPPAGE_OUT_OF_RANGE', () => ({ slippage_bps: 5_000 })],
    ['REJECTED_VALIDATION', () => ({ amount_in: '0' })],
    ['REJECTED_RISK_GATE', () => ({ output_mint: mintOf('hostile-token-2022') })],
    ['REJECTED_NO_ROUTE', () => ({ input_mint: REPLAYED_MINT.pubkey, output_mint: SOL, amount_in: '1' })],
    ['REJECTED_PRICE_IMPACT', () => ({ output_mint: mintOf('dead-token') })],
    ['REJECTED_INSUFFICIENT_BALANCE', () => ({ user_public_key: `Fresh${'1'.repeat(39)}` })],
    [
      'REJECTED_INTERNAL',
      () => {
        sandbox.faults.set('jupiter', QUOTE_PATH, { kind: 'server_error' })
        return {}
      },
    ],
  ] as const)('%s', async (expected, request) => {
    const feesBefore = await fees()
    const job_id = `reject-${fresh()}`
    const rejected = await quote({ job_id, ...request() })
    expect(rejected.status).toBe(422)
    conforms('POST', '/trade/quote', 422, rejected.body)
    expect(rejected.body).toMatchObject({
      schema_version: '2.0',
      error: true,
      code: 'TRADE_REJECTED',
      job_id,
      status: expected,
      execution: null,
      rejection: { code: expect.any(String), reason: expect.any(String), refundable: true },
    })
    expect(rejected.body.message).toContain(expected)
    const job = await statusOf(job_id)
    conforms('GET', '/trade/status/{job_id}', 200, job)
    expect(job).toMatchObject({ status: expected, rejection: rejected.body.rejection })
    // Executing a rejected job answers the rejection; no payment is asked for.
    const executed = await post('/trade/execute', { job_id, signed_transaction_b64: 'AQID' })
    expect(executed.status).toBe(422)
    expect(((await executed.json()) as Json).status).toBe(expected)
    expect(await fees()).toEqual(feesBefore)
  })

  test('the risk gate says why it blocks, and a price-impact rejection shows the quote', async () => {
    const blocked = await quote({ output_mint: mintOf('hostile-token-2022') })
    expect(blocked.body.risk_gate).toMatchObject({ verdict: 'BLOCK', grade: 'F' })
    expect(blocked.body.risk_gate.reasons.map((reason: Json) => reason.code)).toContain('HONEYPOT')
    const impact = await quote({ output_mint: mintOf('dead-token') })
    expect(impact.body.quote.price_impact_pct).toBeGreaterThan(15)
    // No transaction was built: no expiry is reported rather than a guessed one.
    expect(impact.body.quote).toMatchObject({ last_valid_block_height: null, expires_at: null })
  })
})

describe('execute refusals', () => {
  test('a tampered transaction is refused before any payment is asked for and does not consume the quote', async () => {
    const quoted = await quote()
    const { job_id, unsigned_transaction_b64 } = quoted.body
    const feesBefore = await fees()
    // The amount (the last instruction's data) changed after quoting, then signed by the user.
    const transaction = getTransactionDecoder().decode(Buffer.from(unsigned_transaction_b64, 'base64'))
    const messageBytes = new Uint8Array(transaction.messageBytes)
    messageBytes[messageBytes.length - 1]! ^= 0xff
    const tampered = getBase64EncodedWireTransaction(
      await partiallySignTransaction([buyer.keyPair], { ...transaction, messageBytes: messageBytes as never }),
    )
    const refused = await post('/trade/execute', { job_id, signed_transaction_b64: tampered })
    expect(refused.status).toBe(422)
    expect(refused.headers.get('payment-required')).toBeNull()
    expect(await refused.json()).toMatchObject({
      status: 'REJECTED_VALIDATION',
      rejection: { code: 'TRANSACTION_MISMATCH', refundable: true },
    })

    // The quoted message with a forged user signature.
    const signed = getTransactionDecoder().decode(Buffer.from(await sign(unsigned_transaction_b64), 'base64'))
    const forged = new Uint8Array(signed.signatures[buyer.address]!)
    forged[0]! ^= 0xff
    const badSignature = getBase64EncodedWireTransaction({
      ...signed,
      signatures: { ...signed.signatures, [buyer.address]: forged as never },
    })
    expect(await (await post('/trade/execute', { job_id, signed_transaction_b64: badSignature })).json()).toMatchObject(
      { status: 'REJECTED_VALIDATION', rejection: { code: 'SIGNATURE_INVALID' } },
    )
    expect(
      await (await post('/trade/execute', { job_id, signed_transaction_b64: unsigned_transaction_b64 })).json(),
    ).toMatchObject({ rejection: { code: 'SIGNATURE_MISSING' } })

    expect(await statusOf(job_id)).toMatchObject({
      status: 'QUOTED',
      last_attempt: { rejection: { code: 'SIGNATURE_MISSING' } },
    })
    expect(await fees()).toEqual(feesBefore)
    // The right transaction still goes through.
    const executed = await post(
      '/trade/execute',
      { job_id, signed_transaction_b64: await sign(unsigned_transaction_b64) },
      payingFetch,
    )
    expect(executed.status).toBe(200)
  })

  test('without payment: 402 with the 0.15 USD challenge, and the job stays quoted', async () => {
    const quoted = await quote()
    const response = await post('/trade/execute', {
      job_id: quoted.body.job_id,
      signed_transaction_b64: await sign(quoted.body.unsigned_transaction_b64),
    })
    expect(response.status).toBe(402)
    const challenge = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())
    expect(challenge.accepts.map((offer: Json) => offer.amount)).toEqual(['150000', '150000'])
    expect((await statusOf(quoted.body.job_id)).status).toBe('QUOTED')
  })

  test('an expired blockhash: FAILED, refundable, nothing sent, the fee not charged', async () => {
    const quoted = await quote()
    const signedTx = await sign(quoted.body.unsigned_transaction_b64)
    const [feesBefore, sendsBefore] = [await fees(), sends()]
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    const response = await post(
      '/trade/execute',
      { job_id: quoted.body.job_id, signed_transaction_b64: signedTx },
      payingFetch,
    )
    expect(response.status).toBe(422)
    const failed = await response.json()
    conforms('POST', '/trade/execute', 422, failed)
    expect(failed).toMatchObject({
      status: 'FAILED',
      execution: null,
      rejection: { code: 'BLOCKHASH_EXPIRED', refundable: true },
    })
    expect(await fees()).toEqual(feesBefore)
    expect(sends()).toBe(sendsBefore)
    expect(await statusOf(quoted.body.job_id)).toMatchObject({ status: 'FAILED', fee: { status: 'cancelled' } })
  })

  test('a transaction that no longer simulates (the wallet spent its SOL after quoting): FAILED, refundable, not sent, no fee', async () => {
    const { generateKeyPairSigner } = await import('@solana/kit')
    const { getTransferSolInstruction } = await import('@solana-program/system')
    const wallet = await generateKeyPairSigner()
    await sandbox.world.faucet.airdrop(wallet.address, 1_000_000_000n)
    const quoted = await quote({ user_public_key: wallet.address, amount_in: '500000000' })
    expect(quoted.status).toBe(200)
    const signedTx = await sign(quoted.body.unsigned_transaction_b64, wallet)
    const sink = await generateKeyPairSigner()
    await sandbox.world.run(wallet, [
      getTransferSolInstruction({ source: wallet, destination: sink.address, amount: 900_000_000n }),
    ])
    const [feesBefore, sendsBefore] = [await fees(), sends()]
    const response = await post(
      '/trade/execute',
      { job_id: quoted.body.job_id, signed_transaction_b64: signedTx },
      payingFetch,
    )
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      status: 'FAILED',
      rejection: { code: 'SIMULATION_FAILED', refundable: true },
    })
    expect(sends()).toBe(sendsBefore)
    expect(await fees()).toEqual(feesBefore)
  })

  test('the chain unreadable before sending: REJECTED_INTERNAL, no fee, and the quote is kept for a retry', async () => {
    const quoted = await quote()
    const signedTx = await sign(quoted.body.unsigned_transaction_b64)
    const feesBefore = await fees()
    sandbox.faults.set('rpc', 'isBlockhashValid', { kind: 'server_error' })
    const response = await post(
      '/trade/execute',
      { job_id: quoted.body.job_id, signed_transaction_b64: signedTx },
      payingFetch,
    )
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      status: 'REJECTED_INTERNAL',
      rejection: { code: 'INTERNAL', refundable: true },
    })
    expect(await fees()).toEqual(feesBefore)
    expect((await statusOf(quoted.body.job_id)).status).toBe('QUOTED')
    sandbox.faults.clear()
    expect(
      (await post('/trade/execute', { job_id: quoted.body.job_id, signed_transaction_b64: signedTx }, payingFetch))
        .status,
    ).toBe(200)
  })

  test('the job store failing as the fee is held: the call fails, the fee is released at once (not left verified), nothing is charged, and the quote still executes', async () => {
    const quoted = await quote()
    const signedTx = await sign(quoted.body.unsigned_transaction_b64)
    const feesBefore = await fees()
    // The real store, its claim of the job for execution failing once (the store went away at that moment).
    const store = ctx.store.jobs
    const transition = store.transition.bind(store)
    let failed = 0
    store.transition = async (id, from, status, job, nowMs) => {
      if (status === 'EXECUTING' && failed++ === 0) throw new Error('the job store went away')
      return transition(id, from, status, job, nowMs)
    }
    try {
      const response = await post(
        '/trade/execute',
        { job_id: quoted.body.job_id, signed_transaction_b64: signedTx },
        payingFetch,
      )
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ error: true, code: 'INTERNAL' })
    } finally {
      store.transition = transition
    }
    expect(failed).toBe(1)
    expect(await fees()).toEqual(feesBefore)
    // Released now: no payment is left verified for a restart to find.
    expect(await ctx.store.ledger.unresolved()).toEqual([])
    expect((await statusOf(quoted.body.job_id)).status).toBe('QUOTED')
    const again = await post(
      '/trade/execute',
      { job_id: quoted.body.job_id, signed_transaction_b64: signedTx },
      payingFetch,
    )
    expect(again.status).toBe(200)
    expect((await fees())[0]).toBe(feesBefore[0]! + 150_000n)
  })

  test('two concurrent executes of one job: one broadcast, one fee, the same outcome for both', async () => {
    const quoted = await quote()
    const signedTx = await sign(quoted.body.unsigned_transaction_b64)
    const [feesBefore, sendsBefore] = [await fees(), sends()]
    const answers = await Promise.all(
      [0, 1].map(() =>
        post('/trade/execute', { job_id: quoted.body.job_id, signed_transaction_b64: signedTx }, payingFetch),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    const [first, second] = (await Promise.all(answers.map((answer) => answer.json()))) as Json[]
    expect(second.execution).toEqual(first.execution)
    expect(sends() - sendsBefore).toBe(1)
    expect((await fees())[0]).toBe(feesBefore[0]! + 150_000n)
  })

  test('an unknown job: 404 JOB_NOT_FOUND for execute (no payment asked) and status', async () => {
    const executed = await post('/trade/execute', { job_id: 'no-such-job', signed_transaction_b64: 'AQID' })
    expect(executed.status).toBe(404)
    const missing = await executed.json()
    conforms('POST', '/trade/execute', 404, missing)
    expect(missing).toMatchObject({ error: true, code: 'JOB_NOT_FOUND' })
    const status = await fetch(`${running.url}/trade/status/no-such-job`)
    expect(status.status).toBe(404)
    expect(await status.json()).toMatchObject({ error: true, code: 'JOB_NOT_FOUND' })
  })

  test('bad bodies get 400 with a reason, never a 500', async () => {
    for (const body of [{ job_id: 'x' }, { job_id: 'bad id!', signed_transaction_b64: 'AQID' }, {}]) {
      const response = await post('/trade/execute', body)
      expect(response.status).toBe(400)
      expect(((await response.json()) as Json).error).toBe(true)
    }
    const badMint = await post('/trade/quote', {
      input_mint: '0xabc',
      output_mint: SOL,
      amount_in: '1',
      user_public_key: buyer.address,
    })
    expect(badMint.status).toBe(400)
    expect(((await badMint.json()) as Json).code).toBe('INVALID_ADDRESS')
    const badAmount = await post('/trade/quote', {
      input_mint: SOL,
      output_mint: mintOf('blue-chip'),
      amount_in: '1.5',
      user_public_key: buyer.address,
    })
    expect(badAmount.status).toBe(400)
  })
})

describe('one on-chain swap, one job, at most one fee', () => {
  const messageOf = (b64: string) =>
    Buffer.from(getTransactionDecoder().decode(Buffer.from(b64, 'base64')).messageBytes)
  const accountsOf = (b64: string) =>
    getCompiledTransactionMessageDecoder().decode(messageOf(b64)).staticAccounts as string[]
  /**
   * Whether a transaction carries its job's tracking key: v1 has Jupiter add it read-only to the swap
   * (trackingAccount), v2's assembled transaction ends with a memo naming it.
   */
  const carriesJob = (b64: string, jobId: string) => {
    const tracking = trackingAccountOf(jobId)
    if (SWAP_API === 'v1') return accountsOf(b64).includes(tracking)
    const message = getCompiledTransactionMessageDecoder().decode(messageOf(b64))
    // Legacy and v0 messages list their instructions (v1 messages carry them otherwise; never built here).
    const instructions = 'instructions' in message ? message.instructions : []
    return instructions.some(
      (instruction) =>
        message.staticAccounts[instruction.programAddressIndex] === 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' &&
        Buffer.from(instruction.data ?? []).toString() === `solsentry:${tracking}`,
    )
  }
  const execute = (job_id: string, signed_transaction_b64: string) =>
    post('/trade/execute', { job_id, signed_transaction_b64 }, payingFetch)

  test("two identical quotes sent at once get distinct transactions (each carries its job's tracking account): two swaps, two fees, never one swap charged twice", async () => {
    const token = mintOf('blue-chip')
    const [first, second] = await Promise.all([quote(), quote()])
    expect([first.status, second.status]).toEqual([200, 200])
    expect(first.body.job_id).not.toBe(second.body.job_id)
    expect(messageOf(first.body.unsigned_transaction_b64).equals(messageOf(second.body.unsigned_transaction_b64))).toBe(
      false,
    )
    for (const { body } of [first, second]) expect(carriesJob(body.unsigned_transaction_b64, body.job_id)).toBe(true)

    const [tokensBefore, feesBefore, sendsBefore] = [await tokensOf(buyer.address, token), await fees(), sends()]
    const answers = await Promise.all(
      [first, second].map(async ({ body }) => execute(body.job_id, await sign(body.unsigned_transaction_b64))),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200])
    const [a, b] = (await Promise.all(answers.map((answer) => answer.json()))) as Json[]
    expect(a.execution.tx_signature).not.toBe(b.execution.tx_signature)
    expect(sends() - sendsBefore).toBe(2)
    const received = (await tokensOf(buyer.address, token)) - tokensBefore
    expect(received).toBe(BigInt(first.body.quote.out_amount) + BigInt(second.body.quote.out_amount))
    expect((await fees())[0]).toBe(feesBefore[0]! + 2n * 150_000n)
  })

  test('one signed transaction presented under two jobs (an aggregator that ignored the tracking key): one job executes it and is charged once; the other is refused before any charge', async () => {
    const [owner, copy] = await Promise.all([quote(), quote()])
    // The copy's stored transaction made byte-identical to the owner's, as if the aggregator had built the same one twice.
    const stored = (await ctx.store.jobs.get<Json>(copy.body.job_id))!
    await ctx.store.jobs.transition(copy.body.job_id, ['QUOTED'], 'QUOTED', {
      ...stored.job,
      unsigned_transaction_b64: owner.body.unsigned_transaction_b64,
    })
    const signedTx = await sign(owner.body.unsigned_transaction_b64)
    const [feesBefore, sendsBefore] = [await fees(), sends()]

    const answers = await Promise.all([owner.body.job_id, copy.body.job_id].map((job_id) => execute(job_id, signedTx)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422])
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Json[]
    const confirmed = bodies.find((body) => body.status === 'CONFIRMED')
    const refused = bodies.find((body) => body.status !== 'CONFIRMED')
    expect(refused).toMatchObject({
      status: 'REJECTED_VALIDATION',
      rejection: { code: 'TRANSACTION_OF_ANOTHER_JOB', refundable: true },
    })
    expect(refused.rejection.reason).toContain(confirmed.job_id)
    expect(sends() - sendsBefore).toBe(1)
    expect((await fees())[0]).toBe(feesBefore[0]! + 150_000n)

    // Executed again afterwards: still refused (not a failed simulation of a transaction that landed), still free.
    const again = await execute(refused.job_id, signedTx)
    expect(again.status).toBe(422)
    expect(await again.json()).toMatchObject({ rejection: { code: 'TRANSACTION_OF_ANOTHER_JOB' } })
    expect(await statusOf(refused.job_id)).toMatchObject({ status: 'QUOTED', fee: null, execution: null })
    expect(await statusOf(confirmed.job_id)).toMatchObject({
      status: 'CONFIRMED',
      fee: { status: 'settled', amount: '150000' },
    })
    expect((await fees())[0]).toBe(feesBefore[0]! + 150_000n)
  })

  test('generated job ids are 128 random bits, never a sequence', async () => {
    const ids = (await Promise.all([quote(), quote()])).map((answer) => answer.body.job_id)
    for (const id of ids) expect(id).toMatch(/^job_[0-9a-f]{32}$/)
    expect(ids[0]).not.toBe(ids[1])
  })
})

describe('job ownership: an existing job is quoted again only with proof of its wallet (SIGN-IN-WITH-X)', () => {
  const quoteUrl = () => `${running.url}/trade/quote`
  /** A SIGN-IN-WITH-X header signed by `signer`, built and signed by the official client helpers. */
  async function signIn(signer: KeyPairSigner, info: { uri?: string; issuedAt?: string } = {}): Promise<string> {
    const uri = info.uri ?? quoteUrl()
    const payload = await createSIWxPayload(
      {
        domain: new URL(uri).host,
        uri,
        statement: 'Sign in to quote again a trade job of this wallet',
        version: '1',
        nonce: crypto.randomUUID().replaceAll('-', ''),
        issuedAt: info.issuedAt ?? new Date().toISOString(),
        resources: [uri],
        chainId: offers.solana.network,
        type: 'ed25519',
      },
      // A @solana/kit KeyPairSigner is the extension's SolanaKitSigner (its types are looser than kit's).
      signer as never,
      uri,
    )
    return encodeSIWxHeader(payload)
  }
  const ownedJob = async () => {
    const job_id = `owned-${crypto.randomUUID().slice(0, 8)}`
    const owned = await quote({ job_id })
    expect(owned.status).toBe(200)
    return { job_id, owned }
  }
  /** The job as stored, its transaction included: what a refused re-quote must leave exactly as it was. */
  const storedJob = async (jobId: string) => (await ctx.store.jobs.get<Json>(jobId))!.job
  /** Another token and slippage: what an attacker would swap the victim's job to. */
  const hijacked = { output_mint: mintOf('usdc-stablecoin'), slippage_bps: 1_000 }
  const expectRefused = (refused: { status: number; body: Json }, job_id: string, reason: string) => {
    expect(refused.status).toBe(403)
    conforms('POST', '/trade/quote', 403, refused.body)
    expect(refused.body).toMatchObject({ error: true, code: 'JOB_OWNER_PROOF_REQUIRED', job_id })
    expect(refused.body.message).toContain('SIGN-IN-WITH-X')
    expect(refused.body.message).toContain('without a job_id')
    expect(refused.body.reason).toContain(reason)
    expect(JSON.stringify(refused.body)).not.toContain('    at ')
  }

  test("the attack: re-quoting a victim's job under the victim's key without proof is 403, the job is unchanged, and the victim's signed transaction still executes", async () => {
    const { job_id, owned } = await ownedJob()
    const [viewBefore, storedBefore] = [await statusOf(job_id), await storedJob(job_id)]

    const attack = await quote({ job_id, ...hijacked })
    expectRefused(attack, job_id, 'no SIGN-IN-WITH-X header')
    // Nothing of the job changed: not its status, request, quote, updated_at, last_attempt, nor transaction.
    expect(await statusOf(job_id)).toEqual(viewBefore)
    expect(await storedJob(job_id)).toEqual(storedBefore)
    expect(viewBefore).toMatchObject({
      status: 'QUOTED',
      request: { output_mint: mintOf('blue-chip'), slippage_bps: 50 },
    })

    const executed = await post(
      '/trade/execute',
      { job_id, signed_transaction_b64: await sign(owned.body.unsigned_transaction_b64) },
      payingFetch,
    )
    expect(executed.status).toBe(200)
    expect(await executed.json()).toMatchObject({ job_id, status: 'CONFIRMED' })
  })

  test("another wallet's own sign-in, or the owner's for another route or issued too long ago, proves nothing: 403 and the job is unchanged", async () => {
    const { job_id } = await ownedJob()
    const attacker = await generateKeyPairSigner()
    const storedBefore = await storedJob(job_id)

    // Signed by the attacker, naming the victim's key.
    expectRefused(
      await quote({ job_id, ...hijacked }, { 'sign-in-with-x': await signIn(attacker) }),
      job_id,
      `signed by ${attacker.address}`,
    )
    // Signed by the attacker, naming the attacker's key: the job is not theirs either (it was a 409 before).
    expectRefused(
      await quote({ job_id, user_public_key: attacker.address }, { 'sign-in-with-x': await signIn(attacker) }),
      job_id,
      'another wallet',
    )
    // The owner's sign-in for a paid answer (another route), and one issued six minutes ago.
    expectRefused(
      await quote(
        { job_id, ...hijacked },
        { 'sign-in-with-x': await signIn(buyer, { uri: `${running.url}/scan/quick` }) },
      ),
      job_id,
      'not /trade/quote',
    )
    const stale = new Date(Date.now() - 6 * 60_000).toISOString()
    expectRefused(
      await quote({ job_id, ...hijacked }, { 'sign-in-with-x': await signIn(buyer, { issuedAt: stale }) }),
      job_id,
      'too old',
    )
    expect(await storedJob(job_id)).toEqual(storedBefore)
  })

  test('the owner signed in with the job wallet quotes it again: 200 and the job takes the new terms', async () => {
    const { job_id, owned } = await ownedJob()
    const requoted = await quote({ job_id, ...hijacked }, { 'sign-in-with-x': await signIn(buyer) })
    expect(requoted.status).toBe(200)
    conforms('POST', '/trade/quote', 200, requoted.body)
    expect(requoted.body).toMatchObject({ job_id, status: 'QUOTED', quote: hijacked })
    expect(requoted.body.unsigned_transaction_b64).not.toBe(owned.body.unsigned_transaction_b64)
    const job = await statusOf(job_id)
    expect(job).toMatchObject({ status: 'QUOTED', request: { ...hijacked, user_public_key: buyer.address } })
    expect(job.history.map((entry: Json) => entry.status)).toEqual(['QUOTED', 'QUOTED'])
    // The SDK signs in with its wallet when it quotes under a job_id.
    const sdk = new Solsentry({ url: running.url, wallet: { solana: buyer } })
    const again = await sdk.quote({
      job_id,
      input_mint: SOL,
      output_mint: mintOf('blue-chip'),
      amount_in: '100000000',
      user_public_key: buyer.address,
    })
    expect(again).toMatchObject({ job_id, status: 'QUOTED', quote: { output_mint: mintOf('blue-chip') } })
  })

  test('a malformed SIGN-IN-WITH-X is a 403 JSON answer (never a 400 or 500); a new job_id needs no proof', async () => {
    const { job_id } = await ownedJob()
    const storedBefore = await storedJob(job_id)
    const forged = JSON.parse(Buffer.from(await signIn(buyer), 'base64').toString())
    forged.signature = forged.signature.replace(/^./, (first: string) => (first === '1' ? '2' : '1'))
    const garbage = [
      'not a sign-in!',
      Buffer.from('{"hello": "world"}').toString('base64'),
      Buffer.from(JSON.stringify(forged)).toString('base64'),
      Buffer.from(JSON.stringify({ ...forged, chainId: 'eip155:1', uri: 'not a url' })).toString('base64'),
    ]
    for (const header of garbage)
      expectRefused(await quote({ job_id }, { 'sign-in-with-x': header }), job_id, 'proves no wallet')
    expect(await storedJob(job_id)).toEqual(storedBefore)

    // A first quote under an unused id: the header is not even read.
    const fresh = `fresh-${crypto.randomUUID().slice(0, 8)}`
    expect((await quote({ job_id: fresh }, { 'sign-in-with-x': garbage[0]! })).status).toBe(200)
  })

  test('a quote that found no job cannot overwrite one created while it ran (the store checks the owner again)', async () => {
    const { job_id } = await ownedJob()
    const storedBefore = await storedJob(job_id)
    const jobs = new Jobs(ctx.store.jobs)
    const outcome = {
      status: 'QUOTED' as const,
      quote: null,
      risk_gate: null,
      unsigned_transaction_b64: 'AQID',
      rejection: null,
      note: 'PASS',
    }
    // Written as a new job (no owner proven) under the victim's key, or proven by another wallet.
    expect(await jobs.quoted(job_id, storedBefore.request, outcome, null)).toBeUndefined()
    expect(await jobs.quoted(job_id, storedBefore.request, outcome, `Other${'1'.repeat(39)}`)).toBeUndefined()
    expect(await storedJob(job_id)).toEqual(storedBefore)
    expect(await jobs.quoted(job_id, storedBefore.request, outcome, buyer.address)).toMatchObject({ job_id })
  })
})

describe('the fee as it stands on chain', () => {
  test('a fee whose settlement answer is lost reads pending, then settled with its transaction once the chain shows it — charged once', async () => {
    // A service that waits 1 s for settlements, and a facilitator that takes 2.5 s.
    const slow = createContext(
      loadConfig({
        ...sandbox.serviceSettings,
        PORT: '0',
        DATA_DIR: ':memory:',
        LOG_LEVEL: 'silent',
        FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
      }),
      { logger: pino({ level: 'silent' }) },
    )
    const gate = slow.payments
    await gate.start()
    const server = startServer(createApp(slow), slow)
    try {
      const at = (
        path: string,
        body?: unknown,
        fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
      ) =>
        body === undefined
          ? fetch(`${server.url}${path}`)
          : fetcher(`${server.url}${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            })
      const quoted = (await (
        await at('/trade/quote', {
          input_mint: SOL,
          output_mint: mintOf('blue-chip'),
          amount_in: '100000000',
          user_public_key: buyer.address,
        })
      ).json()) as Json
      const before = (await fees())[0]!
      sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
      const executed = await at(
        '/trade/execute',
        { job_id: quoted.job_id, signed_transaction_b64: await sign(quoted.unsigned_transaction_b64) },
        payingFetch,
      )
      // The trade confirmed: that is the answer; the receipt is not known yet.
      expect(executed.status).toBe(200)
      expect(executed.headers.get('payment-response')).toBeNull()
      const pending = (await (await at(`/trade/status/${quoted.job_id}`)).json()) as Json
      conforms('GET', '/trade/status/{job_id}', 200, pending)
      expect(pending).toMatchObject({ status: 'CONFIRMED', fee: { status: 'pending', amount: '150000' } })

      await eventually(
        'the fee on chain',
        async () => (await fees())[0],
        (balance) => balance !== before,
        { timeoutMs: 10_000 },
      )
      expect((await fees())[0]).toBe(before + 150_000n)
      expect(await gate.resolvePending()).toMatchObject({ credited: 1 })
      const settled = (await (await at(`/trade/status/${quoted.job_id}`)).json()) as Json
      expect(settled).toMatchObject({
        status: 'CONFIRMED',
        fee: {
          status: 'settled',
          amount: '150000',
          network: 'eip155:31337',
          transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
      })
      // The credit was the trade's own fee: consumed, so the same payment buys nothing more.
      expect(await gate.resolvePending()).toMatchObject({ credited: 0, pending: 0 })
      expect((await fees())[0]).toBe(before + 150_000n)
    } finally {
      await server.shutdown('test over')
    }
  })
})

describeWithRedis('two instances sharing a Redis store (jobs and payment ledger)', () => {
  test('a job quoted on one and executed on both at once: one broadcast, one fee', async () => {
    const redis = await startRedis()
    const instances = [0, 1].map(() => {
      const shared = createContext(
        loadConfig({
          ...sandbox.serviceSettings,
          PORT: '0',
          DATA_DIR: ':memory:',
          LOG_LEVEL: 'silent',
          REDIS_URL: redis.url,
        }),
        { logger: pino({ level: 'silent' }) },
      )
      return { ctx: shared, server: startServer(createApp(shared), shared) }
    })
    try {
      await Promise.all(instances.map(({ ctx: shared }) => shared.payments.start()))
      const [a, b] = instances.map(({ server }) => server.url)
      const request = {
        input_mint: SOL,
        output_mint: mintOf('blue-chip'),
        amount_in: '100000000',
        user_public_key: buyer.address,
      }
      const quoted = (await (
        await fetch(`${a}/trade/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        })
      ).json()) as Json
      expect(quoted.status).toBe('QUOTED')
      const signedTx = await sign(quoted.unsigned_transaction_b64)
      const [feesBefore, sendsBefore] = [await fees(), sends()]
      const answers = await Promise.all(
        [a!, b!].map((url) =>
          payingFetch(`${url}/trade/execute`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ job_id: quoted.job_id, signed_transaction_b64: signedTx }),
          }),
        ),
      )
      expect(answers.map((answer) => answer.status)).toEqual([200, 200])
      expect(sends() - sendsBefore).toBe(1)
      expect((await fees())[0]).toBe(feesBefore[0]! + 150_000n)
      // Either instance answers the job.
      expect((await (await fetch(`${b}/trade/status/${quoted.job_id}`)).json()) as Json).toMatchObject({
        status: 'CONFIRMED',
      })
    } finally {
      for (const { server } of instances) await server.shutdown('test over')
      await redis.stop()
    }
  })
})

describe('jobs over time', () => {
  test('a quote past its blockhash reads EXPIRED, and executing it answers EXPIRED without asking for payment', async () => {
    const quoted = await quote()
    const stored = (await ctx.store.jobs.get<Json>(quoted.body.job_id))!
    const past = {
      ...stored.job,
      quote: { ...stored.job.quote, expires_at: new Date(Date.now() - 60_000).toISOString() },
    }
    expect(await ctx.store.jobs.transition(quoted.body.job_id, ['QUOTED'], 'QUOTED', past)).toBe(true)
    expect(await statusOf(quoted.body.job_id)).toMatchObject({
      status: 'EXPIRED',
      rejection: { code: 'QUOTE_EXPIRED', refundable: true },
    })
    const executed = await post('/trade/execute', {
      job_id: quoted.body.job_id,
      signed_transaction_b64: await sign(quoted.body.unsigned_transaction_b64),
    })
    expect(executed.status).toBe(422)
    expect(await executed.json()).toMatchObject({ status: 'EXPIRED', rejection: { code: 'QUOTE_EXPIRED' } })
  })

  test('a job left EXECUTING by a process that stopped is resolved from the chain when read', async () => {
    const quoted = await quote()
    const done = (await (
      await post(
        '/trade/execute',
        { job_id: quoted.body.job_id, signed_transaction_b64: await sign(quoted.body.unsigned_transaction_b64) },
        payingFetch,
      )
    ).json()) as Json
    // As if the service died after sending: the job still EXECUTING, last touched minutes ago.
    const stored = (await ctx.store.jobs.get<Json>(quoted.body.job_id))!
    const orphan = {
      ...stored.job,
      status: 'EXECUTING',
      updated_at: new Date(Date.now() - 300_000).toISOString(),
      execution: { tx_signature: done.execution.tx_signature, slot: null },
    }
    expect(await ctx.store.jobs.transition(quoted.body.job_id, ['CONFIRMED'], 'EXECUTING', orphan)).toBe(true)
    // Its fee is what the ledger says of its payment: here it had settled, once.
    expect(await statusOf(quoted.body.job_id)).toMatchObject({
      status: 'CONFIRMED',
      execution: done.execution,
      fee: { status: 'settled', amount: '150000' },
    })
  })
})

test('npm run trade (the demo client) buys a token as the demo buyer: quote, local signature, paid execute', async () => {
  const {
    stdout: out,
    stderr: err,
    code,
  } = await runSandboxScript('trade.ts', [mintOf('sniped-launch'), '--rail', 'base'], {
    service: running.url,
    worldFile: sandbox.worldFilePath,
  })
  expect(err).toContain('quote: HTTP 200, QUOTED')
  expect(err).toContain('execute: HTTP 200')
  expect(code).toBe(0)
  expect(out).toContain('"status": "CONFIRMED"')
})

describe('free helper routes', () => {
  test('/trade/pairs lists the verified tokens; an unreachable token list is a 503 that says so', async () => {
    const pairs = (await (await fetch(`${running.url}/trade/pairs`)).json()) as Json
    conforms('GET', '/trade/pairs', 200, pairs)
    expect(pairs).toMatchObject({ schema_version: '2.0', count: pairs.pairs.length })
    expect(pairs.pairs).toContainEqual({ mint: SOL, symbol: 'SOL', name: 'Wrapped SOL', decimals: 9 })
    expect(pairs.pairs).toContainEqual(
      expect.objectContaining({ mint: mintOf('usdc-stablecoin'), symbol: 'USDC', decimals: 6 }),
    )
    sandbox.faults.set('jupiter', '/tokens/v2/tag', { kind: 'down' })
    // The list is cached: a fresh context sees the fault.
    const bare = createContext(config, { logger: pino({ level: 'silent' }), payments: WAIVED_PAYMENTS })
    const down = await createApp(bare).handle(new Request('http://localhost/trade/pairs'))
    expect(down.status).toBe(503)
    expect(down.headers.get('retry-after')).toBe('5')
    expect(await down.json()).toMatchObject({ error: true, code: 'UPSTREAM_UNAVAILABLE' })
  })

  test('/trade/currencies: USDC on both rails from the payment settings, and the price of every paid route', async () => {
    const currencies = (await (await fetch(`${running.url}/trade/currencies`)).json()) as Json
    conforms('GET', '/trade/currencies', 200, currencies)
    expect(currencies.currencies).toEqual([
      {
        currency: 'USDC',
        decimals: 6,
        chain: 'base',
        network: 'eip155:31337',
        asset: offers.base.asset,
        pay_to: offers.base.pay_to,
        accepted: true,
      },
      {
        currency: 'USDC',
        decimals: 6,
        chain: 'solana',
        network: offers.solana.network,
        asset: offers.solana.asset,
        pay_to: offers.solana.pay_to,
        accepted: true,
      },
    ])
    expect(currencies.prices).toContainEqual({
      route: 'POST /trade/execute',
      skill: 'sol_trade',
      usd: '0.15',
      amount: '150000',
    })
  })
})
