/**
 * A watch's alerts as an MCP resource (docs/watch.md, "MCP"): `solsentry://watch/<id>` reads the watch
 * and its latest events (`?after_seq=N`: only the events after the N-th), through the service's own
 * `GET /watch/:id` — so the same sign-in holds: the payer's SIGN-IN-WITH-X for that route's URL, carried
 * in the read's `_meta["solsentry/sign-in-with-x"]` (an MCP client sends no headers of its own per call).
 * This server is stateless (each request POSTed and answered in its response, no GET stream), so it
 * cannot push `notifications/resources/updated`: a client polls the resource with `after_seq`.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'

/** The resource template of a watch's alerts. */
export const WATCH_RESOURCE_TEMPLATE = {
  uriTemplate: 'solsentry://watch/{watch_id}',
  name: 'watch',
  title: 'A watch’s alerts',
  description:
    'A watch bought with sol_watch: its state and latest alerts (each with its seq; ?after_seq=N gives only later ones). Read it with the paying wallet’s SIGN-IN-WITH-X for <origin>/watch/<watch_id> in _meta["solsentry/sign-in-with-x"]. Poll it: this stateless server sends no notifications.',
  mimeType: 'application/json',
}

/** The read's `_meta` key carrying the payer's sign-in (the SIGN-IN-WITH-X header's value). */
export const SIGN_IN_META = 'solsentry/sign-in-with-x'

const WATCH_URI = /^solsentry:\/\/watch\/([A-Za-z0-9_-]{1,64})(?:\?after_seq=(\d{1,12}))?$/

/** The resource's watch id and `after_seq`, or an MCP error saying what a watch's URI looks like. */
export function watchUriOf(uri: string): { id: string; afterSeq: number } {
  const match = WATCH_URI.exec(uri)
  if (!match)
    throw new McpError(
      ErrorCode.InvalidParams,
      `unknown resource ${uri}: a watch is solsentry://watch/<watch_id>, optionally ?after_seq=<n>`,
    )
  return { id: match[1]!, afterSeq: match[2] === undefined ? 0 : Number(match[2]) }
}

/** GET /watch/:id as the front door takes it, with the sign-in the read carried. */
export function watchReadRequest(
  id: string,
  origin: string,
  meta: Record<string, unknown> | undefined,
  headers: Record<string, string>,
): Request {
  const signIn = meta?.[SIGN_IN_META]
  return new Request(`${origin}/watch/${id}`, {
    headers: { ...headers, ...(typeof signIn === 'string' ? { 'sign-in-with-x': signIn } : {}) },
  })
}

/**
 * The resource's contents from GET /watch/:id's answer: the watch and its events after `afterSeq`; a
 * refusal (no sign-in, another wallet, no such watch) as an MCP error carrying the route's words.
 */
export async function watchContents(uri: string, afterSeq: number, response: Response) {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (response.status !== 200) {
    const code = response.status === 404 ? -32002 : ErrorCode.InvalidRequest
    throw new McpError(code, `${response.status} ${String(body.error ?? '')}: ${String(body.message ?? 'refused')}`, {
      status: response.status,
      ...body,
    })
  }
  const events = (body.events as { seq: number }[]).filter((item) => item.seq > afterSeq)
  const { stream_token: _token, ...watch } = body
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ ...watch, events }) }] }
}
