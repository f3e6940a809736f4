import { describe, expect, test } from 'bun:test'
import { generateKeyPairSigner } from '@solana/kit'
import { x402HTTPClient } from '@x402/core/client'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { createSIWxClientExtension, createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoBuyer, demoPayer } from '../sandbox/demo-client.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// Paying once, answered again (docs/payments.md "Idempotency and re-fetching"), with the official
// x402 packages: a retry after a dropped answer that carries the same payment identifier, and a wallet
// that paid signing in to fetch its answer again. Balances are read on chain.
const { sandbox, running } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const { x402: offers } = sandbox.file
const blue = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const treasury = () => usdcOf(sandbox, offers.solana.pay_to)
const url = `${running.url}/scan/quick`
const post = (body: unknown, fetcher: typeof fetch = fetch, headers: Record<string, string> = {}) =>
  fetcher(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** The official client paying on Solana, every payment carrying `id` (payment-identifier). */
async function payingWithId(id: string, dropFirstPaidAnswer = false): Promise<typeof fetch> {
  const { client } = await demoPayer(sandbox.file, 'solana')
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    paymentRequired.extensions ??= {}
    appendPaymentIdentifierToExtensions(paymentRequired.extensions, id)
  })
  let dropped = !dropFirstPaidAnswer
  const flaky = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init)
    const request = input instanceof Request ? input : new Request(String(input), init)
    if (!dropped && request.headers.has('payment-signature')) {
      dropped = true
      // The service answered (and settled), but the answer never reaches the caller.
      throw new TypeError('network connection lost')
    }
    return response
  }) as typeof fetch
  return wrapFetchWithPayment(flaky, client) as typeof fetch
}

describe('payment-identifier: a retried paid call is charged once and answered the same', () => {
  test('the 402 offers payment-identifier and sign-in-with-x', async () => {
    const challenge = await post({ token_address: blue })
    expect(challenge.status).toBe(402)
    const required = new x402HTTPClient((await demoPayer(sandbox.file, 'solana')).client).getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    )
    expect(required.extensions?.['payment-identifier']).toMatchObject({ info: { required: false } })
    expect(required.extensions?.['sign-in-with-x']).toMatchObject({ info: { uri: url, version: '1' } })
  })

  test('an answer dropped on the way: the retry with the same id gets the first answer, one payment settled', async () => {
    const id = generatePaymentId()
    const before = await treasury()
    const paying = await payingWithId(id, true)
    await expect(post({ token_address: blue }, paying)).rejects.toThrow('network connection lost')
    expect(await treasury()).toBe(before + 20_000n)
    const retried = await post({ token_address: blue }, paying)
    expect(retried.status).toBe(200)
    expect(retried.headers.get('x-answer-replayed')).toBe('payment-identifier')
    expect(retried.headers.get('payment-response')).toBeTruthy()
    expect(((await retried.json()) as any).token_address).toBe(blue)
    expect(await treasury()).toBe(before + 20_000n)
  })

  test('the same id for another call (another body): 409 PAYMENT_ID_CONFLICT, nothing charged', async () => {
    const id = generatePaymentId()
    const paying = await payingWithId(id)
    expect((await post({ token_address: blue }, paying)).status).toBe(200)
    const before = await treasury()
    const other = sandbox.file.scenarios.find((scenario) => scenario.name === 'serial-rugger')!.mint
    const conflict = await post({ token_address: other }, paying)
    expect(conflict.status).toBe(409)
    expect(((await conflict.json()) as any).code).toBe('PAYMENT_ID_CONFLICT')
    expect(await treasury()).toBe(before)
  })

  test('a malformed id is a clear 400, never a charge', async () => {
    // The official client will not send a malformed id: a valid payment is captured and its id changed.
    let captured = ''
    const capturing = (async (input: string | URL | Request, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init)
      const payment = request.headers.get('payment-signature')
      if (payment) {
        captured = payment
        throw new TypeError('held back')
      }
      return fetch(request)
    }) as typeof fetch
    const { client } = await demoPayer(sandbox.file, 'solana')
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      paymentRequired.extensions ??= {}
      appendPaymentIdentifierToExtensions(paymentRequired.extensions, generatePaymentId())
    })
    await expect(
      post({ token_address: blue }, wrapFetchWithPayment(capturing, client) as typeof fetch),
    ).rejects.toThrow()
    const payload = JSON.parse(Buffer.from(captured, 'base64').toString())
    payload.extensions['payment-identifier'].info.id = 'short!'
    const before = await treasury()
    const refused = await post({ token_address: blue }, fetch, {
      'payment-signature': Buffer.from(JSON.stringify(payload)).toString('base64'),
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as any).message).toContain('payment identifier')
    expect(await treasury()).toBe(before)
  })
})

describe('sign-in-with-x: the wallet that paid fetches its answer again', () => {
  test('paid once, then signed in with the same wallet: the same answer, no new payment', async () => {
    const { client } = await demoPayer(sandbox.file, 'solana')
    const body = { token_address: blue }
    const paid = await post(body, wrapFetchWithPayment(fetch, client) as typeof fetch)
    expect(paid.status).toBe(200)
    const first = await paid.text()
    const before = await treasury()
    // The official client, with the SIWX extension: it signs in before it would pay.
    const signingIn = (await demoPayer(sandbox.file, 'solana')).client
    // A @solana/kit KeyPairSigner is the extension's SolanaKitSigner (its types are looser than kit's).
    signingIn.registerExtension(createSIWxClientExtension({ signers: [(await demoBuyer(sandbox.file)) as never] }))
    const again = await post(body, wrapFetchWithPayment(fetch, signingIn) as typeof fetch)
    expect(again.status).toBe(200)
    expect(again.headers.get('x-answer-replayed')).toBe('sign-in-with-x')
    expect(await again.text()).toBe(first)
    expect(await treasury()).toBe(before)
  })

  test('another wallet signed in is not given the answer: it is challenged', async () => {
    const challenge = await post({ token_address: blue })
    const info = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString()).extensions[
      'sign-in-with-x'
    ]
    const stranger = await generateKeyPairSigner()
    const payload = await createSIWxPayload(
      { ...info.info, chainId: offers.solana.network, type: 'ed25519' },
      stranger as never,
      url,
    )
    const response = await post({ token_address: blue }, fetch, { 'sign-in-with-x': encodeSIWxHeader(payload) })
    expect(response.status).toBe(402)
    expect(response.headers.get('x-answer-replayed')).toBeNull()
  })

  test('a forged sign-in is refused with a clear 400', async () => {
    const response = await post({ token_address: blue }, fetch, { 'sign-in-with-x': 'bm90IGEgc2lnbi1pbg==' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as any).message).toContain('SIGN-IN-WITH-X')
  })
})
