import { describe, expect, test } from 'bun:test'
import {
  address,
  getBase64EncodedWireTransaction,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  partiallySignTransaction,
  type SignatureBytes,
  verifySignature,
} from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { usdToAtomicUsdc } from '../src/kernel/manifest.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// Every route the registry holds, read from the registry itself: a priced route answers 402 without
// payment and runs once per valid payment; a free route never asks for one. A route added later is
// covered without a line here — except a priced one, which needs a valid request below (the test says so).
const { sandbox, ctx, running } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

const { x402: offers } = sandbox.file
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const SOL = 'So11111111111111111111111111111111111111112'
const buyer = await sandbox.world.signer('demo-buyer')
const treasury = () => sandbox.evm.usdcBalance(offers.base.pay_to as `0x${string}`)
const send = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  fetcher: typeof fetch = fetch,
) =>
  fetcher(`${running.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** Quotes a swap as the demo buyer; the job id and its signed transaction. */
async function quotedSwap(): Promise<{ job_id: string; signed_transaction_b64: string }> {
  const quoted = (await (
    await send('POST', '/trade/quote', {
      input_mint: SOL,
      output_mint: mint,
      amount_in: '10000000',
      user_public_key: buyer.address,
    })
  ).json()) as {
    job_id: string
    unsigned_transaction_b64: string
  }
  const transaction = getTransactionDecoder().decode(Buffer.from(quoted.unsigned_transaction_b64, 'base64'))
  return {
    job_id: quoted.job_id,
    signed_transaction_b64: getBase64EncodedWireTransaction(
      await partiallySignTransaction([buyer.keyPair], transaction),
    ),
  }
}

/** A valid request body for each priced route (built afresh per use). */
const VALID_REQUESTS: Record<string, () => Promise<unknown>> = {
  'POST /scan/quick': async () => ({ token_address: mint }),
  // One mint: the price per mint × 1 (test/quick-scan-batch.test.ts pays for several).
  'POST /scan/quick/batch': async () => ({ token_addresses: [mint] }),
  // One hour: the price per hour × 1 (test/watch-route.test.ts pays for several).
  'POST /watch': async () => ({ token_address: mint, hours: 1 }),
  'POST /market/intel': async () => ({ token_address: mint }),
  'POST /scan/deep': async () => ({ token_address: mint }),
  'POST /trade/execute': quotedSwap,
  'POST /exit/check': async () => ({ token_address: mint }),
  'POST /exit/cross-check': async () => ({ token_address: mint }),
  'POST /wallet/intel': async () => ({ wallet_address: buyer.address }),
  'POST /launch/radar': async () => ({ limit: 3 }),
  'POST /graduation/radar': async () => ({ limit: 3 }),
  'POST /scan/smart-money': async () => ({ limit: 3 }),
  'POST /graduation/momentum': async () => ({ limit: 2 }),
  'POST /scan/trending': async () => ({ limit: 3 }),
  'POST /signal/radar': async () => ({ limit: 3 }),
  'POST /news/pulse': async () => ({ symbol: 'BLUE' }),
  'POST /news/brief': async () => ({ symbol: 'BLUE' }),
  'POST /news/pulse_plus': async () => ({ symbol: 'BNDL' }),
  'POST /news/report': async () => ({ symbol: 'LEGIT' }),
  'POST /trade/suggest': async () => ({ source: 'signal', interval: '24h' }),
}
/** A request body for free POST routes (free routes must not challenge whatever they are sent). */
const FREE_BODIES: Record<string, unknown> = {
  'POST /trade/quote': { input_mint: SOL, output_mint: mint, amount_in: '1000', user_public_key: buyer.address },
}

const priced = ctx.registry.routes().filter((route) => route.price !== 'free')
const free = ctx.registry.routes().filter((route) => route.price === 'free')

/**
 * The answer's attestation verifies with the key published in /.well-known/x402, using nothing but
 * @solana/kit (as a third party would): the signature over the payload, then the payload's route,
 * hashes and payment against what was sent and received. A changed byte of the payload fails it.
 */
async function expectAttested(routeKey: string, body: unknown, paid: Response): Promise<void> {
  const published = (await (await send('GET', '/.well-known/x402')).json()) as { attestation: { public_key: string } }
  const key = await getPublicKeyFromAddress(address(published.attestation.public_key))
  const [version, payload, signature] = paid.headers.get('x-attestation')!.split('.') as [string, string, string]
  expect(version).toBe('v1')
  const bytes = Buffer.from(payload, 'base64url')
  const signatureBytes = signatureBytesOf(signature)
  expect(await verifySignature(key, signatureBytes, bytes)).toBe(true)
  const tampered = Buffer.from(bytes)
  tampered[tampered.length - 2] = tampered[tampered.length - 2]! ^ 1
  expect(await verifySignature(key, signatureBytes, tampered)).toBe(false)
  const statement = JSON.parse(bytes.toString('utf8'))
  const sha256 = (data: Uint8Array | string) => new Bun.CryptoHasher('sha256').update(data).digest('hex')
  const receipt = JSON.parse(Buffer.from(paid.headers.get('payment-response')!, 'base64').toString('utf8'))
  expect(statement).toMatchObject({
    v: 1,
    key: published.attestation.public_key,
    route: routeKey,
    request_sha256: sha256(JSON.stringify(body)),
    response_sha256: sha256(new Uint8Array(await paid.clone().arrayBuffer())),
    status: 200,
    payment: { network: receipt.network, transaction: receipt.transaction },
  })
  expect(typeof statement.slot).toBe('number')
}

const signatureBytesOf = (text: string) => Buffer.from(text, 'base64url') as unknown as SignatureBytes

describe('every priced route, from the registry', () => {
  test("the registry prices the spec's paid routes at the spec's prices, the catalogue's at the published ones (a price removed from a manifest fails here)", () => {
    expect(Object.fromEntries(priced.map((route) => [route.key, (route.price as { usd: string }).usd]))).toEqual({
      'POST /scan/quick': '0.02',
      'POST /scan/quick/batch': '0.015',
      'POST /market/intel': '0.20',
      'POST /scan/deep': '0.50',
      'POST /trade/execute': '0.15',
      'POST /exit/check': '0.01',
      'POST /exit/cross-check': '0.01',
      'POST /wallet/intel': '0.10',
      'POST /launch/radar': '0.05',
      'POST /graduation/radar': '0.06',
      'POST /scan/smart-money': '0.05',
      'POST /graduation/momentum': '0.40',
      'POST /scan/trending': '0.02',
      'POST /signal/radar': '0.04',
      'POST /news/pulse': '0.01',
      'POST /news/brief': '0.05',
      'POST /news/pulse_plus': '0.10',
      'POST /news/report': '0.25',
      'POST /trade/suggest': '0.60',
      'POST /watch': '0.01',
    })
  })

  test('the registry holds the priced routes this test knows how to call', () => {
    expect(priced.length).toBeGreaterThan(0)
    for (const route of priced)
      expect(VALID_REQUESTS[route.key], `add a valid request for ${route.key} to VALID_REQUESTS`).toBeDefined()
  })

  test.each(priced.map((route) => [route.key, route] as const))(
    '%s: 402 without payment; one payment runs it once',
    async (_, route) => {
      const price = usdToAtomicUsdc((route.price as { usd: string }).usd)
      const unpaid = await send(route.method, route.path, await VALID_REQUESTS[route.key]!())
      expect(unpaid.status).toBe(402)
      const challenge = JSON.parse(Buffer.from(unpaid.headers.get('payment-required')!, 'base64').toString()) as {
        accepts: { amount: string }[]
      }
      expect(challenge.accepts.map((offer) => offer.amount)).toEqual(challenge.accepts.map(() => price))

      // Pay with the official client on the EVM rail, keeping the payment it sends.
      const sent: string[] = []
      const recording = ((input: string | URL | Request, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(String(input), init)
        const payment = request.headers.get('payment-signature') ?? request.headers.get('x-payment')
        if (payment) sent.push(payment)
        return fetch(request)
      }) as typeof fetch
      const paying = wrapFetchWithPayment(recording, (await demoPayer(sandbox.file, 'base')).client) as typeof fetch
      const body = await VALID_REQUESTS[route.key]!()
      const before = await treasury()
      const paid = await send(route.method, route.path, body, {}, paying)
      expect(paid.status).toBe(200)
      expect(paid.headers.get('payment-response')).toBeTruthy()
      expect(await treasury()).toBe(before + BigInt(price))
      await expectAttested(route.key, body, paid)

      // The same payment again: refused (or, for a job already done, its outcome without a charge); never a second run paid twice.
      const again = await send(route.method, route.path, body, { 'payment-signature': sent.at(-1)! })
      expect(route.deferredPayment ? [200, 402] : [402]).toContain(again.status)
      expect(await treasury()).toBe(before + BigInt(price))
    },
  )
})

describe('every priced route on the Solana rail', () => {
  // The same price on the other rail: the official client pays the sandbox USDC, the treasury receives it once.
  const solanaTreasury = () => usdcOf(sandbox, offers.solana.pay_to)
  test.each(priced.filter((route) => !route.deferredPayment).map((route) => [route.key, route] as const))(
    '%s: paid once on Solana, at its price',
    async (_, route) => {
      const price = usdToAtomicUsdc((route.price as { usd: string }).usd)
      const paying = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'solana')).client) as typeof fetch
      const before = await solanaTreasury()
      const body = await VALID_REQUESTS[route.key]!()
      const paid = await send(route.method, route.path, body, {}, paying)
      expect(paid.status).toBe(200)
      expect(paid.headers.get('payment-response')).toBeTruthy()
      expect(await solanaTreasury()).toBe(before + BigInt(price))
      await expectAttested(route.key, body, paid)
    },
  )
})

describe('every free route, from the registry', () => {
  test.each(free.map((route) => [route.key, route] as const))('%s never asks for payment', async (_, route) => {
    const path = route.path.replace(/:(\w+)/g, 'no-such-$1')
    const response = await send(
      route.method,
      path,
      route.method === 'POST' ? (FREE_BODIES[route.key] ?? {}) : undefined,
    )
    expect(response.status).not.toBe(402)
    expect(response.headers.get('payment-required')).toBeNull()
  })
})
