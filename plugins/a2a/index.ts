import { type AgentCard, Extensions, type Task, TaskState } from '@a2a-js/sdk'
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
import { callerOf, forwardedHeaders, publicOrigin } from '../../src/http/request.ts'
import { routeOptions } from '../../src/http/route-options.ts'
import { TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors'
import { A2A_CAPABILITIES, A2A_LEGACY_VERSION, a2aInterfaces } from '../../src/kernel/a2a.ts'
import { SERVICE_VERSION } from '../../src/kernel/version.ts'
import { a2aExecutor, CALLER, type Caller, type Dispatch, pendingOn, RUN, type Run } from './executor.ts'
import { manifest } from './manifest.ts'
import { PAYMENT_PAYLOAD } from './x402-extension.ts'
import {
  BoundedTaskStore,
  localClaims,
  localOwners,
  paymentMoved,
  SharedTaskStore,
  sharedClaims,
  sharedOwners,
} from './task-store.ts'

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
  const tasks = shared ? new SharedTaskStore(ctx.store.answers) : new BoundedTaskStore()
  const owners = shared ? sharedOwners(ctx.store.answers) : localOwners()
  const isPending = async (taskId: string) => {
    const task = await tasks.load(taskId, UNSCOPED).catch(() => undefined)
    return task !== undefined && pendingOn(task)
  }
  const handler = new DefaultRequestHandler(
    serverCard(),
    tasks,
    a2aExecutor(ctx.registry, dispatch, { owners, isPending }),
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
          headers: forwardedHeaders(request),
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
        const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null
        const named = messageTaskOf(body, isLegacy)
        const asked = taskIdOf(body)
        if (!asked.ok)
          return json({ jsonrpc: '2.0', id: rpcId, error: { code: -32602, message: asked.reason } }, context, isLegacy)
        if (!named.ok)
          return json({ jsonrpc: '2.0', id: rpcId, error: { code: -32602, message: named.reason } }, context, isLegacy)
        const taskId = named.taskId
        // The run a message on an existing task starts: its claim on the task is held until the run ends.
        const run = runOf()
        context.state.set(RUN, run)
        let claimed = false
        const cancelled = cancelledTask(body)
        let answer: unknown
        try {
          validateVersion(context.requestedVersion, await handler.getAgentCard(), 'JSONRPC')
          if (taskId !== undefined) {
            // One message at a time on a task, held until its run ends: a second payment (a retry with a
            // fresh signature) is refused unused, so one call is never paid twice, and a message without
            // payment never takes over the event bus of a paid call that is running (its answer would be lost).
            if (!(await claims.claim(taskId))) throw new UnsupportedOperationError(running(taskId))
            claimed = true
            const stored = await tasks.load(taskId, context)
            if (!stored) throw new TaskNotFoundError(gone(taskId))
            const state = stored.status?.state
            if (state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED)
              throw new UnsupportedOperationError(running(taskId))
          }
          // Only a task waiting for its payment, unpaid, is cancelled. The SDK cancels any task whose event bus it
          // does not find — a run on another instance, one whose instance died, or one it looks up under a
          // tenant (A2A 1.0's params.tenant: the tasks are not kept per tenant, so it is ignored here too) — and
          // would mark a paid one cancelled, losing the payer's answer while the money moves. The task's claim
          // is held meanwhile, so no payment message starts on it between this check and the cancellation.
          if (cancelled !== undefined) {
            claimed = await claims.claim(cancelled)
            const stored = await tasks.load(cancelled, context)
            const refused = (stored ? notCancelable(stored) : undefined) ?? (claimed ? undefined : 'busy')
            if (refused) throw new TaskNotCancelableError(notCancelled(cancelled, refused))
          }
          // The front door read the body already (its size, media type and JSON checked there).
          answer = await (isLegacy ? legacy : current).handle(body as Record<string, unknown>, context)
        } catch (error) {
          const mapped = isLegacy
            ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
            : JsonRpcTransportHandler.mapToJSONRPCError(error)
          answer = { jsonrpc: '2.0', id: rpcId, error: mapped }
        } finally {
          if (claimed && cancelled !== undefined) await claims.release(cancelled).catch(() => undefined)
          else if (claimed && taskId !== undefined) {
            const release = () => claims.release(taskId).catch(() => undefined)
            if (run.started) void run.ended.then(release)
            else await release()
          }
        }
        // The transports answer an unknown task as "Task not found": say how a payment sent for it is collected.
        const refused = (answer as { error?: { message?: unknown } } | null)?.error
        if (
          refused &&
          typeof refused.message === 'string' &&
          /^Task not found:/.test(refused.message) &&
          !refused.message.includes('tasks are kept')
        )
          refused.message = gone(taskId ?? idOf(body) ?? refused.message.replace(/^Task not found:\s*/, ''))
        if (isAsyncIterable(answer)) {
          // Streaming is not offered (the card says so); the SDK refuses it first, this is a backstop.
          await answer[Symbol.asyncIterator]().return?.(undefined)
          answer = { jsonrpc: '2.0', id: null, error: { code: -32004, message: 'streaming is not supported' } }
        }
        return json(answer, context, isLegacy)
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
    capabilities: A2A_CAPABILITIES,
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: json,
    defaultOutputModes: json,
    skills: [],
    signatures: [],
  }
}

/**
 * The task a message/send (SendMessage) names, read as the SDK reads it: A2A 1.0's parser takes `taskId`,
 * else proto JSON's `task_id`; 0.3's takes `taskId`. An id that is not a string is refused here (the SDK
 * would take `String(id)`, or fail on it).
 */
export function messageTaskOf(
  body: unknown,
  isLegacy: boolean,
): { ok: true; taskId: string | undefined } | { ok: false; reason: string } {
  const { method, params } = (body ?? {}) as { method?: unknown; params?: { message?: unknown } }
  if (method !== 'message/send' && method !== 'SendMessage') return { ok: true, taskId: undefined }
  const message = params?.message
  if (typeof message !== 'object' || message === null) return { ok: true, taskId: undefined }
  const { taskId, task_id } = message as { taskId?: unknown; task_id?: unknown }
  const named = taskId ?? (isLegacy ? undefined : task_id)
  if (named === undefined || named === null || named === '') return { ok: true, taskId: undefined }
  if (typeof named !== 'string')
    return {
      ok: false,
      reason: "Invalid params: message.taskId is a task's id, a string (tasks/get reads a task by it)",
    }
  return { ok: true, taskId: named }
}

/** The methods that name a task by `params.id`: tasks/get and tasks/cancel, in both versions. */
const TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'GetTask', 'CancelTask'])

/**
 * The task a tasks/get or tasks/cancel names (`params.id`), checked before the SDK reads it: params that
 * are not an object, or an id that is not a non-empty string, are Invalid params with what to send (the SDK
 * would fail on them as an internal error).
 */
export function taskIdOf(body: unknown): { ok: true } | { ok: false; reason: string } {
  const { method, params } = (body ?? {}) as { method?: unknown; params?: unknown }
  if (typeof method !== 'string' || !TASK_METHODS.has(method)) return { ok: true }
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return { ok: false, reason: `Invalid params: ${method} takes an object, { "id": "<task id>" }` }
  const { id } = params as { id?: unknown }
  if (typeof id !== 'string' || id.trim() === '')
    return { ok: false, reason: `Invalid params: ${method} needs params.id, the task's id as a string` }
  return { ok: true }
}

/** The context tasks are read in outside a request (tasks are not kept per tenant or user). */
const UNSCOPED = new ServerCallContext()

/** The task a tasks/cancel (CancelTask) names, if the request is one. */
function cancelledTask(body: unknown): string | undefined {
  const { method } = (body ?? {}) as { method?: unknown }
  return method === 'tasks/cancel' || method === 'CancelTask' ? idOf(body) : undefined
}

/**
 * Why a task may not be cancelled, if so: its paid call running (or its first call), its settlement pending,
 * or its payment moved. Terminal tasks are the SDK's to answer (cancelled: as it is; others: not cancelable).
 */
function notCancelable(task: Task): 'running' | 'pending' | 'paid' | undefined {
  const state = task.status?.state
  if (state === TaskState.TASK_STATE_WORKING || state === TaskState.TASK_STATE_SUBMITTED) return 'running'
  if (state !== TaskState.TASK_STATE_INPUT_REQUIRED) return undefined
  if (pendingOn(task)) return 'pending'
  return paymentMoved(task) ? 'paid' : undefined
}

/** What a refused tasks/cancel says, by why. */
function notCancelled(taskId: string, why: 'running' | 'pending' | 'paid' | 'busy'): string {
  const reasons = {
    running: `task ${taskId} is running its paid call, which runs to its end: tasks/get (GetTask) reads its outcome`,
    pending:
      `task ${taskId} is paid: its payment's settlement is pending, and only a task waiting for its payment, unpaid, ` +
      `is cancelled. Send the same payload (metadata["${PAYMENT_PAYLOAD}"]) again on it to receive the answer`,
    paid: `task ${taskId} is paid: only a task waiting for its payment, unpaid, is cancelled; tasks/get (GetTask) reads it`,
    busy: `a message on task ${taskId} is being handled (its payment may be running): tasks/get (GetTask) reads its outcome`,
  }
  return reasons[why]
}

/** What a message on a task whose call is running is told (nothing of it was used). */
function running(taskId: string): string {
  return (
    `a paid call is running on task ${taskId}: read its outcome with tasks/get (GetTask); ` +
    'this message was not used, and a payment it carried was not taken. A task left working after its call ' +
    'can have ended (the instance running it stopped) is collected as the HTTP path collects it: send the same ' +
    `payload (metadata["${PAYMENT_PAYLOAD}"]) on a new task — a message without taskId naming the same skill with ` +
    'the same input —: a payment never settled is taken once, one whose settlement was sent is read from the ' +
    'chain and that call answered, charged once'
  )
}

/** What a message or tasks/get naming an unknown (or expired) task is told: how a payment sent for it is collected. */
export function gone(taskId: string): string {
  return (
    `Task not found: ${taskId} (tasks are kept an hour after their last change). A payment whose settlement was ` +
    `pending is not lost: send the same payload (metadata["${PAYMENT_PAYLOAD}"]) on a new task — a message without ` +
    'taskId naming the same skill with the same input — and once the chain shows it, it receives that answer, charged once'
  )
}

/** The task id of a tasks/get or tasks/cancel request (params.id), if any. */
function idOf(body: unknown): string | undefined {
  const id = (body as { params?: { id?: unknown } } | null)?.params?.id
  return typeof id === 'string' ? id : undefined
}

/** A run's life as the executor tells it (executor.ts): whether it started, and when it ended. */
function runOf(): Run {
  let end = () => {}
  const ended = new Promise<void>((resolve) => {
    end = resolve
  })
  return { started: false, ended, end }
}

/** The JSON-RPC answer, with the activated extension echoed in the header of the version spoken. */
function json(answer: unknown, context: ServerCallContext, isLegacy: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const activated = context.activatedExtensions
  if (activated && activated.length > 0)
    headers[isLegacy ? 'x-a2a-extensions' : 'a2a-extensions'] = Extensions.toServiceParameter(activated)
  return new Response(JSON.stringify(answer), { status: 200, headers })
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> & AsyncIterator<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value
}
