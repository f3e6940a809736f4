import { describe, expect, test } from 'bun:test'
import type { Task } from '@a2a-js/sdk'
import { ServerCallContext } from '@a2a-js/sdk/server'
import { BoundedTaskStore, MAX_TASKS, TASK_TTL_MS } from './task-store.ts'

const context = new ServerCallContext()
const task = (id: string): Task => ({ id, contextId: 'c', status: undefined, artifacts: [], history: [], metadata: {} })

describe('BoundedTaskStore', () => {
  test('keeps a copy: a change to the saved or loaded task does not change the kept one', async () => {
    const store = new BoundedTaskStore()
    const saved = task('a')
    await store.save(saved, context)
    saved.metadata = { changed: true }
    const loaded = await store.load('a', context)
    expect(loaded?.metadata).toEqual({})
    loaded!.metadata = { changed: true }
    expect((await store.load('a', context))?.metadata).toEqual({})
  })

  test('forgets a task TASK_TTL_MS after its last save', async () => {
    let now = 0
    const store = new BoundedTaskStore(() => now)
    await store.save(task('a'), context)
    now = TASK_TTL_MS - 1
    await store.save(task('a'), context)
    now = 2 * TASK_TTL_MS - 2
    expect(await store.load('a', context)).toBeDefined()
    now = 2 * TASK_TTL_MS - 1
    expect(await store.load('a', context)).toBeUndefined()
  })

  test('keeps at most MAX_TASKS, the least recently saved going first', async () => {
    const store = new BoundedTaskStore()
    for (let i = 0; i < MAX_TASKS; i++) await store.save(task(`t${i}`), context)
    await store.save(task('t0'), context)
    await store.save(task('new'), context)
    expect(store.size).toBe(MAX_TASKS)
    expect(await store.load('t0', context)).toBeDefined()
    expect(await store.load('t1', context)).toBeUndefined()
    expect(await store.load('new', context)).toBeDefined()
  })
})
