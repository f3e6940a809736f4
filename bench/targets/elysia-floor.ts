// Bench reference: Elysia 1.4 with the same hook set as the service core — two request hooks (response
// headers, the client address), a JSON parser, an address check in transform that throws, after-handle
// and after-response hooks, an error hook, per-status response schemas, a before-handle — each doing
// the least it can. The gap from the bare server is the framework's; the gap from here is our code's.
import { Elysia, t } from 'elysia'
import { RUNTIME } from '../../src/runtime/runtime.ts'
import { listen } from '../../src/runtime/serve.ts'
import { HEALTH, INVALID } from './answers.ts'

const ErrorBody = t.Object(
  { error: t.Boolean(), code: t.String(), message: t.String() },
  { additionalProperties: true },
)
const errors = { 400: ErrorBody, 402: ErrorBody, 429: ErrorBody, 500: ErrorBody, 503: ErrorBody }

const app = new Elysia()
  .onRequest(({ set }) => {
    set.headers['x-request-id'] = crypto.randomUUID()
    set.headers['x-content-type-options'] = 'nosniff'
  })
  .onRequest(({ request, server }) => {
    if (request.method === 'POST') server?.requestIP(request)
  })
  .onParse({ as: 'global' }, async ({ request }) => JSON.parse(new TextDecoder().decode(await request.arrayBuffer())))
  .onTransform({ as: 'global' }, ({ body }) => {
    if ((body as { token_address?: string } | undefined)?.token_address === 'BONK') throw new Error('INVALID_ADDRESS')
  })
  .onAfterHandle({ as: 'global' }, () => {})
  .onAfterResponse({ as: 'global' }, () => {})
  .onError({ as: 'global' }, ({ set }) => {
    set.status = 400
    set.headers['content-type'] = 'application/json'
    return INVALID
  })
  .get('/health', () => HEALTH)
  .post('/fixture/scan', ({ body }) => ({ token_address: body.token_address }), {
    body: t.Object({ token_address: t.String() }),
    response: { 200: t.Object({ token_address: t.String() }), ...errors },
    parse: 'json',
    beforeHandle: [() => {}],
  })

// On Bun, Elysia's own listen (Bun.serve with its routes); on Deno, whose Elysia has no listen, its
// web-standard handler on Deno.serve, as the service runs there.
function serve(): { port: number; stop(force: boolean): Promise<void> } {
  if (RUNTIME !== 'bun')
    return listen({ hostname: '127.0.0.1', port: 0, idleTimeoutS: 30, fetch: async (request) => app.fetch(request) })
  app.listen({ hostname: '127.0.0.1', port: 0 })
  return { port: app.server!.port!, stop: async (force) => void (await app.stop(force)) }
}
const served = serve()

console.error(`READY http://127.0.0.1:${served.port}`)
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage()
  console.error(`CPU ${user + system}`)
  served.stop(false).then(() => process.exit(0))
})
