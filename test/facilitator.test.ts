import { afterAll, describe, expect, test } from 'bun:test'
import { HTTPFacilitatorClient } from '@x402/core/server'
import type { PaymentRequirements } from '@x402/core/types'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { paymentKey } from '../src/payments/payment-key.ts'
import { FacilitatorClient } from '../src/payments/facilitator.ts'
import { headersSetting } from '../src/kernel/config.ts'
import { UpstreamError } from '../src/sources/upstream.ts'
import type { PaymentV2 } from '../src/payments/payment-header.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { usdcOf } from './support/x402.ts'

const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())

const { x402: offers, urls } = sandbox.file
const facilitator = new HTTPFacilitatorClient({ url: urls.facilitator })

function requirements(amount: string): PaymentRequirements {
  const { network, asset, pay_to, fee_payer } = offers.solana
  return {
    scheme: 'exact',
    network: network as PaymentRequirements['network'],
    amount,
    asset,
    payTo: pay_to,
    maxTimeoutSeconds: 60,
    extra: { feePayer: fee_payer },
  }
}

/** Payments built by the official v2 client with the demo buyer's keys, as a paying agent would. */
const { client } = await demoPayer(sandbox.file, 'solana')
const evm = await demoPayer(sandbox.file, 'base')
async function pay(accepted: PaymentRequirements) {
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: 'http://localhost/scan/quick', description: 'quick scan', mimeType: 'application/json' },
    accepts: [accepted],
  })
}

describe('sandbox x402 facilitator (official @x402/core facilitator + @x402/svm, over HTTP)', () => {
  test('/supported lists exact on the sandbox network for v1 and v2, with the fee payer', async () => {
    const supported = await facilitator.getSupported()
    const kinds = supported.kinds.filter((kind) => kind.scheme === 'exact')
    expect(kinds).toContainEqual(
      expect.objectContaining({
        x402Version: 2,
        network: offers.solana.network,
        extra: { feePayer: offers.solana.fee_payer },
      }),
    )
    expect(kinds.some((kind) => kind.x402Version === 1 && String(kind.network) === 'solana-devnet')).toBe(true)
  })

  test('verify then settle moves exactly the price from the buyer to the payTo, once', async () => {
    const accepted = requirements('20000')
    const payload = await pay(accepted)
    const buyer = sandbox.file.buyer.address
    const [buyerBefore, treasuryBefore] = await Promise.all([
      usdcOf(sandbox, buyer),
      usdcOf(sandbox, offers.solana.pay_to),
    ])

    const verified = await facilitator.verify(payload, accepted)
    expect(verified).toMatchObject({ isValid: true, payer: buyer })
    // Verifying moves nothing.
    expect(await usdcOf(sandbox, buyer)).toBe(buyerBefore)

    const settled = await facilitator.settle(payload, accepted)
    expect(settled).toMatchObject({ success: true, payer: buyer, network: offers.solana.network })
    expect(settled.transaction).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect(await usdcOf(sandbox, buyer)).toBe(buyerBefore - 20_000n)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(treasuryBefore + 20_000n)

    // The same payment settled again is refused by this facilitator process (its own in-memory guard).
    const replay = await facilitator
      .settle(payload, accepted)
      .catch((error: Error) => ({ success: false, errorReason: error.message }))
    expect(replay.success).toBe(false)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(treasuryBefore + 20_000n)
  })

  test('a payment for another amount than required fails verification', async () => {
    const payload = await pay(requirements('20000'))
    const verified = await facilitator
      .verify(payload, requirements('500000'))
      .catch((error: Error) => ({ isValid: false, invalidReason: error.message }))
    expect(verified.isValid).toBe(false)
  })

  test("a payment's ledger key is the hash of its transaction message: stable across copies, distinct per payment", async () => {
    const accepted = requirements('20000')
    const [one, two] = [await pay(accepted), await pay(accepted)]
    const key = paymentKey(one as PaymentV2, accepted.network)
    expect(key).toMatch(/^svm:solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:.+/)
    expect(paymentKey(JSON.parse(JSON.stringify(one)) as PaymentV2, accepted.network)).toBe(key!)
    expect(paymentKey(two as PaymentV2, accepted.network)).not.toBe(key!)
    expect(
      paymentKey({ ...(one as PaymentV2), payload: { transaction: 'not a transaction' } }, accepted.network),
    ).toBeUndefined()
  })

  test('a body that is not JSON, or lacks the payload, gets a 400 naming what is expected', async () => {
    const notJson = await fetch(`${urls.facilitator}/verify`, { method: 'POST', body: 'nope' })
    expect(notJson.status).toBe(400)
    expect(((await notJson.json()) as { error: string }).error).toContain('paymentRequirements')
    const empty = await fetch(`${urls.facilitator}/settle`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(empty.status).toBe(400)
    expect((await fetch(`${urls.facilitator}/nowhere`)).status).toBe(404)
  })
})

describe('sandbox x402 facilitator on anvil (official @x402/evm exact scheme, EIP-3009)', () => {
  const { network, asset, pay_to, asset_domain } = offers.base
  const [name, version] = asset_domain.split(',')
  const accepted = (amount: string): PaymentRequirements => ({
    scheme: 'exact',
    network: network as PaymentRequirements['network'],
    amount,
    asset,
    payTo: pay_to,
    maxTimeoutSeconds: 60,
    extra: { name: name!, version: version! },
  })
  const payEvm = (requirement: PaymentRequirements, client = evm.client) =>
    client.createPaymentPayload({
      x402Version: 2,
      resource: { url: 'http://localhost/scan/quick', description: 'quick scan', mimeType: 'application/json' },
      accepts: [requirement],
    })
  const balance = (owner: string) => sandbox.evm.usdcBalance(owner as `0x${string}`)

  test("/supported lists exact on eip155:31337, with the facilitator's account as signer", async () => {
    const supported = await facilitator.getSupported()
    expect(supported.kinds).toContainEqual(expect.objectContaining({ x402Version: 2, scheme: 'exact', network }))
    expect(JSON.stringify(supported.signers ?? {})).toContain(offers.base.facilitator)
  })

  test('verify then settle moves exactly the price on anvil, once; the token refuses the replay', async () => {
    const requirement = accepted('200000')
    const payload = await payEvm(requirement)
    const [buyerBefore, treasuryBefore] = await Promise.all([balance(evm.payer), balance(pay_to)])
    expect(await facilitator.verify(payload, requirement)).toMatchObject({ isValid: true, payer: evm.payer })
    expect(await balance(evm.payer)).toBe(buyerBefore)
    const settled = await facilitator.settle(payload, requirement)
    expect(settled).toMatchObject({ success: true, network, payer: evm.payer })
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await balance(evm.payer)).toBe(buyerBefore - 200_000n)
    expect(await balance(pay_to)).toBe(treasuryBefore + 200_000n)
    // The authorization's nonce is spent on chain: verifying it again fails, whoever asks.
    const again = await facilitator
      .verify(payload, requirement)
      .catch((error: Error) => ({ isValid: false, invalidReason: error.message }))
    expect(again).toMatchObject({ isValid: false })
    expect(await balance(pay_to)).toBe(treasuryBefore + 200_000n)
  })

  test("a payer without the funds fails verification with the token's balance as the reason", async () => {
    const { generatePrivateKey } = await import('viem/accounts')
    const broke = (await demoPayer(sandbox.file, 'base', generatePrivateKey())).client
    const requirement = accepted('20000')
    const verified = await facilitator.verify(await payEvm(requirement, broke), requirement)
    expect(verified).toMatchObject({ isValid: false, invalidReason: expect.stringContaining('insufficient') })
  })

  test('a payment signed for another payTo fails verification', async () => {
    const payload = await payEvm({ ...accepted('20000'), payTo: evm.payer })
    const verified = await facilitator
      .verify(payload, accepted('20000'))
      .catch((error: Error) => ({ isValid: false, invalidReason: error.message }))
    expect(verified.isValid).toBe(false)
  })
})

describe('our facilitator client (src/payments/facilitator.ts) against the sandbox facilitator', () => {
  const client = new FacilitatorClient({ url: urls.facilitator })

  test('reads /supported, verifies and settles a real payment', async () => {
    const supported = await client.supported()
    expect(
      supported.kinds.some(
        (kind) => kind.network === offers.solana.network && kind.extra?.feePayer === offers.solana.fee_payer,
      ),
    ).toBe(true)
    const accepted = requirements('20000')
    const payment = (await pay(accepted)) as PaymentV2
    expect(await client.verify(payment, accepted)).toMatchObject({ isValid: true, payer: sandbox.file.buyer.address })
    const settled = await client.settle(payment, accepted)
    expect(settled).toMatchObject({ success: true, network: offers.solana.network })
    // Settling the same payment again is the facilitator's refusal, an answer rather than an outage.
    expect(await client.settle(payment, accepted)).toMatchObject({ success: false })
  })

  test('a payment the facilitator cannot judge is an answer (isValid false) with its reason', async () => {
    const accepted = requirements('20000')
    const payment = (await pay(accepted)) as PaymentV2
    const answer = await client.verify(payment, { ...accepted, network: 'solana:unknownnetwork' })
    expect(answer.isValid).toBe(false)
    expect(answer.invalidReason).toBeTruthy()
  })

  test('a facilitator that cannot be reached throws an upstream error (no verdict is invented)', async () => {
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const url = `http://127.0.0.1:${closed.port}`
    await closed.stop(true)
    const offline = new FacilitatorClient({ url, timeoutMs: 300 })
    const error = await offline
      .verify((await pay(requirements('20000'))) as PaymentV2, requirements('20000'))
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UpstreamError)
    expect((error as UpstreamError).reason).toBe('network')
  })

  test("FACILITATOR_HEADERS (a hosted facilitator's key) go with every request", async () => {
    const seen: (string | null)[] = []
    const recorder = Bun.serve({
      port: 0,
      fetch: (request) => {
        seen.push(request.headers.get('authorization'))
        return Response.json({ kinds: [] })
      },
    })
    try {
      const keyed = new FacilitatorClient({
        url: `http://127.0.0.1:${recorder.port}`,
        headers: headersSetting({ FACILITATOR_HEADERS: '{"Authorization": "Bearer k-1"}' }, 'FACILITATOR_HEADERS'),
      })
      await keyed.supported()
      expect(seen).toEqual(['Bearer k-1'])
    } finally {
      await recorder.stop(true)
    }
  })

  test('a facilitator answering 5xx is unavailable, not a refusal', async () => {
    sandbox.faults.set('facilitator', '/verify', { kind: 'server_error' })
    try {
      const error = await client
        .verify((await pay(requirements('20000'))) as PaymentV2, requirements('20000'))
        .catch((caught: unknown) => caught)
      expect((error as UpstreamError).reason).toBe('server_error')
    } finally {
      sandbox.faults.clear()
    }
  })
})
