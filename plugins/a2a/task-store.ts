import { Task, TaskState } from '@a2a-js/sdk'
import { UnsupportedOperationError } from '@a2a-js/sdk/errors'
import { ServerCallContext, type TaskStore } from '@a2a-js/sdk/server'
import type { AnswerStore } from '../../src/store/answers.ts'
import { PAYMENT_PAYLOAD, PAYMENT_RECEIPTS, PAYMENT_STATUS } from './x402-extension.ts'

/** Tasks kept at most whose payment did not move (free, failed, waiting for payment): the least recently saved go first. */
export const MAX_TASKS = 10_000
/** How long a task is kept after its last change: long enough to pay for it and read it again. */
export const TASK_TTL_MS = 60 * 60 * 1000

/**
 * The most recent messages a task's history keeps, beside the two it always keeps: its first (the call) and
 * the first carrying a payment (what paid it). Each message on a task adds two (the client's and the
 * status the agent answers): six is the last three exchanges. Without a bound, a task waiting for payment
 * grew with every message sent to it (60 messages of 14 KB: a 1.2 MB task, answered whole each time).
 */
export const MAX_HISTORY = 6

/** The task with its history bounded: the first message, the first payment message and the last MAX_HISTORY. */
export function boundedHistory(task: Task): Task {
  const history = task.history ?? []
  if (history.length <= MAX_HISTORY + 1) return task
  const paying = history.findIndex((message) => {
    const payload = message.metadata?.[PAYMENT_PAYLOAD]
    return payload !== undefined && payload !== null
  })
  const recent = history.length - MAX_HISTORY
  const kept = history.filter((_, index) => index === 0 || index === paying || index >= recent)
  return { ...task, history: kept }
}

/**
 * Whether a task's payment moved or may have: its paid call running (`working`), its settlement sent and
 * pending (`payment-submitted`), or settled (`payment-completed`, a receipt that succeeded).
 */
export function paymentMoved(task: Task): boolean {
  if (task.status?.state === TaskState.TASK_STATE_WORKING) return true
  const said = task.status?.message?.metadata ?? {}
  const status = said[PAYMENT_STATUS]
  if (status === 'payment-submitted' || status === 'payment-completed') return true
  const receipts = said[PAYMENT_RECEIPTS]
  return Array.isArray(receipts) && receipts.some((receipt) => (receipt as { success?: unknown })?.success === true)
}

/**
 * The A2A tasks of a single instance, in memory (the SDK's InMemoryTaskStore keeps every task forever),
 * each for TASK_TTL_MS after its last save. A task whose payment moved is kept its whole TTL, whatever
 * else arrives: its payer can read it (such tasks cost their payers a payment each, which bounds them).
 * Other tasks — free, failed, waiting for payment — are at most MAX_TASKS, the least recently saved going
 * first. Tasks are not scoped by caller: there is no account, and a task id is a random UUID.
 */
export class BoundedTaskStore implements TaskStore {
  /** Tasks whose payment did not move, in the order of their last save (the LRU). */
  readonly #open = new Map<string, { task: Task; until: number }>()
  /** Tasks whose payment moved, in the order of their last save: they leave only when their TTL ends. */
  readonly #paid = new Map<string, { task: Task; until: number }>()
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    const now = this.#now()
    this.#open.delete(task.id)
    this.#paid.delete(task.id)
    const kept = { task: structuredClone(boundedHistory(task)), until: now + TASK_TTL_MS }
    ;(paymentMoved(task) ? this.#paid : this.#open).set(task.id, kept)
    for (const tasks of [this.#paid, this.#open]) expire(tasks, now)
    while (this.#open.size > MAX_TASKS) this.#open.delete(this.#open.keys().next().value!)
  }

  async load(taskId: string, _context: ServerCallContext): Promise<Task | undefined> {
    const kept = this.#open.get(taskId) ?? this.#paid.get(taskId)
    if (!kept) return undefined
    if (kept.until <= this.#now()) {
      this.#open.delete(taskId)
      this.#paid.delete(taskId)
      return undefined
    }
    return structuredClone(kept.task)
  }

  async list(): Promise<never> {
    throw notListed()
  }

  /** How many tasks are kept (tests). */
  get size(): number {
    return this.#open.size + this.#paid.size
  }
}

/** Drops the tasks whose TTL ended from the front of a map kept in save order (the TTL follows that order). */
function expire(tasks: Map<string, { until: number }>, now: number): void {
  for (const [id, kept] of tasks) {
    if (kept.until > now) return
    tasks.delete(id)
  }
}

/** How long a claim on a task's payment holds at most: past the longest call (a deep dive, 30 s) and its settlement. */
export const PAYMENT_CLAIM_MS = 120_000

/**
 * The A2A tasks of several instances (REDIS_URL), in the store they share, each for TASK_TTL_MS after its
 * last save: a client's payment message may reach another instance than the one that made its task. Kept
 * in the store's expiring keys (the answers store's `put`/`get`, under `a2a-task:`), in the SDK's JSON.
 */
export class SharedTaskStore implements TaskStore {
  /**
   * This instance's copy of the tasks it saved, read when the shared store cannot be (Redis unreachable);
   * `#pending` are those whose last save did not reach the store, read from here first and written again
   * until the store takes them. A paid call's answer is in hand when its task is saved, so a store gone
   * away does not cost the payer the answer: the SDK still answers the message with the task.
   */
  readonly #local = new BoundedTaskStore()
  readonly #pending = new Set<string>()
  #retry: ReturnType<typeof setTimeout> | undefined

  constructor(readonly store: AnswerStore) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.#local.save(task, context)
    try {
      await this.#put(task)
      this.#pending.delete(task.id)
    } catch {
      this.#pending.add(task.id)
      this.#later()
    }
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    if (this.#pending.has(taskId)) {
      const kept = await this.#local.load(taskId, context)
      if (kept) return kept
      this.#pending.delete(taskId)
    }
    try {
      const kept = await this.store.get(`a2a-task:${taskId}`)
      return kept ? Task.fromJSON(JSON.parse(Buffer.from(kept.body_b64, 'base64').toString('utf8'))) : undefined
    } catch (error) {
      const kept = await this.#local.load(taskId, context)
      if (kept) return kept
      throw error
    }
  }

  async list(): Promise<never> {
    throw notListed()
  }

  async #put(task: Task): Promise<void> {
    const body = Buffer.from(JSON.stringify(Task.toJSON(boundedHistory(task)))).toString('base64')
    await this.store.put(`a2a-task:${task.id}`, { status: 200, headers: {}, body_b64: body }, TASK_TTL_MS)
  }

  /** Writes the unsaved tasks again in a few seconds, until the store takes them all. */
  #later(): void {
    if (this.#retry) return
    this.#retry = setTimeout(async () => {
      this.#retry = undefined
      for (const id of [...this.#pending]) {
        const task = await this.#local.load(id, UNSCOPED)
        if (!task) {
          this.#pending.delete(id)
          continue
        }
        try {
          await this.#put(task)
          this.#pending.delete(id)
        } catch {
          break
        }
      }
      if (this.#pending.size > 0) this.#later()
    }, RETRY_MS)
    this.#retry.unref?.()
  }
}

/** How often unsaved tasks and unreleased claims are tried again while the shared store is away. */
const RETRY_MS = 2_000
const UNSCOPED = new ServerCallContext()

/** Who may take a task's payment now: one payment per task at a time (index.ts). */
export interface PaymentClaims {
  /** True when this caller holds the task's payment until `release`; false when another does. */
  claim(taskId: string): Promise<boolean>
  release(taskId: string): Promise<void>
}

/** Claims of one instance, in memory, each held at most PAYMENT_CLAIM_MS (as the shared ones are). */
export function localClaims(now: () => number = Date.now): PaymentClaims {
  const held = new Map<string, number>()
  return {
    async claim(taskId) {
      const until = held.get(taskId)
      if (until !== undefined && until > now()) return false
      held.set(taskId, now() + PAYMENT_CLAIM_MS)
      return true
    },
    async release(taskId) {
      held.delete(taskId)
    },
  }
}

/**
 * Claims every instance sees (REDIS_URL): the store's claim (SET NX), held at most PAYMENT_CLAIM_MS. A
 * release the store did not take (it was away) is tried again until it does, so a run that ended does
 * not hold its task for PAYMENT_CLAIM_MS.
 */
export function sharedClaims(store: AnswerStore): PaymentClaims {
  const owed = new Set<string>()
  let retry: ReturnType<typeof setTimeout> | undefined
  const settle = async () => {
    for (const taskId of [...owed]) {
      try {
        await store.release(`a2a-paying:${taskId}`)
        owed.delete(taskId)
      } catch {
        return
      }
    }
  }
  const later = () => {
    if (retry) return
    retry = setTimeout(async () => {
      retry = undefined
      await settle()
      if (owed.size > 0) later()
    }, RETRY_MS)
    retry.unref?.()
  }
  return {
    async claim(taskId) {
      if (owed.size > 0) await settle()
      return (await store.claim(`a2a-paying:${taskId}`, 'a2a', PAYMENT_CLAIM_MS)).claimed
    },
    async release(taskId) {
      try {
        await store.release(`a2a-paying:${taskId}`)
      } catch {
        owed.add(taskId)
        later()
      }
    },
  }
}

/** The task a payment belongs to, and the call it paid for (`callId`, executor.ts): see PaymentOwners. */
export interface PaymentOwner {
  taskId: string
  call: string
}

/**
 * Which task owns each payment whose money moved (its call answered, or its settlement pending), keyed
 * by the payment's identity (`paymentId`, executor.ts), for TASK_TTL_MS after the task took it: only that
 * task counts as paid by it (a pending payload sent on other tasks points them to it instead of keeping
 * each as paid), and a payload presented again — its answer lost with a dropped connection — is told
 * which task holds that answer. A payment refused or unused owns nothing.
 */
export interface PaymentOwners {
  /** The task that owns `payment`, if any (none when the store cannot say). */
  owner(payment: string): Promise<PaymentOwner | undefined>
  /** `owner` takes `payment` (a call it paid answered, or its settlement pending there). */
  own(payment: string, owner: PaymentOwner): Promise<void>
  /** `taskId` gives `payment` up (refused, or its call failed: nothing moved), if it owned it. */
  disown(payment: string, taskId: string): Promise<void>
}

/**
 * The owners of one instance, in memory, each TASK_TTL_MS after it was taken. Only payments whose money
 * moved are held, each paid for by its payer, which bounds them as it bounds the paid tasks.
 */
export function localOwners(now: () => number = Date.now): PaymentOwners {
  const owners = new Map<string, PaymentOwner & { until: number }>()
  return {
    async owner(payment) {
      const held = owners.get(payment)
      if (!held || held.until <= now()) return undefined
      return { taskId: held.taskId, call: held.call }
    },
    async own(payment, { taskId, call }) {
      owners.delete(payment)
      owners.set(payment, { taskId, call, until: now() + TASK_TTL_MS })
      expire(owners, now())
    },
    async disown(payment, taskId) {
      if (owners.get(payment)?.taskId === taskId) owners.delete(payment)
    },
  }
}

/**
 * The owners every instance sees (REDIS_URL), in the shared store under `a2a-payment:`. The store away:
 * an owner unknown (the payment is then answered as the gate answers it) and an owner not recorded (the
 * paid answer still goes out), never a payment taken twice — the gate's ledger decides that.
 */
export function sharedOwners(store: AnswerStore): PaymentOwners {
  const key = (payment: string) => `a2a-payment:${payment}`
  async function owner(payment: string): Promise<PaymentOwner | undefined> {
    try {
      const held = await store.get(key(payment))
      if (!held) return undefined
      const owner = JSON.parse(Buffer.from(held.body_b64, 'base64').toString('utf8')) as PaymentOwner
      return typeof owner.taskId === 'string' && typeof owner.call === 'string' ? owner : undefined
    } catch {
      return undefined
    }
  }
  return {
    owner,
    async own(payment, owner) {
      const body = Buffer.from(JSON.stringify({ taskId: owner.taskId, call: owner.call })).toString('base64')
      await store.put(key(payment), { status: 200, headers: {}, body_b64: body }, TASK_TTL_MS).catch(() => undefined)
    },
    async disown(payment, taskId) {
      if ((await owner(payment))?.taskId === taskId) await store.release(key(payment)).catch(() => undefined)
    },
  }
}

/**
 * Listing tasks (A2A 1.0's ListTasks) is not offered: tasks have no owner to list them for (no account),
 * and a client holds the ids of its own.
 */
function notListed(): UnsupportedOperationError {
  return new UnsupportedOperationError('ListTasks is not offered: read a task by its id (GetTask, tasks/get)')
}
