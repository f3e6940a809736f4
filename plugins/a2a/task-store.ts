import { Task } from '@a2a-js/sdk'
import { UnsupportedOperationError } from '@a2a-js/sdk/errors'
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server'
import type { AnswerStore } from '../../src/store/answers.ts'

/** Tasks kept at most: a task waiting for payment costs a few KiB; the oldest go first. */
export const MAX_TASKS = 10_000
/** How long a task is kept after its last change: long enough to pay for it and read it again. */
export const TASK_TTL_MS = 60 * 60 * 1000

/**
 * The A2A tasks of a single instance, in memory and bounded (the SDK's InMemoryTaskStore keeps every task
 * forever): at most MAX_TASKS, each for TASK_TTL_MS after its last save. Tasks are not scoped by caller:
 * there is no account, and a task id is a random UUID.
 */
export class BoundedTaskStore implements TaskStore {
  readonly #tasks = new Map<string, { task: Task; until: number }>()
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    this.#tasks.delete(task.id)
    this.#tasks.set(task.id, { task: structuredClone(task), until: this.#now() + TASK_TTL_MS })
    while (this.#tasks.size > MAX_TASKS) this.#tasks.delete(this.#tasks.keys().next().value!)
  }

  async load(taskId: string, _context: ServerCallContext): Promise<Task | undefined> {
    const kept = this.#tasks.get(taskId)
    if (!kept) return undefined
    if (kept.until <= this.#now()) {
      this.#tasks.delete(taskId)
      return undefined
    }
    return structuredClone(kept.task)
  }

  async list(): Promise<never> {
    throw notListed()
  }

  /** How many tasks are kept (tests). */
  get size(): number {
    return this.#tasks.size
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
  constructor(readonly store: AnswerStore) {}

  async save(task: Task, _context: ServerCallContext): Promise<void> {
    const body = Buffer.from(JSON.stringify(Task.toJSON(task))).toString('base64')
    await this.store.put(`a2a-task:${task.id}`, { status: 200, headers: {}, body_b64: body }, TASK_TTL_MS)
  }

  async load(taskId: string, _context: ServerCallContext): Promise<Task | undefined> {
    const kept = await this.store.get(`a2a-task:${taskId}`)
    return kept ? Task.fromJSON(JSON.parse(Buffer.from(kept.body_b64, 'base64').toString('utf8'))) : undefined
  }

  async list(): Promise<never> {
    throw notListed()
  }
}

/** Who may take a task's payment now: one payment per task at a time (index.ts). */
export interface PaymentClaims {
  /** True when this caller holds the task's payment until `release`; false when another does. */
  claim(taskId: string): Promise<boolean>
  release(taskId: string): Promise<void>
}

/** Claims of one instance, in memory. */
export function localClaims(): PaymentClaims {
  const held = new Set<string>()
  return {
    async claim(taskId) {
      if (held.has(taskId)) return false
      held.add(taskId)
      return true
    },
    async release(taskId) {
      held.delete(taskId)
    },
  }
}

/** Claims every instance sees (REDIS_URL): the store's claim (SET NX), held at most PAYMENT_CLAIM_MS. */
export function sharedClaims(store: AnswerStore): PaymentClaims {
  return {
    async claim(taskId) {
      return (await store.claim(`a2a-paying:${taskId}`, 'a2a', PAYMENT_CLAIM_MS)).claimed
    },
    async release(taskId) {
      await store.release(`a2a-paying:${taskId}`)
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
