import { type AgentCard, Extensions } from '@a2a-js/sdk'
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server'
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  STATE_HEADERS_KEY,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { metaOf, publicOrigin, type SocketServer } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { UnsupportedOperationError } from '@a2a-js/sdk/errors'
import { A2A_LEGACY_VERSION, a2aInterfaces, X402_EXTENSION } from '../../src/kernel/a2a.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'
import { a2aExecutor, CALLER, type Caller, type Dispatch } from './executor.ts'
import { manifest } from './manifest.ts'
import { PAYMENT_PAYLOAD } from './x402-extension.ts'
import { BoundedTaskStore, localClaims, SharedTaskStore, sharedClaims } from './task-store.ts'

export { manifest }

/**
 * The A2A server at `/a2a`: the JSON-RPC binding of the official `@a2a-js/sdk` — its request handler
 * (tasks, history, the required extension's check, cancellation) and its JSON-RPC transport handlers,
 * A2A 1.0 (`SendMessage`, `GetTask`, `CancelTask`) and 0.3 (`message/send`, `tasks/get`, `tasks/cancel`),
 * chosen by the `A2A-Version` header as the SDK's own Express handler chooses — mounted here as a
 * web-standard handler. No streaming, no push notifications. Each message runs a skill through the
 * executor (executor.ts): its route's HTTP call through the front door, paid by the A2A x402 extension.
 */
export function a2aPlugin(ctx: ServiceContext, dispatch: Dispatch) {
  ctx.registry.register(manifest)
  const { routes } = manifest
  // Several instances (Redis) share their tasks and payment claims; a single one keeps them in memory.
  const shared = ctx.store.kind === 'redis'
  const claims = shared ? sharedClaims(ctx.store.answers) : localClaims()
  const handler = new DefaultRequestHandler(
    serverCard(),
    shared ? new SharedTaskStore(ctx.store.answers) : new BoundedTaskStore(),
    a2aExecutor(ctx.registry, dispatch),
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    // A task waiting for payment keeps no event bus: the payment's message starts a new one.
    { keepBusAliveStates: [] },
  )
  const current = new JsonRpcTransportHandler(handler)
  const legacy = new LegacyJsonRpcTransportHandler(handler)

  return new Elysia({ name: 'plugin:a2a' })
    .get(
      routes.get.path,
      function a2aGet({ request }) {
        const card = `${publicOrigin(ctx, request)}/.well-known/agent-card.json`
        const body = {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: `Method not allowed: POST A2A JSON-RPC requests here; the agent card is ${card}`,
          },
        }
        return new Response(JSON.stringify(body), {
          status: 405,
          headers: { allow: 'POST', 'content-type': 'application/json' },
        })
      },
      routeOptions(ctx, routes.get),
    )
    .post(
      routes.call.path,
      async function a2aRoute({ request, body }) {
        const version = request.headers.get('a2a-version') ?? undefined
        const isLegacy = (version ?? A2A_LEGACY_VERSION) === A2A_LEGACY_VERSION
        // The extension spec (§8) names X-A2A-Extensions; A2A 1.0 names A2A-Extensions: either activates.
        const extensions = request.headers.get('a2a-extensions') ?? request.headers.get('x-a2a-extensions') ?? undefined
        const caller: Caller = {
          origin: publicOrigin(ctx, request),
          server: callerOf(request),
          headers: forwarded(request),
        }
        const context = new ServerCallContext({
          requestedExtensions: Extensions.parseServiceParameter(extensions),
          user: new UnauthenticatedUser(),
          requestedVersion: version,
          state: new Map<string, unknown>([
            [STATE_HEADERS_KEY, Object.fromEntries(request.headers)],
            [CALLER, caller],
          ]),
        })
        const id = (body as { id?: unknown }).id
        const paidTask = paymentTaskOf(body)
        let claimed = false
        let answer: unknown
        try {
          validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC')
          // A second payment sent on a task while one is processed (a client's retry with a fresh signature)
          // is refused before it reaches the task, so one call is never paid twice; once the first is
          // processed the task is terminal and the SDK refuses any further message.
          if (paidTask !== undefined) {
            if (!(await claims.claim(paidTask)))
              throw new UnsupportedOperationError(
                `a payment for task ${paidTask} is being processed: tasks/get reads its outcome; this payment was not used`,
              )
            claimed = true
          }
          // The front door read the body already (its size, media type and JSON checked there).
          answer = await (isLegacy ? legacy : current).handle(body as Record<string, unknown>, context)
        } catch (error) {
          const mapped = isLegacy
            ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
            : JsonRpcTransportHandler.mapToJSONRPCError(error)
          answer = { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: mapped }
        } finally {
          if (claimed && paidTask !== undefined) await claims.release(paidTask)
        }
        if (isAsyncIterable(answer)) {
          // Streaming is not offered (the card says so); the SDK refuses it first, this is a backstop.
          await answer[Symbol.asyncIterator]().return?.(undefined)
          answer = { jsonrpc: '2.0', id: null, error: { code: -32004, message: 'streaming is not supported' } }
        }
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        const activated = context.activatedExtensions
        if (activated && activated.length > 0)
          headers[isLegacy ? 'x-a2a-extensions' : 'a2a-extensions'] = Extensions.toServiceParameter(activated)
        return new Response(JSON.stringify(answer), { status: 200, headers })
      },
      routeOptions(ctx, routes.call),
    )
}

a2aPlugin.manifest = manifest

/**
 * The card the SDK's handler checks requests against: the interfaces it serves (for the version asked)
 * and the required extension. The published card is discovery's (plugins/discovery/agent-card.ts), built
 * from the same declarations (src/kernel/a2a.ts).
 */
function serverCard(): AgentCard {
  const json = ['application/json']
  return {
    name: 'solsentry',
    description: 'solsentry: the published card is /.well-known/agent-card.json',
    supportedInterfaces: a2aInterfaces(''),
    provider: undefined,
    version: SERVICE_VERSION,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [X402_EXTENSION],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: json,
    defaultOutputModes: json,
    skills: [],
    signatures: [],
  }
}

/** The headers a call's HTTP request keeps from the A2A request: the proxy's client address. */
function forwarded(outer: Request): Record<string, string> {
  const via = outer.headers.get('x-forwarded-for')
  return via === null ? {} : { 'x-forwarded-for': via }
}

/** The A2A caller's socket address, for the call's rate limit. */
function callerOf(outer: Request): SocketServer {
  const { server } = metaOf(outer)
  return { requestIP: () => server?.requestIP(outer) ?? null }
}

/** The task a message/send (SendMessage) request pays for: its message's taskId when it carries a payload. */
function paymentTaskOf(body: unknown): string | undefined {
  const { method, params } = body as {
    method?: unknown
    params?: { message?: { taskId?: unknown; metadata?: unknown } }
  }
  if (method !== 'message/send' && method !== 'SendMessage') return undefined
  const message = params?.message
  const metadata = message?.metadata as Record<string, unknown> | undefined
  if (typeof message?.taskId !== 'string' || message.taskId === '' || metadata?.[PAYMENT_PAYLOAD] === undefined)
    return undefined
  return message.taskId
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> & AsyncIterator<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value
}
