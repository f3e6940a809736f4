import type { Task } from '@a2a-js/sdk'
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server'

/** Tasks kept at most: a task waiting for payment costs a few KiB; the oldest go first. */
export const MAX_TASKS = 10_000
/** How long a task is kept after its last change: long enough to pay for it and read it again. */
export const TASK_TTL_MS = 60 * 60 * 1000

/**
 * The A2A tasks of this instance, in memory and bounded (the SDK's InMemoryTaskStore keeps every task
 * forever): at most MAX_TASKS, each for TASK_TTL_MS after its last save. A task is this instance's: with
 * several instances behind a balancer, a client's follow-up must reach the instance that made its task
 * (docs/a2a.md). Tasks are not scoped by caller: there is no account, and a task id is a random UUID.
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

  /** Listing is not offered (tasks/list is not part of this server): an empty page. */
  async list(): Promise<{ tasks: Task[]; nextPageToken: string; pageSize: number; totalSize: number }> {
    return { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }
  }

  /** How many tasks are kept (tests). */
  get size(): number {
    return this.#tasks.size
  }
}
