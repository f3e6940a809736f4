/**
 * The A2A agent executor: one task per call of a skill. A skill is an offered route (src/kernel/catalogue.ts);
 * its call runs as that route's HTTP request through the service's front door — same validation, rate
 * limit, price, gate, ledger, settle-after-success and attestation as HTTP, MCP and ACP — and its HTTP
 * answer is mapped to the task by the A2A x402 extension (x402-extension.ts): a 402 to `input-required`
 * with the requirements, a paid 2xx to `completed` with the answer as an artifact and the receipt, a
 * refusal or a failed call to `failed` with `payment-failed` (nothing charged: the gate released it).
 */
import { createHash, randomUUID } from 'node:crypto'
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk'
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server'
import { TaskNotCancelableError } from '@a2a-js/sdk/errors'
import type { SocketServer } from '../../src/http/request.ts'
import { X402_EXTENSION_URI } from '../../src/kernel/a2a.ts'
import type { Offering } from '../../src/kernel/catalogue.ts'
import { priceInWords, type Registry } from '../../src/kernel/manifest.ts'
import type { PaymentV2 } from '../../src/payments/payment-header.ts'
import { paymentKey } from '../../src/payments/payment-key.ts'
import {
  ATTESTATION,
  CALL,
  PAID_TASK,
  PAID_WITH,
  PAYMENT_ERROR,
  PAYMENT_PAYLOAD,
  PAYMENT_RECEIPTS,
  PAYMENT_REQUIRED,
  PAYMENT_STATUS,
  type PaymentStatus,
  payloadNetwork,
  type Receipt,
  refusalCode,
  SETTLEMENT,
} from './x402-extension.ts'
import { type Call, readCall, skillsOf } from './skills.ts'
import type { PaymentOwner, PaymentOwners } from './task-store.ts'

/** Answers one HTTP request through the service's front door (what `Service.handle` does). */
export type Dispatch = (request: Request, server: SocketServer) => Promise<Response>

/** What the A2A route knows of the HTTP request a call came in: for the call's own HTTP request. */
export interface Caller {
  /** The service's public origin, as the route's URL. */
  origin: string
  /** The caller's socket address (rate limits hold the caller, not the A2A endpoint). */
  server: SocketServer
  /** Headers the call keeps (a proxy's client address). */
  headers: Record<string, string>
}

/** The key of the Caller in the ServerCallContext's state. */
export const CALLER = 'solsentry.caller'

/** A message's run, as the A2A route holds its claim on the task until it ends (index.ts). */
export interface Run {
  started: boolean
  ended: Promise<void>
  end(): void
}
/** The key of the Run in the ServerCallContext's state. */
export const RUN = 'solsentry.run'

/** What a paid skill called without payment says to do over A2A (the HTTP challenge names headers). */
export const A2A_PAYMENT_REQUIRED =
  `payment required: sign a payment for one of the offers (accepts[]) and send it on this task (message.taskId) in metadata["${PAYMENT_PAYLOAD}"] ` +
  `with metadata["${PAYMENT_STATUS}"] = "payment-submitted"`

/** What the executor reads of the tasks beside its own: which task owns a payment, and whether a task waits for its settlement. */
export interface Ownership {
  owners: PaymentOwners
  /** Whether the task `taskId` (kept, any instance) is waiting for its payment's settlement (`pendingOn`). */
  isPending(taskId: string): Promise<boolean>
}

/**
 * The agent executor over `dispatch`; `registry` names the skills (read on first use: every plugin has
 * registered); `ownership` which task a payment whose money moved belongs to.
 */
export function a2aExecutor(registry: Registry, dispatch: Dispatch, ownership: Ownership): AgentExecutor {
  const { owners } = ownership
  let skills: Map<string, Offering> | undefined
  const skillList = () => (skills ??= skillsOf(registry))

  return {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const run = request.context.state.get(RUN) as Run | undefined
      if (run) run.started = true
      try {
        await execute(request, bus)
      } finally {
        run?.end()
      }
    },

    async cancelTask(taskId: string): Promise<void> {
      // Only a call in progress has a live bus (tasks waiting for payment are cancelled by the SDK itself):
      // its HTTP request runs to its end — settled on success — so it cannot be stopped halfway.
      throw new TaskNotCancelableError(`task ${taskId} is running its paid call, which runs to its end`)
    },
  }

  async function execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    // The SDK refused a message that does not activate the required extension; this one did.
    request.context.addActivatedExtension(X402_EXTENSION_URI)
    const caller = request.context.state.get(CALLER) as Caller
    const { userMessage, taskId, contextId } = request
    const said = userMessage.metadata ?? {}
    const existing = request.task
    const events = new TaskEvents(bus, taskId, contextId)
    const payment = said[PAYMENT_PAYLOAD]
    const paying = payment !== undefined && payment !== null

    if (!existing) {
      const read = readCall(userMessage, skillList())
      // A paid first message: the task starts `working` (its first event is what returnImmediately answers).
      events.begin({
        id: taskId,
        contextId,
        status:
          read.ok && paying
            ? events.workingStatus()
            : { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [],
        history: [userMessage],
        metadata: read.ok ? { [CALL]: read.call, ...(paying ? { [PAID_WITH]: paymentId(payment) } : {}) } : {},
      })
      if (!read.ok) {
        const { reason, skill, missing } = read
        // A recognised skill missing members says which (machine-readable beside the words).
        const said = { error: true, code: 'INVALID_REQUEST', message: reason, ...(skill ? { skill } : {}) }
        return events.fail(reason, missing ? { ...said, missing } : said)
      }
      return answer(read.call, read.offering, paying ? payment : undefined, events, caller)
    }

    // index.ts lets through only messages on a task waiting for input (one at a time): a task whose call
    // runs keeps its event bus to itself, so its answer is never lost.
    if (existing.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return
    const call = existing.metadata?.[CALL] as Call | undefined
    const offering = call ? skillList().get(call.skill) : undefined
    if (!call || !offering) {
      events.begin(existing)
      return events.fail('this task holds no call to pay for', undefined)
    }
    // A task whose settlement is pending waits for its own payment and nothing else: any other message —
    // none, another payment, a rejection — is answered the pending status again, unused. New requirements
    // there would have a client that pays what it is asked pay twice for one call.
    const waitingFor = existing.metadata?.[PAID_WITH]
    if (pendingOn(existing) && !(paying && (waitingFor === undefined || waitingFor === paymentId(payment)))) {
      events.begin(existing)
      return events.stillPending(existing, paying)
    }
    if (said[PAYMENT_STATUS] === 'payment-rejected') {
      events.begin(existing)
      return events.end(TaskState.TASK_STATE_FAILED, 'The payment requirements were rejected: nothing was charged.', {
        [PAYMENT_STATUS]: 'payment-rejected',
      })
    }
    // Paid: the task `working` from its first event on (payment-submitted), never its old requirements.
    events.begin(
      paying
        ? {
            ...existing,
            status: events.workingStatus(),
            metadata: { ...existing.metadata, [PAID_WITH]: paymentId(payment) },
          }
        : existing,
    )
    return answer(call, offering, paying ? payment : undefined, events, caller)
  }

  /** Runs the call (with its payment, if any) and ends the task as its HTTP answer says. */
  async function answer(call: Call, offering: Offering, payment: unknown, events: TaskEvents, caller: Caller) {
    const paid = payment !== undefined
    const key = paid ? paymentId(payment) : undefined
    const mine: PaymentOwner = { taskId: events.taskId, call: callId(call) }
    const response = await dispatch(
      httpRequest(offering, call.input, caller, paid ? payment : undefined),
      caller.server,
    )
    const text = await response.text()
    const body = parse(text)
    const challenge = response.headers.get('payment-required')

    if (response.status === 402 && challenge) {
      const required = decode(challenge) as Record<string, unknown>
      if (!paid) {
        required.error = A2A_PAYMENT_REQUIRED
        return events.end(
          TaskState.TASK_STATE_INPUT_REQUIRED,
          `Payment is required: ${priceInWords(offering.route)} in USDC, over x402. Sign one offer of ` +
            `metadata["${PAYMENT_REQUIRED}"].accepts and send it on this task in metadata["${PAYMENT_PAYLOAD}"].`,
          { [PAYMENT_STATUS]: 'payment-required', [PAYMENT_REQUIRED]: required },
        )
      }
      const settlement = pendingSettlement(body)
      if (settlement && key) {
        // Pending on another task, still waiting there: that task owns it, this one is not paid by it. The task
        // is named only to the same call (as a used payment's, below).
        const owner = await owners.owner(key)
        if (owner && owner.taskId !== mine.taskId && (await ownership.isPending(owner.taskId))) {
          const named = owner.call === mine.call ? owner.taskId : undefined
          const where = named
            ? `task ${named}, which it paid for: send the same payload there (message.taskId "${named}") to receive its answer`
            : 'the task it paid for, another call: send it there'
          return events.end(
            TaskState.TASK_STATE_FAILED,
            `This payment's settlement is pending on ${where}. This task is not paid by it, and this message charged ` +
              'nothing more: a payment is taken once.',
            {
              [PAYMENT_STATUS]: 'payment-failed',
              [PAYMENT_ERROR]: 'PAYMENT_PENDING',
              ...(named ? { [PAID_TASK]: named } : {}),
              [PAYMENT_RECEIPTS]: [
                failedReceipt(payment, `its settlement is pending on ${named ? `task ${named}` : 'another task'}`),
              ],
            },
          )
        }
        // Its settlement was sent and its outcome is being read from the chain: money may have moved, so
        // the task waits for the same payment again (docs/payments.md), never for a new one.
        await owners.own(key, mine)
        return events.end(TaskState.TASK_STATE_INPUT_REQUIRED, pendingWords(settlement), {
          [PAYMENT_STATUS]: 'payment-submitted',
          [SETTLEMENT]: settlement,
        })
      }
      const code = refusalCode(body)
      // Used already (or in use): the task it paid for, when it paid for this same call, holds its answer —
      // what a payer whose answer was lost (a dropped connection) needs. Nothing of it is given up here.
      const owner = code === 'DUPLICATE_NONCE' && key ? await owners.owner(key) : undefined
      const paidTask = owner && owner.taskId !== mine.taskId && owner.call === mine.call ? owner.taskId : undefined
      if (code !== 'DUPLICATE_NONCE' && key) await owners.disown(key, mine.taskId)
      const reason = overA2A(typeof required.error === 'string' ? required.error : 'the payment was refused', paidTask)
      const charged =
        code === 'DUPLICATE_NONCE'
          ? 'This message charged nothing more: a payment is taken once.'
          : 'Nothing was charged.'
      return events.end(TaskState.TASK_STATE_FAILED, `Payment refused: ${reason}. ${charged}`, {
        [PAYMENT_STATUS]: 'payment-failed',
        [PAYMENT_ERROR]: code,
        ...(paidTask ? { [PAID_TASK]: paidTask } : {}),
        [PAYMENT_RECEIPTS]: [failedReceipt(payment, reason)],
      })
    }

    const receiptHeader = response.headers.get('payment-response')
    const receipt = receiptHeader ? (decode(receiptHeader) as Receipt) : undefined
    if (response.ok) {
      const attestation = response.headers.get('x-attestation')
      events.artifact({
        artifactId: randomUUID(),
        name: offering.tool,
        description: `The answer of ${offering.route.key}`,
        parts: [dataPart(body), textPart(answerLine(offering, body))],
        metadata: attestation ? { [ATTESTATION]: attestation } : {},
        extensions: [],
      })
      const done = `${offering.route.summary}: answered.`
      // A payment that paid this answer (a receipt, or a priced call's settlement pending) belongs to this task.
      if (key && (receipt || offering.route.price !== 'free')) await owners.own(key, mine)
      // A free skill sent a payment does not take it: no receipt, the payload left unused.
      if (!paid || (!receipt && offering.route.price === 'free'))
        return events.end(
          TaskState.TASK_STATE_COMPLETED,
          paid ? `${done} It is free: the payment was not used.` : done,
          {},
        )
      // A priced call answered without a receipt: its settlement was sent and its outcome is being read from
      // the chain (a trade's fee settling after its swap confirmed). The money may have moved: never "free".
      if (!receipt) {
        const job = isObject(body) && typeof body.job_id === 'string' ? body.job_id : undefined
        return events.end(
          TaskState.TASK_STATE_COMPLETED,
          `${done} The payment's settlement was sent and its outcome is being read from the chain` +
            (job ? `: GET /trade/status/${job} (the skill sol_trade_status) shows the fee once it is known` : '') +
            '. Do not pay again: this call is answered, and it is charged at most once.',
          { [PAYMENT_STATUS]: 'payment-submitted', [SETTLEMENT]: { state: 'pending' } },
        )
      }
      return events.end(TaskState.TASK_STATE_COMPLETED, `${done} Payment settled.`, {
        [PAYMENT_STATUS]: 'payment-completed',
        [PAYMENT_RECEIPTS]: [receipt],
      })
    }

    // The call failed after its payment was admitted (or before it, for a free skill): the gate released it.
    const failure = failureOf(response.status, body)
    if (key) await owners.disown(key, mine.taskId)
    const metadata: Record<string, unknown> = paid
      ? {
          [PAYMENT_STATUS]: 'payment-failed' satisfies PaymentStatus,
          [PAYMENT_ERROR]: failure.code,
          [PAYMENT_RECEIPTS]: [receipt ?? failedReceipt(payment, failure.message)],
        }
      : {}
    return events.fail(`${failure.message}${paid ? ' Nothing was charged.' : ''}`, body, metadata)
  }
}

/** The events of one task, in the order the SDK requires (the task first). */
class TaskEvents {
  constructor(
    readonly bus: ExecutionEventBus,
    readonly taskId: string,
    readonly contextId: string,
  ) {}

  begin(task: Task): void {
    this.bus.publish(AgentEvent.task(task))
  }

  artifact(artifact: NonNullable<Parameters<typeof AgentEvent.artifactUpdate>[0]['artifact']>): void {
    const { taskId, contextId } = this
    this.bus.publish(
      AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: {} }),
    )
  }

  message(words: string, metadata: Record<string, unknown>, data?: unknown): Message {
    const { taskId, contextId } = this
    const parts = [textPart(words), ...(data === undefined ? [] : [dataPart(data)])]
    return {
      messageId: randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts,
      metadata,
      extensions: [],
      referenceTaskIds: [],
    }
  }

  end(state: TaskState, words: string, metadata: Record<string, unknown>, data?: unknown): void {
    const { taskId, contextId } = this
    const message = this.message(words, metadata, data)
    this.bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: now() }, metadata: {} }),
    )
  }

  /**
   * The pending status again, unchanged (payment-submitted, the settlement), for a message on a task whose
   * settlement is pending that is not its payment: the task still counts as paid.
   */
  stillPending(task: Task, paying: boolean): void {
    const said = task.status?.message?.metadata ?? {}
    const settlement = said[SETTLEMENT] as PendingSettlement
    this.end(
      TaskState.TASK_STATE_INPUT_REQUIRED,
      (paying ? "The payment this message carried was not used: this task's own payment is pending. " : '') +
        pendingWords(settlement),
      { [PAYMENT_STATUS]: 'payment-submitted', [SETTLEMENT]: settlement },
    )
  }

  /** The payment received and its call running (spec §7: payment-submitted, the task `working`). */
  workingStatus(): NonNullable<Task['status']> {
    return {
      state: TaskState.TASK_STATE_WORKING,
      message: this.message('The payment was received and its call is running: tasks/get reads the outcome.', {
        [PAYMENT_STATUS]: 'payment-submitted',
      }),
      timestamp: now(),
    }
  }

  fail(words: string, data: unknown, metadata: Record<string, unknown> = {}): void {
    this.end(TaskState.TASK_STATE_FAILED, words, metadata, data)
  }
}

/** The HTTP request a call makes: the route's path (parameters filled in), its body, the payment. */
function httpRequest(offering: Offering, input: Record<string, unknown>, caller: Caller, payment: unknown): Request {
  const { route } = offering
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(input[name] ?? '')))
  const headers: Record<string, string> = { ...caller.headers }
  const init: RequestInit = { method: route.method, headers }
  if (route.method === 'POST') {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(input)
  }
  if (payment !== undefined) headers['payment-signature'] = Buffer.from(JSON.stringify(payment)).toString('base64')
  return new Request(`${caller.origin}${path}`, init)
}

/**
 * A refusal's words as they hold over A2A: an HTTP caller fetches a paid answer again by signing in with
 * the paying wallet (the 402's sign-in-with-x offer); over A2A the answer is in the task the payment paid
 * for — named when it is known (`paidTask`: the task that owns the payment, for this same call).
 */
function overA2A(reason: string, paidTask?: string): string {
  const where = paidTask
    ? `it paid for task ${paidTask}, this same call: tasks/get (GetTask) with id "${paidTask}" reads its answer, for an hour after its last change`
    : 'its answer is in the task it paid for: tasks/get (GetTask) on that task reads it, for an hour after its last change'
  const said = reason.replace(
    /its own answer can be fetched again without paying by signing in with the paying wallet[^;]*/,
    where,
  )
  return said === reason && paidTask ? `${reason}; ${where}` : said
}

/** A settlement sent whose outcome is being read from the chain: its transaction and when to try again. */
interface PendingSettlement {
  state: 'pending'
  transaction?: string
  retry_after_s: number
}

/** What a task whose settlement is pending says: the same payload again, never a new one. */
function pendingWords(settlement: PendingSettlement): string {
  return (
    `The payment's settlement was sent${settlement.transaction ? ` (${settlement.transaction})` : ''} and its outcome ` +
    `is being read from the chain: send the same payload again on this task in ${settlement.retry_after_s} s to ` +
    'receive the answer. Do not sign a new payment: this one is not lost.'
  )
}

/** Whether a task waits for its payment's settlement: input-required, its status payment-submitted with the settlement. */
export function pendingOn(task: Task): boolean {
  const said = task.status?.message?.metadata ?? {}
  return (
    task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED &&
    said[PAYMENT_STATUS] === 'payment-submitted' &&
    isObject(said[SETTLEMENT])
  )
}

/**
 * A payment's identity, the same however it is re-sent: the gate's (src/payments/payment-key.ts: the
 * EIP-3009 authorization's nonce, the Solana transaction's message hash), else the hash of its JSON.
 */
export function paymentId(payment: unknown): string {
  try {
    const key = paymentKey(payment as PaymentV2, payloadNetwork(payment))
    if (key) return key
  } catch {
    // Not a payload the gate reads: it refuses it, and its JSON is its identity here.
  }
  return `sha256:${createHash('sha256').update(JSON.stringify(payment)).digest('hex')}`
}

/** A call's identity: its skill and input, the input's members in order (the HTTP path keys a paid answer by its request). */
export function callId(call: Call): string {
  return createHash('sha256')
    .update(JSON.stringify([call.skill, canonical(call.input)]))
    .digest('hex')
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (!isObject(value)) return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, canonical(value[name])]),
  )
}

/** A 402's pending settlement (src/http/payment-adapter.ts: `settlement`, `retry_after_s`), if it says so. */
function pendingSettlement(body: unknown): PendingSettlement | undefined {
  if (!isObject(body) || !isObject(body.settlement) || body.settlement.state !== 'pending') return undefined
  const { transaction } = body.settlement
  const retry = typeof body.retry_after_s === 'number' ? body.retry_after_s : 10
  return { state: 'pending', ...(typeof transaction === 'string' ? { transaction } : {}), retry_after_s: retry }
}

/** The error code and words of a failed call's answer (the error catalogue's body, or a trade's rejection). */
function failureOf(status: number, body: unknown): { code: string; message: string } {
  const answer = (isObject(body) ? body : {}) as {
    code?: unknown
    message?: unknown
    rejection?: { code?: unknown; reason?: unknown }
  }
  // A trade's rejection code says more than the catalogue's TRADE_REJECTED it comes under.
  const code = answer.rejection?.code ?? answer.code
  const message = answer.message ?? answer.rejection?.reason
  return {
    code: typeof code === 'string' ? code : `HTTP_${status}`,
    message: typeof message === 'string' ? message : `the call failed (HTTP ${status})`,
  }
}

function failedReceipt(payment: unknown, reason: string): Receipt {
  return { success: false, transaction: '', network: payloadNetwork(payment), errorReason: reason }
}

/** The answer in one line beside its JSON: its own summary where it has one. */
function answerLine(offering: Offering, body: unknown): string {
  const answer = isObject(body) ? body : {}
  for (const member of ['summary', 'market_summary', 'full_risk_report']) {
    const value = answer[member]
    if (typeof value === 'string' && value.trim() !== '') return firstLine(value)
  }
  return `${offering.route.summary}: the answer is the data part (the JSON of ${offering.route.key}).`
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]!
  return line.length > 400 ? `${line.slice(0, 399)}…` : line
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: {}, filename: '', mediaType: 'text/plain' }
}

function dataPart(data: unknown): Part {
  return { content: { $case: 'data', value: data }, metadata: {}, filename: '', mediaType: 'application/json' }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return { error: true, code: 'INTERNAL', message: text }
  }
}

function decode(header: string): unknown {
  return JSON.parse(Buffer.from(header, 'base64').toString('utf8'))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function now(): string {
  return new Date().toISOString()
}
