import { setTimeout as sleep } from 'node:timers/promises'
/**
 * Paid answers kept and served again without a second payment (docs/payments.md "Idempotency and
 * re-fetching"), with the official `@x402/extensions`:
 * - **payment-identifier**: a payment carrying an id (`extensions["payment-identifier"].info.id`) is
 *   claimed under that id before anything is verified. A retry with the same id for the same call —
 *   same route, same request body, same offer terms — gets the first success's answer (waiting for it
 *   while it runs) and its new payment is never verified or settled; the same id for another call is
 *   refused 409 PAYMENT_ID_CONFLICT. A failed call frees the id.
 * - **sign-in-with-x**: a wallet that paid for an answer signs in (the `SIGN-IN-WITH-X` header, CAIP-122
 *   on Solana or EVM) and gets the same answer to the same request again without paying.
 * Both keep answers ANSWER_RETENTION_MS in the store (SQLite, or Redis shared by every instance).
 * Results, not HTTP: what to replay, or why the call is refused; the HTTP adapter
 * (src/http/payment-adapter.ts) turns a kept answer back into a response and a response into one.
 */
import { declarePaymentIdentifierExtension, isValidPaymentId } from '@x402/extensions/payment-identifier'
import { buildSIWxSchema } from '@x402/extensions/sign-in-with-x'
import { sha256Hex } from '../attest/attestation.ts'
import { STORE_RETRY_AFTER_S } from '../kernel/errors.ts'
import type { Logger } from '../kernel/logger.ts'
import type { AnswerStore, StoredAnswer } from '../store/answers.ts'
import { readPayment } from './payment-header.ts'
import type { Refusal, Replay } from './payments.ts'
import { STALE_OPEN_MS } from './recovery.ts'
import { SIWX_MAX_AGE_MS, verifySignIn } from './sign-in.ts'

/** How long a paid answer is kept for retries and re-fetching. */
export const ANSWER_RETENTION_MS = 24 * 60 * 60_000
/**
 * How long a payment id is held by a run that has not answered yet: longer than any paid call runs
 * (STALE_OPEN_MS), so a run whose instance died (its claim left without an answer) frees the id then,
 * rather than blocking it for ANSWER_RETENTION_MS; a finished answer is kept ANSWER_RETENTION_MS.
 */
export const RUNNING_CLAIM_MS = STALE_OPEN_MS
/** A retry waits at most this long for the first run of its payment id to answer. */
const WAIT_FOR_FIRST_MS = 60_000
const WAIT_POLL_MS = 100

/** What the sign-in-with-x offer asks a wallet to sign. */
export const SIGN_IN_STATEMENT = 'Sign in to fetch again an answer this wallet paid for (no new payment)'

/** What a sign-in-with-x offer carries fresh in every challenge: its nonce and its times. */
export interface SignInFreshness {
  /** 16 random bytes, hex (32 characters). */
  nonce: string
  /** ISO 8601 instants (24 characters). */
  issuedAt: string
  expirationTime: string
}

/** A fresh nonce, issued now and valid SIWX_MAX_AGE_MS. */
export function freshSignIn(now = Date.now()): SignInFreshness {
  return {
    nonce: Buffer.from(crypto.getRandomValues(new Uint8Array(16)).buffer).toString('hex'),
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + SIWX_MAX_AGE_MS).toISOString(),
  }
}

/**
 * Stand-ins for the fresh members, as long as the real ones, for a challenge serialised once and filled
 * per request (`ChallengeTemplate`, challenge.ts): each occurs nowhere else in a challenge.
 */
export const SIGN_IN_SLOTS: SignInFreshness = {
  nonce: '{{sign-in-with-x nonce}}'.padEnd(32, '_'),
  issuedAt: '{{issuedAt}}'.padEnd(24, '_'),
  expirationTime: '{{expirationTime}}'.padEnd(24, '_'),
}

/**
 * The extensions every challenge offers besides discovery: `payment-identifier` (optional: a payment
 * may carry an id) and `sign-in-with-x` for `resourceUrl` on the offered networks (a fresh nonce, valid
 * for SIWX_MAX_AGE_MS: `fresh`).
 */
export function answerExtensions(
  resourceUrl: string,
  networks: readonly string[],
  fresh: SignInFreshness = freshSignIn(),
): Record<string, unknown> {
  const url = new URL(resourceUrl)
  return {
    ...{ 'payment-identifier': declarePaymentIdentifierExtension(false) },
    'sign-in-with-x': {
      info: {
        domain: url.host,
        uri: resourceUrl,
        statement: SIGN_IN_STATEMENT,
        version: '1',
        nonce: fresh.nonce,
        issuedAt: fresh.issuedAt,
        expirationTime: fresh.expirationTime,
        resources: [resourceUrl],
      },
      supportedChains: networks.map((network) => ({
        chainId: network,
        type: network.startsWith('solana:') ? 'ed25519' : 'eip191',
      })),
      schema: buildSIWxSchema(),
    },
  }
}

/** A paid call as the kept answers see it, before its body is validated. */
export interface KeptCall {
  headers: Headers
  /** `METHOD /path`: answers are kept per route. */
  route: string
  /** SHA-256 (hex) of the request body's bytes: an answer is served again only to the same request. */
  requestSha256: string
  /** The resource's full URL, which a sign-in message must name. */
  resourceUrl: string
}

/** The call runs (no answer to serve again); `key` is the payment identifier it holds, if any. */
export interface Run {
  kind: 'run'
  key: string | null
}

/**
 * The payment identifier the call's payment carries (read as the gate reads the payment:
 * `readPayment`), and what it pays for; a malformed id is refused (400 INVALID_REQUEST).
 */
export function paymentIdentifierOf(headers: Headers): { id: string; terms: string } | Refusal | undefined {
  const read = readPayment(headers)
  if (read.kind !== 'payment') return undefined
  const payload = read.payment as unknown as Record<string, unknown>
  const extension = (payload.extensions as Record<string, { info?: { id?: unknown } }> | undefined)?.[
    'payment-identifier'
  ]
  const id = extension?.info?.id
  if (id === undefined) return undefined
  if (typeof id !== 'string' || !isValidPaymentId(id))
    return {
      kind: 'refusal',
      code: 'INVALID_REQUEST',
      message:
        'the payment identifier must be 16 to 128 letters, digits, _ or - (payment-identifier extension): send another',
      details: { field: 'extensions.payment-identifier.info.id' },
    }
  const accepted = (payload.accepted ?? {}) as Record<string, unknown>
  const terms = JSON.stringify([accepted.network, accepted.asset, accepted.payTo, accepted.amount])
  return { id, terms }
}

const normalized = (address: string) => (address.startsWith('0x') ? address.toLowerCase() : address)

/** Where a payer's copy of an answer is kept: per payer, route and exact request body. */
export const payerKey = (payer: string, route: string, requestSha256: string) =>
  `payer:${normalized(payer)}:${route}:${requestSha256}`

/**
 * The store of kept answers did not answer (a shared Redis away) when a caller's payment identifier
 * or sign-in needed it: refused before any payment is taken, so a retry can neither run twice nor pay twice.
 */
function storeDown(what: string, cause: unknown): Refusal {
  return {
    kind: 'refusal',
    code: 'LEDGER_UNAVAILABLE',
    message: `the store of paid answers cannot be reached to ${what}: nothing was charged; retry after Retry-After seconds`,
    retryAfterS: STORE_RETRY_AFTER_S,
    cause,
  }
}

/** Paid answers kept and served again: looked up before a paid call runs, kept after it succeeded. */
export class AnswerKeeper {
  constructor(
    readonly store: AnswerStore,
    /** Where failures to keep an answer are told (the answer itself is delivered regardless). */
    readonly logger?: Logger,
  ) {}

  /**
   * Before a paid call runs: a kept answer to replay (sign-in-with-x, or a payment id seen before), or
   * the call runs holding its payment id (`key`, null without one), or a refusal (a malformed or
   * conflicting id, a sign-in that does not verify, the store away).
   */
  async before(call: KeptCall): Promise<Replay | Run | Refusal> {
    const { route, requestSha256 } = call
    const signIn = call.headers.get('sign-in-with-x')
    if (signIn) {
      const signedIn = await verifySignIn(signIn, call.resourceUrl)
      if (!signedIn.isValid)
        return {
          kind: 'refusal',
          code: 'INVALID_REQUEST',
          message: `the SIGN-IN-WITH-X header does not sign you in (${signedIn.invalidReason}): sign a fresh message from the 402's sign-in-with-x offer`,
          details: { field: 'sign-in-with-x' },
        }
      let answer: StoredAnswer | null
      try {
        answer = await this.store.get(payerKey(signedIn.address, route, requestSha256))
      } catch (error) {
        return storeDown('look up your answer', error)
      }
      if (answer) return { kind: 'replay', answer, how: 'sign-in-with-x' }
      // Signed in, but no answer of theirs to this request: pay as anyone would.
    }
    const identified = paymentIdentifierOf(call.headers)
    if (!identified) return { kind: 'run', key: null }
    if ('kind' in identified) return identified
    const key = `pid:${route}:${identified.id}`
    const fingerprint = sha256Hex(`${route}\n${requestSha256}\n${identified.terms}`)
    const deadline = Date.now() + WAIT_FOR_FIRST_MS
    for (;;) {
      let claim: Awaited<ReturnType<AnswerStore['claim']>>
      try {
        claim = await this.store.claim(key, fingerprint, RUNNING_CLAIM_MS)
      } catch (error) {
        return storeDown('hold your payment identifier', error)
      }
      if (claim.claimed) return { kind: 'run', key }
      if (claim.fingerprint !== fingerprint)
        return { kind: 'refusal', code: 'PAYMENT_ID_CONFLICT', details: { payment_id: identified.id } }
      if (claim.answer) return { kind: 'replay', answer: claim.answer, how: 'payment-identifier' }
      if (Date.now() > deadline)
        return {
          kind: 'refusal',
          code: 'PAYMENT_ID_CONFLICT',
          message: 'the first call with this payment identifier is still running: retry in a few seconds',
          details: { payment_id: identified.id },
        }
      await sleep(WAIT_POLL_MS)
    }
  }

  /**
   * After a paid call succeeded: its answer kept under its payment id and for its payer (the one its
   * receipt names). Never throws: the call is paid, so its answer goes out even when it cannot be kept
   * (the store away); a retry with the same identifier then finds the claim expired or held, never a
   * second charge.
   */
  async kept(key: string | null, call: KeptCall, answer: StoredAnswer, payer: string | null): Promise<void> {
    try {
      if (key) await this.store.finish(key, answer, ANSWER_RETENTION_MS)
      if (payer) await this.store.put(payerKey(payer, call.route, call.requestSha256), answer, ANSWER_RETENTION_MS)
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'a paid answer could not be kept: delivered anyway')
    }
  }

  /** After a paid call that did not succeed: its payment id is free again (once the store answers: it expires anyway). */
  async failed(key: string | null): Promise<void> {
    if (!key) return
    await this.store.release(key).catch((error: Error) => {
      this.logger?.warn(
        { err: error.message },
        'a payment identifier could not be freed: it expires with its retention',
      )
    })
  }
}
