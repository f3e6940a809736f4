import {
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  signTransaction,
  type KeyPairSigner,
} from '@solana/kit'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readTokenAccount } from '../chain/token-balances.ts'
import { encodeBase58 } from '../../src/onchain/base58.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import { VENUES } from '../world/venues.ts'
import { World } from '../world/world.ts'
import { formatFraction, type QuoteResponse } from './quote.ts'
import { startAggregatorServer, type RunningAggregatorServer } from './server.ts'
import type { SwapResponse } from './swap-transaction.ts'
import type { TokenInfo } from './token-list.ts'
import { assembleSwap } from '../../plugins/trade/build.ts'
import type { JupiterBuild } from '../../src/sources/jupiter.ts'

const SOL = 1_000_000_000n
const TST = 1_000_000n
const USDC = 1_000_000n

/**
 * A world with USDC (verified, stablecoin, issuer-held authorities), a verified token TST paired with
 * wSOL on Raydium, a SOL/USDC pool on Whirlpool, a PumpSwap token paired with wSOL, and a token with
 * no pool at all.
 */
async function setup() {
  const world = await World.create({ genesisUnixS: 1_700_000_000, venues: VENUES })
  const dev = await world.wallet('dev', 1_000)
  const usdc = await world.createMint(
    {
      key: 'usdc',
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      mintAuthority: dev,
      freezeAuthority: dev.address,
      tags: ['community', 'strict', 'verified'],
    },
    dev,
  )
  world.usdcMint = usdc
  const tst = await world.createMint(
    { key: 'tst', name: 'Test Token', symbol: 'TST', decimals: 6, mintAuthority: dev, tags: ['verified'] },
    dev,
  )
  const pmp = await world.createMint(
    { key: 'pmp', name: 'Pumped', symbol: 'PMP', decimals: 6, mintAuthority: dev },
    dev,
  )
  const lonely = await world.createMint(
    { key: 'lonely', name: 'Lonely', symbol: 'LNY', decimals: 6, mintAuthority: dev },
    dev,
  )
  await world.mintTo(usdc, dev.address, 1_000_000n * USDC, dev)
  await world.mintTo(tst, dev.address, 1_000_000n * TST, dev)
  await world.mintTo(pmp, dev.address, 1_000_000n * TST, dev)
  // Revoked, as a launch that renounces it: the token list reports the mint authority disabled.
  await world.setMintAuthority(pmp, 'mint', dev, null)
  const tstPool = await world.createPool({
    key: 'tst-sol',
    kind: 'raydium-amm-v4',
    baseMint: tst,
    quoteMint: NATIVE_MINT,
    baseAmount: 500_000n * TST,
    quoteAmount: 50n * SOL,
    provider: dev,
    feeBps: 25,
    lp: 'burn',
  })
  const usdcPool = await world.createPool({
    key: 'sol-usdc',
    kind: 'orca-whirlpool',
    baseMint: NATIVE_MINT,
    quoteMint: usdc,
    baseAmount: 100n * SOL,
    quoteAmount: 15_000n * USDC,
    provider: dev,
    feeBps: 5,
  })
  const pmpPool = await world.createPool({
    key: 'pmp-sol',
    kind: 'pumpswap',
    baseMint: pmp,
    quoteMint: NATIVE_MINT,
    baseAmount: 100_000n * TST,
    quoteAmount: 10n * SOL,
    provider: dev,
    feeBps: 25,
    lp: 'burn',
  })
  return { world, dev, usdc, tst, pmp, lonely, tstPool, usdcPool, pmpPool }
}

type Setup = Awaited<ReturnType<typeof setup>>

async function getJson<T>(server: RunningAggregatorServer, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`)
  expect(response.headers.get('content-type')).toBe('application/json')
  return { status: response.status, body: (await response.json()) as T }
}

async function postJson<T>(
  server: RunningAggregatorServer,
  path: string,
  body: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as T }
}

function quotePath(params: Record<string, string | number | boolean>): string {
  return `/swap/v1/quote?${new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]))}`
}

async function quote(
  server: RunningAggregatorServer,
  params: Record<string, string | number | boolean>,
): Promise<QuoteResponse> {
  const { status, body } = await getJson<QuoteResponse>(server, quotePath(params))
  expect(status).toBe(200)
  return body
}

/** Signs the returned transaction as the user (after checking who already signed) and sends it. */
async function signAndSend(world: World, user: KeyPairSigner, swap: SwapResponse) {
  const unsigned = getTransactionDecoder().decode(Buffer.from(swap.swapTransaction, 'base64'))
  expect(unsigned.signatures[user.address]).toBeNull()
  expect(unsigned.signatures[world.operator.address]).not.toBeNull()
  const signed = await signTransaction([user.keyPair], unsigned as Parameters<typeof signTransaction>[1])
  const outcome = world.chain.send(new Uint8Array(getTransactionEncoder().encode(signed)))
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.err)} ${outcome.logs.join('\n')}`)
  expect(outcome.stored.meta.err).toBeNull()
  return outcome.stored
}

async function tokenBalance(world: World, mint: string, owner: string): Promise<bigint> {
  const account = world.chain.getAccount(await world.ata(mint, owner))
  return account ? readTokenAccount(account.data).amount : 0n
}

function withServer(run: (context: Setup & { server: RunningAggregatorServer }) => Promise<void>) {
  return async () => {
    const context = await setup()
    const server = startAggregatorServer(context.world, { hostname: '127.0.0.1', port: 0 })
    try {
      await run({ ...context, server })
    } finally {
      await server.stop()
    }
  }
}

describe('aggregator stand-in: quote → swap → sign → send', () => {
  test(
    'a SOL → token quote in Jupiter shape becomes a transaction that pays exactly outAmount and registers as a trade',
    withServer(async ({ world, server, tst, tstPool }) => {
      const user = await world.wallet('buyer', 5)
      const expected = world.pools.quote(tstPool, NATIVE_MINT, SOL)
      const body = await quote(server, {
        inputMint: NATIVE_MINT,
        outputMint: tst,
        amount: SOL.toString(),
        slippageBps: 100,
      })
      expect(body).toMatchObject({
        inputMint: NATIVE_MINT,
        inAmount: SOL.toString(),
        outputMint: tst,
        outAmount: expected.amountOut.toString(),
        otherAmountThreshold: ((expected.amountOut * 9_900n) / 10_000n).toString(),
        swapMode: 'ExactIn',
        slippageBps: 100,
        platformFee: null,
        priceImpactPct: formatFraction(expected.priceImpact),
        contextSlot: Number(world.chain.slot),
        routePlan: [
          {
            swapInfo: {
              ammKey: tstPool.address,
              label: 'Raydium',
              inputMint: NATIVE_MINT,
              outputMint: tst,
              inAmount: SOL.toString(),
              outAmount: expected.amountOut.toString(),
              feeAmount: expected.feeAmount.toString(),
              feeMint: NATIVE_MINT,
            },
            percent: 100,
          },
        ],
      })
      // A fraction: 1 SOL into a 50 SOL pool moves the price about 2%, not 0.02%.
      expect(Number(body.priceImpactPct)).toBeGreaterThan(0.01)
      expect(Number(body.priceImpactPct)).toBeLessThan(0.05)
      expect(typeof body.timeTaken).toBe('number')

      const swap = await postJson<SwapResponse>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
        wrapAndUnwrapSol: true,
        dynamicComputeUnitLimit: true,
        prioritizationFeeLamports: 'auto',
      })
      expect(swap.status).toBe(200)
      expect(swap.body).toMatchObject({
        lastValidBlockHeight: Number(world.chain.latestBlockhash().lastValidBlockHeight),
        prioritizationFeeLamports: 0,
        dynamicSlippageReport: null,
        simulationError: null,
      })
      // No compute-budget instruction: the runtime's default of 200k units per instruction applies.
      const message = getCompiledTransactionMessageDecoder().decode(
        getTransactionDecoder().decode(Buffer.from(swap.body.swapTransaction, 'base64')).messageBytes,
      )
      const instructions = 'instructions' in message ? message.instructions.length : 0
      expect(instructions).toBeGreaterThan(0)
      expect(swap.body.computeUnitLimit).toBe(Math.min(1_400_000, instructions * 200_000))

      const stored = await signAndSend(world, user, swap.body)
      expect(await tokenBalance(world, tst, user.address)).toBe(BigInt(body.outAmount))

      // Jupiter's trackingAccount rides along read-only: one quote swapped for two tracking keys builds two transactions.
      const again = await quote(server, {
        inputMint: NATIVE_MINT,
        outputMint: tst,
        amount: SOL.toString(),
        slippageBps: 100,
      })
      const keys = [1, 2].map((seed) => encodeBase58(new Uint8Array(32).fill(seed)))
      const built = await Promise.all(
        keys.map(async (trackingAccount) => {
          const swapped = await postJson<SwapResponse>(server, '/swap/v1/swap', {
            quoteResponse: again,
            userPublicKey: user.address,
            trackingAccount,
          })
          return getTransactionDecoder().decode(Buffer.from(swapped.body.swapTransaction, 'base64')).messageBytes
        }),
      )
      const accounts = built.map(
        (bytes) => getCompiledTransactionMessageDecoder().decode(bytes).staticAccounts as string[],
      )
      expect(accounts[0]).toContain(keys[0]!)
      expect(accounts[0]).not.toContain(keys[1]!)
      expect(accounts[1]).toContain(keys[1]!)
      expect(Buffer.from(built[0]!).equals(Buffer.from(built[1]!))).toBe(false)
      expect(world.pools.tradesOf(tstPool.address).at(-1)).toMatchObject({
        signature: stored.signature,
        side: 'buy',
        wallet: user.address,
        baseAmount: BigInt(body.outAmount),
        quoteAmount: SOL,
      })
    }),
  )

  test(
    'a token → SOL sale unwraps: the user ends with outAmount lamports more, less the transaction fee',
    withServer(async ({ world, server, dev, tst, tstPool }) => {
      const user = await world.wallet('seller', 1)
      await world.transfer(tst, dev, user.address, 10_000n * TST)
      const body = await quote(server, { inputMint: tst, outputMint: NATIVE_MINT, amount: (10_000n * TST).toString() })
      expect(body.slippageBps).toBe(50)
      expect(body.routePlan[0]!.swapInfo.feeMint).toBe(tst)
      const before = world.chain.getBalance(user.address)
      const swap = await postJson<SwapResponse>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
      })
      expect(swap.status).toBe(200)
      const stored = await signAndSend(world, user, swap.body)
      expect(world.chain.getBalance(user.address) - before).toBe(BigInt(body.outAmount) - stored.meta.fee)
      expect(await tokenBalance(world, tst, user.address)).toBe(0n)
      expect(world.pools.tradesOf(tstPool.address).at(-1)).toMatchObject({
        side: 'sell',
        wallet: user.address,
        baseAmount: 10_000n * TST,
      })
    }),
  )

  test(
    'with no direct pool, a token → USDC route runs two legs through wSOL in one transaction',
    withServer(async ({ world, server, dev, tst, usdc, tstPool, usdcPool }) => {
      const user = await world.wallet('router', 1)
      await world.transfer(tst, dev, user.address, 5_000n * TST)
      const direct = await getJson(
        server,
        quotePath({ inputMint: tst, outputMint: usdc, amount: (5_000n * TST).toString(), onlyDirectRoutes: true }),
      )
      expect(direct).toEqual({
        status: 400,
        body: { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
      })

      const body = await quote(server, { inputMint: tst, outputMint: usdc, amount: (5_000n * TST).toString() })
      const [first, second] = body.routePlan
      expect(body.routePlan).toHaveLength(2)
      expect(first!.swapInfo).toMatchObject({
        ammKey: tstPool.address,
        label: 'Raydium',
        inputMint: tst,
        outputMint: NATIVE_MINT,
      })
      expect(second!.swapInfo).toMatchObject({
        ammKey: usdcPool.address,
        label: 'Whirlpool',
        inputMint: NATIVE_MINT,
        outputMint: usdc,
      })
      expect(second!.swapInfo.inAmount).toBe(first!.swapInfo.outAmount)
      expect(body.outAmount).toBe(second!.swapInfo.outAmount)

      const swap = await postJson<SwapResponse>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
      })
      expect(swap.status).toBe(200)
      const solBefore = world.chain.getBalance(user.address)
      const stored = await signAndSend(world, user, swap.body)
      expect(await tokenBalance(world, usdc, user.address)).toBe(BigInt(body.outAmount))
      expect(await tokenBalance(world, tst, user.address)).toBe(0n)
      // The SOL of the first leg is spent by the second: only the fee and the new USDC account's rent leave the wallet.
      const usdcAccountRent = world.chain.svm.minimumBalanceForRentExemption(165n)
      expect(solBefore - world.chain.getBalance(user.address)).toBe(stored.meta.fee + usdcAccountRent)
      expect(world.pools.tradesOf(tstPool.address).at(-1)).toMatchObject({
        signature: stored.signature,
        side: 'sell',
        wallet: user.address,
      })
      // Not the wallet: the pool book attributes a trade by net token-balance changes, and in a two-leg
      // transaction the first pool's wSOL vault moves by exactly what the second pool's vault receives.
      expect(world.pools.tradesOf(usdcPool.address).at(-1)).toMatchObject({
        signature: stored.signature,
        side: 'sell',
        baseAmount: BigInt(first!.swapInfo.outAmount),
        quoteAmount: BigInt(body.outAmount),
      })
    }),
  )

  test(
    'a PumpSwap pool is labelled as Jupiter labels it',
    withServer(async ({ server, pmp, pmpPool }) => {
      const body = await quote(server, { inputMint: NATIVE_MINT, outputMint: pmp, amount: SOL.toString() })
      expect(body.routePlan[0]!.swapInfo).toMatchObject({ ammKey: pmpPool.address, label: 'Pump.fun Amm' })
    }),
  )
})

describe('aggregator stand-in: the price moves between quote and swap', () => {
  test(
    'beyond the slippage, the swap is refused and nothing is built',
    withServer(async ({ world, server, tst, tstPool }) => {
      const user = await world.wallet('late-buyer', 5)
      const body = await quote(server, {
        inputMint: NATIVE_MINT,
        outputMint: tst,
        amount: SOL.toString(),
        slippageBps: 10,
      })
      await world.swap(await world.wallet('whale', 20), tstPool, NATIVE_MINT, 10n * SOL)
      const fresh = world.pools.quote(tstPool, NATIVE_MINT, SOL).amountOut
      const swap = await postJson<{ error: string; errorCode: string }>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
      })
      expect(swap.status).toBe(400)
      expect(swap.body.errorCode).toBe('SLIPPAGE_TOLERANCE_EXCEEDED')
      expect(swap.body.error).toContain(`now pays ${fresh}`)
      expect(swap.body.error).toContain(body.otherAmountThreshold)
    }),
  )

  test(
    'within the slippage, the user gets the fresh (smaller) amount',
    withServer(async ({ world, server, tst, tstPool }) => {
      const user = await world.wallet('patient-buyer', 5)
      const body = await quote(server, {
        inputMint: NATIVE_MINT,
        outputMint: tst,
        amount: SOL.toString(),
        slippageBps: 1_000,
      })
      await world.swap(await world.wallet('small-fish', 2), tstPool, NATIVE_MINT, SOL / 2n)
      const fresh = world.pools.quote(tstPool, NATIVE_MINT, SOL).amountOut
      expect(fresh).toBeLessThan(BigInt(body.outAmount))
      expect(fresh).toBeGreaterThanOrEqual(BigInt(body.otherAmountThreshold))
      const swap = await postJson<SwapResponse>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
      })
      expect(swap.status).toBe(200)
      await signAndSend(world, user, swap.body)
      expect(await tokenBalance(world, tst, user.address)).toBe(fresh)
    }),
  )

  test(
    "in the user's favour, the pool still pays only the quoted outAmount",
    withServer(async ({ world, server, dev, tst, tstPool }) => {
      const user = await world.wallet('lucky-buyer', 5)
      const body = await quote(server, { inputMint: NATIVE_MINT, outputMint: tst, amount: SOL.toString() })
      await world.swap(dev, tstPool, tst, 50_000n * TST)
      expect(world.pools.quote(tstPool, NATIVE_MINT, SOL).amountOut).toBeGreaterThan(BigInt(body.outAmount))
      const swap = await postJson<SwapResponse>(server, '/swap/v1/swap', {
        quoteResponse: body,
        userPublicKey: user.address,
      })
      await signAndSend(world, user, swap.body)
      expect(await tokenBalance(world, tst, user.address)).toBe(BigInt(body.outAmount))
    }),
  )
})

describe('aggregator stand-in: refusals as Jupiter words them', () => {
  let context: Setup
  let server: RunningAggregatorServer
  let validQuote: QuoteResponse
  beforeAll(async () => {
    context = await setup()
    server = startAggregatorServer(context.world, { hostname: '127.0.0.1', port: 0 })
    validQuote = await quote(server, { inputMint: NATIVE_MINT, outputMint: context.tst, amount: SOL.toString() })
  })
  afterAll(() => server.stop())

  const QUOTE_CASES: [string, (c: Setup) => Record<string, string>, number, unknown | ((c: Setup) => unknown)][] = [
    [
      'same input and output mint',
      (c) => ({ inputMint: c.tst, outputMint: c.tst, amount: '1000' }),
      400,
      { error: 'Input and output mints are not allowed to be equal', errorCode: 'CIRCULAR_ARBITRAGE_IS_DISABLED' },
    ],
    [
      'no route between two tradable tokens (direct only)',
      (c) => ({ inputMint: c.tst, outputMint: c.usdc, amount: '1000', onlyDirectRoutes: 'true' }),
      400,
      { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
    ],
    [
      'a zero amount',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '0' }),
      400,
      { error: 'Could not find any route', errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
    ],
    [
      'a token with no pool',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.lonely, amount: '1000' }),
      400,
      (c: Setup) => ({ error: `The token ${c.lonely} is not tradable`, errorCode: 'TOKEN_NOT_TRADABLE' }),
    ],
    [
      'a mint the world does not know',
      () => ({ inputMint: NATIVE_MINT, outputMint: '11111111111111111111111111111112', amount: '1000' }),
      400,
      { error: 'The token 11111111111111111111111111111112 is not tradable', errorCode: 'TOKEN_NOT_TRADABLE' },
    ],
    [
      'ExactOut',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '1000', swapMode: 'ExactOut' }),
      400,
      {
        error: 'swapMode ExactOut is not supported by the sandbox aggregator: quote with swapMode=ExactIn',
        errorCode: 'NOT_SUPPORTED',
      },
    ],
    [
      'an unknown swapMode',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '1000', swapMode: 'Sideways' }),
      400,
      {
        error:
          'Query parameter swapMode cannot be parsed: unknown variant `Sideways`, expected `ExactIn` or `ExactOut`',
      },
    ],
    [
      'a decimal amount',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '1.5' }),
      400,
      { error: 'Query parameter amount cannot be parsed: ParseIntError { kind: InvalidDigit }' },
    ],
    [
      'an amount above u64',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '18446744073709551616' }),
      400,
      { error: 'Query parameter amount cannot be parsed: ParseIntError { kind: PosOverflow }' },
    ],
    [
      'an empty amount',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '' }),
      400,
      { error: 'Query parameter amount cannot be parsed: ParseIntError { kind: Empty }' },
    ],
    [
      'no amount',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst }),
      400,
      { error: 'Query parameter amount is required' },
    ],
    [
      'no inputMint',
      (c) => ({ outputMint: c.tst, amount: '1000' }),
      400,
      { error: 'Query parameter inputMint is required' },
    ],
    [
      'a short mint',
      (c) => ({ inputMint: 'So1111', outputMint: c.tst, amount: '1000' }),
      400,
      { error: 'Query parameter inputMint cannot be parsed: WrongSize' },
    ],
    [
      'a mint outside base58',
      (_c) => ({ inputMint: NATIVE_MINT, outputMint: '0OIl111111111111111111111111111111111111111', amount: '1000' }),
      400,
      { error: 'Query parameter outputMint cannot be parsed: Invalid' },
    ],
    [
      'slippage above 100%',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '1000', slippageBps: '10001' }),
      400,
      { error: 'slippageBps must be at most 10000 (100%)' },
    ],
    [
      'onlyDirectRoutes not a bool',
      (c) => ({ inputMint: NATIVE_MINT, outputMint: c.tst, amount: '1000', onlyDirectRoutes: 'yes' }),
      400,
      { error: 'Query parameter onlyDirectRoutes cannot be parsed: provided string was not `true` or `false`' },
    ],
  ]
  for (const [name, params, status, body] of QUOTE_CASES)
    test(`quote: ${name}`, async () => {
      const expected = typeof body === 'function' ? body(context) : body
      expect(await getJson(server, quotePath(params(context)))).toEqual({ status, body: expected })
    })

  const SWAP_CASES: [string, () => unknown, number, unknown | (() => unknown)][] = [
    [
      'an empty userPublicKey',
      () => ({ quoteResponse: validQuote, userPublicKey: '' }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: userPublicKey: Parse error: WrongSize' },
    ],
    [
      'a userPublicKey outside base58',
      () => ({ quoteResponse: validQuote, userPublicKey: '0OIl111111111111111111111111111111111111111' }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: userPublicKey: Parse error: Invalid' },
    ],
    [
      'a trackingAccount outside base58',
      () => ({ quoteResponse: validQuote, userPublicKey: context.dev.address, trackingAccount: 'not-a-key' }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: trackingAccount: Parse error: Invalid' },
    ],
    [
      'no quoteResponse',
      () => ({ userPublicKey: context.dev.address }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: missing field `quoteResponse`' },
    ],
    [
      'no userPublicKey',
      () => ({ quoteResponse: validQuote }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: missing field `userPublicKey`' },
    ],
    [
      'an empty quoteResponse',
      () => ({ quoteResponse: {}, userPublicKey: context.dev.address }),
      422,
      { error: 'Failed to deserialize the JSON body into the target type: quoteResponse: missing field `inputMint`' },
    ],
    [
      'a negative inAmount',
      () => ({ quoteResponse: { ...validQuote, inAmount: '-5' }, userPublicKey: context.dev.address }),
      422,
      {
        error:
          'Failed to deserialize the JSON body into the target type: quoteResponse.inAmount: invalid digit found in string',
      },
    ],
    [
      'the same input and output mint',
      () => ({
        quoteResponse: { ...validQuote, outputMint: validQuote.inputMint },
        userPublicKey: context.dev.address,
      }),
      400,
      { error: 'Input and output mints are not allowed to be equal', errorCode: 'CIRCULAR_ARBITRAGE_IS_DISABLED' },
    ],
    [
      'an ExactOut quote',
      () => ({ quoteResponse: { ...validQuote, swapMode: 'ExactOut' }, userPublicKey: context.dev.address }),
      400,
      {
        error: 'swapMode ExactOut is not supported by the sandbox aggregator: quote with swapMode=ExactIn',
        errorCode: 'NOT_SUPPORTED',
      },
    ],
    [
      'an unknown pool',
      () => ({
        quoteResponse: {
          ...validQuote,
          routePlan: [
            {
              ...validQuote.routePlan[0],
              swapInfo: { ...validQuote.routePlan[0]!.swapInfo, ammKey: context.dev.address },
            },
          ],
        },
        userPublicKey: context.dev.address,
      }),
      400,
      () => ({ error: `Market ${context.dev.address} not found`, errorCode: 'MARKET_NOT_FOUND' }),
    ],
    [
      'a route that does not lead to the output',
      () => ({
        quoteResponse: {
          ...validQuote,
          routePlan: [
            {
              ...validQuote.routePlan[0],
              swapInfo: {
                ...validQuote.routePlan[0]!.swapInfo,
                ammKey: context.usdcPool.address,
                outputMint: context.usdc,
              },
            },
          ],
        },
        userPublicKey: context.dev.address,
      }),
      400,
      () => ({ error: `Invalid route plan: it ends in ${context.usdc}, not ${context.tst}` }),
    ],
    [
      'an empty route plan',
      () => ({ quoteResponse: { ...validQuote, routePlan: [] }, userPublicKey: context.dev.address }),
      400,
      { error: 'Invalid route plan: it has no steps' },
    ],
  ]
  for (const [name, body, status, answer] of SWAP_CASES)
    test(`swap: ${name}`, async () => {
      const expected = typeof answer === 'function' ? answer() : answer
      expect(await postJson(server, '/swap/v1/swap', body())).toEqual({ status, body: expected })
    })

  test('swap: a body that is not JSON is a 400', async () => {
    const response = await fetch(`${server.url}/swap/v1/swap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"quoteResponse":',
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toStartWith('Failed to parse the request body as JSON')
  })

  test('unknown paths are 404 and wrong methods 405, as JSON', async () => {
    expect((await getJson(server, '/swap/v2/execute')).status).toBe(404)
    expect((await getJson(server, '/swap/v1/swap')).status).toBe(405)
  })
})

const UNTRADED = {
  priceChange: 0,
  volumeChange: null,
  buyVolume: 0,
  sellVolume: 0,
  numBuys: 0,
  numSells: 0,
  numTraders: 0,
}

describe('aggregator stand-in: tokens v2', () => {
  let context: Setup
  let server: RunningAggregatorServer
  beforeAll(async () => {
    context = await setup()
    server = startAggregatorServer(context.world, { hostname: '127.0.0.1', port: 0 })
  })
  afterAll(() => server.stop())

  test('search by mint answers the token in the v2 shape, supply and authorities read from the mint', async () => {
    // Two owners hold the supply, the developer and the pool: fewer than ten, so all of it.
    const HOLDER_COUNT = 2
    const TOP_HOLDERS_PCT = 100
    const { status, body } = await getJson<TokenInfo[]>(server, `/tokens/v2/search?query=${context.usdc}`)
    expect(status).toBe(200)
    expect(body).toEqual([
      {
        id: context.usdc,
        name: 'USD Coin',
        symbol: 'USDC',
        icon: null,
        decimals: 6,
        tokenProgram: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        totalSupply: 1_000_000,
        firstPool: {
          id: context.usdcPool.address,
          createdAt: new Date(context.usdcPool.createdAtUnixS * 1000).toISOString(),
        },
        holderCount: HOLDER_COUNT,
        // Live authorities: Jupiter leaves the *Disabled flags out rather than sending false.
        audit: { topHoldersPercentage: TOP_HOLDERS_PCT },
        isVerified: true,
        tags: ['community', 'strict', 'verified'],
        // USDC is the sandbox's dollar: 1, and flat in every window; its one pool holds $30,000.
        usdPrice: 1,
        liquidity: 30_000,
        mcap: 1_000_000,
        fdv: 1_000_000,
        // Untraded: no volume, and no earlier volume to compare with.
        stats5m: UNTRADED,
        stats1h: UNTRADED,
        stats6h: UNTRADED,
        stats24h: UNTRADED,
        updatedAt: new Date(Math.floor(context.world.chain.unixS) * 1000).toISOString(),
      },
    ])
  })

  test('search by symbol is case-insensitive and puts the exact symbol first', async () => {
    const { body } = await getJson<TokenInfo[]>(server, '/tokens/v2/search?query=usdc')
    expect(body.map((token) => token.symbol)).toEqual(['USDC'])
    const { body: partial } = await getJson<TokenInfo[]>(server, '/tokens/v2/search?query=t')
    // TST by symbol prefix first, then names containing "t" (Test Token is already listed).
    expect(partial[0]!.symbol).toBe('TST')
  })

  test('comma-separated mints answer each known mint in order and leave unknown ones out', async () => {
    const query = [context.pmp, '11111111111111111111111111111112', context.tst].join(',')
    const { body } = await getJson<TokenInfo[]>(server, `/tokens/v2/search?query=${query}`)
    expect(body.map((token) => token.id)).toEqual([context.pmp, context.tst])
    expect(body[0]).toMatchObject({
      isVerified: false,
      tags: [],
      audit: { mintAuthorityDisabled: true, freezeAuthorityDisabled: true },
    })
  })

  test('a search with no match is an empty list; a search with no query is a 400', async () => {
    expect(await getJson(server, '/tokens/v2/search?query=nothing-like-this')).toEqual({ status: 200, body: [] })
    expect((await getJson(server, '/tokens/v2/search')).status).toBe(400)
  })

  test('the verified tag lists every verified token and nothing else', async () => {
    const { body } = await getJson<TokenInfo[]>(server, '/tokens/v2/tag?query=verified')
    expect(body.map((token) => token.symbol).sort()).toEqual(['SOL', 'TST', 'USDC'])
    expect(body.every((token) => token.isVerified)).toBe(true)
    expect((await getJson(server, '/tokens/v2/tag')).status).toBe(400)
  })
})

describe('aggregator stand-in: Swap API v2 /build', () => {
  const buildPath = (params: Record<string, string>) => `/swap/v2/build?${new URLSearchParams(params)}`

  /** The answer assembled as the service assembles it, signed by the taker alone, and sent. */
  async function assembleAndSend(world: World, taker: KeyPairSigner, build: JupiterBuild) {
    const { transaction } = assembleSwap(build, taker.address, 'test', 1_400_000)
    const unsigned = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'))
    expect(Object.keys(unsigned.signatures)).toEqual([taker.address])
    const signed = await signTransaction([taker.keyPair], unsigned as Parameters<typeof signTransaction>[1])
    const outcome = world.chain.send(new Uint8Array(getTransactionEncoder().encode(signed)))
    if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.err)} ${outcome.logs.join('\n')}`)
    expect(outcome.stored.meta.err).toBeNull()
  }

  test(
    'two takers build payouts from the same vault, then both swaps land (its signer set admits both); two hops through wSOL',
    withServer(async ({ world, dev, tst, usdc, server }) => {
      const other = await world.wallet('other-taker', 10)
      const builds: JupiterBuild[] = []
      for (const [taker, input, output, amount] of [
        [dev, tst, usdc, (1_000n * TST).toString()],
        // The same vault pays both out: sol-usdc's USDC vault (dev's second hop, other's only one).
        [other, NATIVE_MINT, usdc, SOL.toString()],
      ] as const) {
        const { status, body } = await getJson<JupiterBuild>(
          server,
          buildPath({ inputMint: input, outputMint: output, amount, taker: taker.address }),
        )
        expect(status).toBe(200)
        builds.push(body)
      }
      expect(builds[0]!.routePlan).toHaveLength(2)
      const usdcBefore = await tokenBalance(world, usdc, dev.address)
      await assembleAndSend(world, dev, builds[0]!)
      await assembleAndSend(world, other, builds[1]!)
      expect((await tokenBalance(world, usdc, dev.address)) - usdcBefore).toBe(BigInt(builds[0]!.outAmount))
      expect(await tokenBalance(world, usdc, other.address)).toBe(BigInt(builds[1]!.outAmount))
    }),
  )

  test(
    "refusals: the taker required and a key, maxAccounts 1 to 64, and the quote's own (same mint, untradable)",
    withServer(async ({ dev, tst, lonely, server }) => {
      const base = { inputMint: NATIVE_MINT, outputMint: tst, amount: '1000' }
      const cases: [Record<string, string>, unknown][] = [
        [base, { error: 'Query parameter taker is required' }],
        [{ ...base, taker: 'abc' }, { error: 'Query parameter taker cannot be parsed: WrongSize' }],
        [{ ...base, taker: dev.address, maxAccounts: '0' }, { error: 'maxAccounts must be 1 to 64' }],
        [{ ...base, taker: dev.address, maxAccounts: '65' }, { error: 'maxAccounts must be 1 to 64' }],
        [
          { ...base, outputMint: NATIVE_MINT, taker: dev.address },
          { error: 'Input and output mints are not allowed to be equal', errorCode: 'CIRCULAR_ARBITRAGE_IS_DISABLED' },
        ],
        [
          { ...base, outputMint: lonely, taker: dev.address },
          { error: `The token ${lonely} is not tradable`, errorCode: 'TOKEN_NOT_TRADABLE' },
        ],
      ]
      for (const [params, body] of cases)
        expect({ params, answer: await getJson(server, buildPath(params)) }).toEqual({
          params,
          answer: { status: 400, body },
        })
    }),
  )
})

describe('aggregator stand-in: Swap API v2 /order without a taker (a price)', () => {
  const orderPath = (params: Record<string, string>) => `/swap/v2/order?${new URLSearchParams(params)}`

  test(
    "the v1 quote's terms with no transaction; the impact in percentage points, negative for a loss",
    withServer(async ({ tst, usdc, server }) => {
      const params = { inputMint: tst, outputMint: usdc, amount: (1_000n * TST).toString() }
      const v1 = await quote(server, params)
      const { status, body } = await getJson<Record<string, unknown>>(server, orderPath(params))
      expect(status).toBe(200)
      expect(body).toMatchObject({
        inputMint: tst,
        outputMint: usdc,
        inAmount: v1.inAmount,
        outAmount: v1.outAmount,
        swapMode: 'ExactIn',
        mode: 'ultra',
        transaction: null,
        taker: null,
      })
      expect(body.priceImpact).toBeCloseTo(-Number(v1.priceImpactPct) * 100, 10)
      expect(body.priceImpactPct).toBe(`-${v1.priceImpactPct}`)
      expect((body.routePlan as unknown[]).length).toBe(v1.routePlan.length)
      // A slippage asked for is an optional parameter: Jupiter's "manual" mode.
      const manual = await getJson<{ mode: string; slippageBps: number }>(
        server,
        orderPath({ ...params, slippageBps: '100' }),
      )
      expect(manual.body).toMatchObject({ mode: 'manual', slippageBps: 100 })
    }),
  )

  test(
    'refusals in the documented shape {requestId, error}: no quote, same mint, ExactOut, a taker',
    withServer(async ({ dev, tst, usdc, lonely, server }) => {
      const cases: [Record<string, string>, string][] = [
        [{ inputMint: NATIVE_MINT, outputMint: tst, amount: '0' }, 'Failed to get quotes'],
        [{ inputMint: tst, outputMint: tst, amount: '1000' }, 'Input and output mints are not allowed to be equal'],
        [{ inputMint: NATIVE_MINT, outputMint: lonely, amount: '1000' }, `The token ${lonely} is not tradable`],
        [{ inputMint: NATIVE_MINT, outputMint: tst, amount: '1000', swapMode: 'ExactOut' }, 'swapMode ExactOut'],
        [{ inputMint: tst, outputMint: usdc, amount: '1000', taker: dev.address }, 'quote only (no taker)'],
      ]
      for (const [params, error] of cases) {
        const { status, body } = await getJson<{ requestId: string; error: string }>(server, orderPath(params))
        expect({ params, status, members: Object.keys(body).sort() }).toEqual({
          params,
          status: 400,
          members: ['error', 'requestId'],
        })
        expect(body.error).toContain(error)
      }
    }),
  )
})
