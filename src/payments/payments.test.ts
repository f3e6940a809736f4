import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../settings.ts'
import { answerExtensions, freshSignIn, SIGN_IN_SLOTS } from './answer-replay.ts'
import { ChallengeTemplate, paymentChallenge, offersV2 } from './challenge.ts'
import { refusedBeforeSending } from './facilitator.ts'
import { matchOffer } from './match.ts'
import { MAX_PAYMENT_HEADER_BYTES, readPayment, type PaymentV2 } from './payment-header.ts'
import { paymentRails, railsInWords, v1NetworkName } from './rails.ts'

const MAINNET = loadConfig({
  SOLSENTRY_PROFILE: 'mainnet',
  PUBLIC_URL: 'https://solsentry.example',
  FACILITATOR_URL: 'https://facilitator.example',
  PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
  PAY_TO_BASE: '0x1111111111111111111111111111111111111111',
})
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const FEE_PAYER = 'FeePayer11111111111111111111111111111111111'
/** A facilitator's /supported for both mainnet rails (the Base kind listed under its v1 name). */
const supported = new Map<string, Record<string, unknown>>([
  [SOLANA_MAINNET, { feePayer: FEE_PAYER }],
  ['base', {}],
])
const rails = paymentRails(MAINNET)
const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64')
const headers = (name: string, value: string) => new Headers({ [name]: value })

describe('rails', () => {
  test('mainnet offers USDC on Base and Solana, with v1 short names', () => {
    expect(rails.map(({ name, network, v1Network, asset }) => ({ name, network, v1Network, asset }))).toEqual([
      { name: 'base', network: 'eip155:8453', v1Network: 'base', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      {
        name: 'solana',
        network: SOLANA_MAINNET,
        v1Network: 'solana',
        asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      },
    ])
    expect(rails[0]!.extra).toEqual({ name: 'USD Coin', version: '2' })
  })

  test('settings override the network, asset and EIP-712 domain; anvil has no v1 name', () => {
    const sandbox = paymentRails(
      loadConfig({
        PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
        PAY_TO_BASE: '0x1111111111111111111111111111111111111111',
        BASE_PAYMENT_ASSET: '0x2222222222222222222222222222222222222222',
        BASE_PAYMENT_ASSET_DOMAIN: 'Test USD,1',
      }),
    )
    expect(sandbox[0]).toMatchObject({
      network: 'eip155:31337',
      v1Network: null,
      asset: '0x2222222222222222222222222222222222222222',
      extra: { name: 'Test USD', version: '1' },
    })
    expect(sandbox[1]).toMatchObject({
      network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      v1Network: 'solana-devnet',
      asset: '',
    })
    expect(v1NetworkName('eip155:84532')).toBe('base-sepolia')
  })

  test('a rail is there only with its payee: one PAY_TO_* set, one rail; neither, none', () => {
    const only = (env: Record<string, string>) =>
      paymentRails(loadConfig(env)).map(({ name, payTo }) => ({ name, payTo }))
    expect(only({ PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' })).toEqual([
      { name: 'solana', payTo: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' },
    ])
    // The Solana rail's other settings do not make a rail without its payee.
    expect(
      only({
        PAY_TO_BASE: '0x1111111111111111111111111111111111111111',
        SOLANA_PAYMENT_ASSET: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      }),
    ).toEqual([{ name: 'base', payTo: '0x1111111111111111111111111111111111111111' }])
    expect(only({})).toEqual([])
    expect(railsInWords(paymentRails(MAINNET))).toBe('Base or Solana')
    expect(railsInWords(paymentRails({ ...MAINNET, PAY_TO_BASE: undefined }))).toBe('Solana')
    expect(railsInWords(paymentRails({ ...MAINNET, PAY_TO_SOLANA: undefined }))).toBe('Base')
  })
})

describe('a challenge built once and filled per request (ChallengeTemplate)', () => {
  const slots = [SIGN_IN_SLOTS.nonce, SIGN_IN_SLOTS.issuedAt, SIGN_IN_SLOTS.expirationTime]
  // Discovery members with text beyond ASCII before the slots (UTF-8 in base64: the cut falls in bytes).
  const discovery = {
    serviceName: 'solsentry',
    tags: ['solana', 'x402'],
    extensions: {
      bazaar: { info: { input: { type: 'http', method: 'POST', body: { note: 'a token’s “grade” — é' } } } },
    },
  }
  const templateOf = (resource: string, description: string) => {
    const inputOf = ([nonce, issuedAt, expirationTime]: readonly string[]) => ({
      rails,
      supported,
      amount: '20000',
      resource,
      description,
      discovery,
      extensions: answerExtensions(resource, [SOLANA_MAINNET], {
        nonce: nonce!,
        issuedAt: issuedAt!,
        expirationTime: expirationTime!,
      }),
    })
    // What the template asks of inputOf after it is built: nothing, unless it builds a challenge whole.
    const built = { whole: 0 }
    const template = new ChallengeTemplate((values) => {
      built.whole++
      return inputOf(values)
    }, slots)
    built.whole = 0
    return { template, inputOf, built }
  }
  const reasons = [
    'payment required: sign a payment for one of the offers and send it in X-PAYMENT',
    '',
    'the facilitator refused the payment: “insufficient_funds” (the payer’s balance)',
    'quotes " and a backslash \\ and a newline \n and a tab \t',
    ...Array.from({ length: 20 }, (_, i) => `reason ${'x'.repeat(i)}`),
  ]

  test('the same bytes as paymentChallenge, for every reason and wherever the base64 quanta fall', () => {
    // URLs and descriptions of every length mod 3 move the slots across the base64 quanta.
    for (const resource of [
      'https://s.example/scan/quick',
      'https://so.example/scan/quick',
      'https://sol.example/scan/quick',
    ])
      for (const description of ['quick scan', 'quick scan!', 'quick scan!!']) {
        const { template, inputOf, built } = templateOf(resource, description)
        for (const reason of [...reasons, ...reasons]) {
          const fresh = freshSignIn()
          const values = [fresh.nonce, fresh.issuedAt, fresh.expirationTime]
          const filled = template.fill(reason, values)
          const reference = paymentChallenge({ ...inputOf(values), reason })
          expect(filled.header).toBe(reference.header)
          expect(filled.body).toEqual(reference.body)
        }
        expect(built.whole).toBe(0)
      }
  })

  test('values of other lengths or needing escapes are built whole: still the same bytes', () => {
    const { template, inputOf, built } = templateOf('https://solsentry.example/scan/quick', 'quick scan')
    for (const values of [
      ['short', '2026-01-01T00:00:00.000Z', '2026-01-01T00:05:00.000Z'],
      ['"'.repeat(32), '+020000-01-01T00:00:00.000Z', '2026-01-01T00:05:00.000Z'],
      ['é'.repeat(32), '2026-01-01T00:00:00.000Z', '2026-01-01T00:05:00.000Z'],
    ]) {
      const filled = template.fill('payment required', values)
      expect(filled.header).toBe(paymentChallenge({ ...inputOf(values), reason: 'payment required' }).header)
    }
    expect(built.whole).toBe(3)
  })

  test('each challenge carries a fresh nonce and its times; the decoded header is the PaymentRequired', () => {
    const { template, inputOf } = templateOf('https://solsentry.example/scan/quick', 'quick scan')
    const decode = (header: string) => JSON.parse(Buffer.from(header, 'base64').toString())
    const fresh = freshSignIn(Date.parse('2026-01-01T00:00:00.000Z'))
    const values = [fresh.nonce, fresh.issuedAt, fresh.expirationTime]
    const first = decode(template.fill('payment required', values).header)
    expect(first).toEqual(paymentChallenge({ ...inputOf(values), reason: 'payment required' }).headerPayload)
    expect(first.extensions['sign-in-with-x'].info).toMatchObject({
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      issuedAt: '2026-01-01T00:00:00.000Z',
      expirationTime: '2026-01-01T00:05:00.000Z',
    })
    const again = freshSignIn()
    const second = decode(template.fill('payment required', [again.nonce, again.issuedAt, again.expirationTime]).header)
    expect(second.extensions['sign-in-with-x'].info.nonce).not.toBe(first.extensions['sign-in-with-x'].info.nonce)
  })
})

describe('the 402 challenge', () => {
  const challenge = paymentChallenge({
    rails,
    supported,
    amount: '20000',
    resource: 'https://solsentry.example/scan/quick',
    description: 'quick scan',
    reason: 'payment required',
  })

  test('the payment-required header is base64 v2 PaymentRequired with CAIP-2 networks and atomic amounts', () => {
    const decoded = JSON.parse(Buffer.from(challenge.header, 'base64').toString())
    expect(decoded).toEqual(challenge.headerPayload)
    expect(decoded).toMatchObject({
      x402Version: 2,
      resource: { url: 'https://solsentry.example/scan/quick', mimeType: 'application/json' },
    })
    expect(decoded.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '20000',
        asset: rails[0]!.asset,
        payTo: rails[0]!.payTo,
        maxTimeoutSeconds: 120,
        extra: { name: 'USD Coin', version: '2' },
      },
      {
        scheme: 'exact',
        network: SOLANA_MAINNET,
        amount: '20000',
        asset: rails[1]!.asset,
        payTo: rails[1]!.payTo,
        maxTimeoutSeconds: 120,
        extra: { feePayer: FEE_PAYER },
      },
    ])
  })

  test('the body carries the same offers in v1 form', () => {
    expect(challenge.body).toMatchObject({ x402Version: 1, error: 'payment required' })
    expect(
      challenge.body.accepts.map((offer) => [offer.network, offer.maxAmountRequired, offer.payTo, offer.resource]),
    ).toEqual([
      ['base', '20000', rails[0]!.payTo!, 'https://solsentry.example/scan/quick'],
      ['solana', '20000', rails[1]!.payTo!, 'https://solsentry.example/scan/quick'],
    ])
  })

  test('a rail without a payTo, one the facilitator does not settle, or Solana without a fee payer, is not offered', () => {
    const networks = (offers: { network: string }[]) => offers.map((offer) => offer.network)
    expect(networks(offersV2({ rails, supported: new Map([['base', {}]]), amount: '1' }))).toEqual(['eip155:8453'])
    expect(
      networks(
        offersV2({
          rails,
          supported: new Map([
            ['base', {}],
            [SOLANA_MAINNET, {}],
          ]),
          amount: '1',
        }),
      ),
    ).toEqual(['eip155:8453'])
    expect(
      networks(offersV2({ rails, supported: new Map([[SOLANA_MAINNET, { feePayer: FEE_PAYER }]]), amount: '1' })),
    ).toEqual([SOLANA_MAINNET])
    const solanaOnly = paymentRails({ ...MAINNET, PAY_TO_BASE: undefined })
    expect(networks(offersV2({ rails: solanaOnly, supported, amount: '1' }))).toEqual([SOLANA_MAINNET])
  })
})

describe('reading the payment header', () => {
  const v2: PaymentV2 = {
    x402Version: 2,
    accepted: {
      scheme: 'exact',
      network: SOLANA_MAINNET,
      amount: '20000',
      asset: rails[1]!.asset,
      payTo: rails[1]!.payTo!,
      maxTimeoutSeconds: 120,
    },
    payload: { transaction: 'AQID' },
  }

  test('from X-PAYMENT or PAYMENT-SIGNATURE, v1 or v2', () => {
    expect(readPayment(new Headers())).toEqual({ kind: 'none' })
    expect(readPayment(headers('payment-signature', b64(v2)))).toMatchObject({ kind: 'payment', payment: v2 })
    const v1 = { x402Version: 1, scheme: 'exact', network: 'solana', payload: { transaction: 'AQID' } }
    expect(readPayment(headers('x-payment', b64(v1)))).toMatchObject({ kind: 'payment', payment: v1 })
  })

  test.each([
    ['not base64', '%%%not base64%%%', 'not base64'],
    ['base64 of text', b64('hello'), 'does not decode to JSON'],
    ['an array', b64([1, 2]), 'must be a JSON object'],
    ['no payload', b64({ x402Version: 2, accepted: v2.accepted }), 'no "payload" object'],
    ['v2 without accepted', b64({ x402Version: 2, payload: {} }), 'needs "accepted"'],
    ['v1 without network', b64({ x402Version: 1, scheme: 'exact', payload: {} }), 'needs "scheme" and "network"'],
    ['version 3', b64({ x402Version: 3, payload: {} }), 'unsupported x402Version 3'],
    ['huge', 'A'.repeat(MAX_PAYMENT_HEADER_BYTES + 1), 'a payment is at most'],
  ])('%s → invalid with a reason', (_, value, reason) => {
    const read = readPayment(headers('x-payment', value))
    expect(read.kind).toBe('invalid')
    expect(read.kind === 'invalid' && read.reason).toContain(reason)
  })

  describe('matching the offers', () => {
    const offers = offersV2({ rails, supported, amount: '20000' })
    const with_ = (change: Partial<PaymentV2['accepted']>): PaymentV2 => ({
      ...v2,
      accepted: { ...v2.accepted, ...change },
    })

    test('a v2 payment that repeats an offer matches it', () => {
      expect(matchOffer(v2, offers, rails)).toMatchObject({ ok: true, offer: { network: SOLANA_MAINNET } })
    })

    test.each([
      ['amount', { amount: '2000' }, 'this call costs 20000'],
      ['asset', { asset: 'So11111111111111111111111111111111111111112' }, 'is not accepted'],
      ['payTo', { payTo: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263'.replace('D', 'E') }, 'as the challenge says'],
      ['network', { network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' }, 'is not offered'],
      ['scheme', { scheme: 'upto' }, 'pay with "exact"'],
    ])('a wrong %s is refused with a reason', (_, change, reason) => {
      const match = matchOffer(with_(change), offers, rails)
      expect(match.ok).toBe(false)
      expect(!match.ok && match.reason).toContain(reason)
    })

    test('a v1 payment names its offer by short network name', () => {
      expect(
        matchOffer({ x402Version: 1, scheme: 'exact', network: 'base', payload: {} }, offers, rails),
      ).toMatchObject({ ok: true, offer: { network: 'eip155:8453' } })
      const unknown = matchOffer(
        { x402Version: 1, scheme: 'exact', network: 'solana-devnet', payload: {} },
        offers,
        rails,
      )
      expect(!unknown.ok && unknown.reason).toContain('offered: base, solana')
    })
  })
})

describe('refusedBeforeSending: which unsuccessful settle answers prove that nothing was sent', () => {
  test.each([
    ['invalid_exact_svm_payload_amount_mismatch', true],
    ['invalid_exact_svm_transaction_simulation_failed', true],
    ['invalid_exact_evm_insufficient_balance', true],
    ['unsupported_payload_type', true],
    // Answered after a send too (ExactSvmSchemeV1.settle: confirmation failed; v2: sendTransaction threw).
    ['transaction_failed', false],
    ['invalid_exact_svm_transaction_failed', false],
    ['invalid_exact_evm_transaction_failed', false],
    // Used: perhaps by this very settlement.
    ['invalid_exact_evm_nonce_already_used', false],
    ['settlement_pending', false],
    ['duplicate_settlement', false],
    ['post_settlement_transfer_not_confirmed', false],
    ['an error text a facilitator invented', false],
    [undefined, false],
  ])('%p → %p', (reason, refused) => {
    expect(refusedBeforeSending(reason)).toBe(refused)
  })
})
