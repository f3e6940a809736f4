/**
 * `SIGN-IN-WITH-X` (CAIP-122, the x402 `sign-in-with-x` extension): the wallet a header proves, with
 * the official `@x402/extensions`. One verifier for every use: a payer fetching its paid answer again
 * (answers.ts) and a wallet re-quoting its own trade job (plugins/trade, docs/trade.md "Job ownership").
 */
import { parseSIWxHeader, validateSIWxMessage, verifySIWxSignature } from '@x402/extensions/sign-in-with-x'

/**
 * A sign-in message issued longer ago than this is refused (its issuedAt): a header seen once cannot
 * be played again for long, and a wallet signs a fresh one in a second.
 */
export const SIWX_MAX_AGE_MS = 5 * 60_000

/** What a header proves for one resource: the signing wallet, or why it proves nothing (never thrown). */
export type SignIn = { isValid: true; address: string } | { isValid: false; invalidReason: string }

/**
 * The wallet a `SIGN-IN-WITH-X` header proves for `resourceUrl` (built as the payment code builds it:
 * `publicOrigin` + the route's path): the message's domain is the URL's host, its uri names the URL
 * itself (not only its origin: a sign-in for one route is not one for another), it was issued within
 * SIWX_MAX_AGE_MS and has not expired, and its signature holds. A malformed header is an invalid one.
 */
export async function verifySignIn(header: string, resourceUrl: string): Promise<SignIn> {
  try {
    const payload = parseSIWxHeader(header)
    const resource = new URL(resourceUrl)
    const valid = await validateSIWxMessage(payload, resource, { maxAge: SIWX_MAX_AGE_MS })
    if (!valid.isValid) return { isValid: false, invalidReason: valid.invalidMessage }
    // validateSIWxMessage checks the uri's origin only.
    const uri = new URL(payload.uri)
    if (uri.pathname !== resource.pathname)
      return { isValid: false, invalidReason: `the message is for ${uri.pathname}, not ${resource.pathname}` }
    const verified = await verifySIWxSignature(payload)
    if (!verified.isValid) return { isValid: false, invalidReason: verified.invalidMessage }
    return { isValid: true, address: verified.payer }
  } catch (error) {
    return { isValid: false, invalidReason: (error as Error).message }
  }
}
