import { ApiError } from '../kernel/errors.ts'

/** Largest request body accepted (JSON requests here are a few hundred bytes). */
export const MAX_BODY_BYTES = 16 * 1024

/** One strict decoder for every body: decoding a whole buffer keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true })

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** Rejects a declared Content-Length over the limit before any byte of the body is read. */
export function checkDeclaredLength(request: Request): void {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
}

/**
 * Reads a JSON request body: at most MAX_BODY_BYTES (also when chunked, without a Content-Length),
 * `application/json` (or `+json`) unless the body is empty, valid UTF-8 and valid JSON.
 * An empty body reads as `{}`, so a missing field is reported by validation as missing.
 */
export function readJsonBody(
  request: Request,
  contentType: string,
  /** Sees the body's exact bytes before they are parsed (a paid route's attestation hashes them). */
  keep?: (bytes: Uint8Array) => void,
): Promise<unknown> {
  const parse = (bytes: Uint8Array) => {
    keep?.(bytes)
    return parseJsonBytes(bytes, contentType)
  }
  // With a Content-Length (already checked against the limit) HTTP framing bounds the body: read it at
  // once, one promise and no async frames (this runs on every request with a body). Touching
  // `request.body` would materialise a ReadableStream, which costs more than the read.
  if (request.headers.has('content-length')) return request.bytes().then(parse)
  return readChunked(request).then(parse)
}

function parseJsonBytes(bytes: Uint8Array, contentType: string): unknown {
  if (bytes.length === 0) return {}
  if (!JSON_MEDIA_TYPE.test(contentType))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Content-Type ${contentType ? `"${contentType}"` : 'is missing'}: send the body as JSON with Content-Type: application/json`,
      details: { content_type: contentType || null },
    })
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    throw new ApiError('INVALID_JSON', { message: 'the request body is not valid UTF-8: send UTF-8 encoded JSON' })
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ApiError('INVALID_JSON', {
      message: `the request body is not valid JSON (${(error as Error).message}): send a JSON object such as {"token_address": "<mint>"}`,
    })
  }
}

/** A body without a Content-Length (chunked), read up to MAX_BODY_BYTES. */
async function readChunked(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_BODY_BYTES) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

function tooLarge(): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', {
    message: `the request body is larger than ${MAX_BODY_BYTES} bytes: send only the documented JSON fields`,
    details: { limit_bytes: MAX_BODY_BYTES },
  })
}
