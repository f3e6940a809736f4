import { describe, expect, test } from 'bun:test'
import { Role, type Task, TaskState } from '@a2a-js/sdk'
import { ServerCallContext } from '@a2a-js/sdk/server'
import {
  BoundedTaskStore,
  boundedHistory,
  localClaims,
  localOwners,
  MAX_HISTORY,
  MAX_TASKS,
  PAYMENT_CLAIM_MS,
  paymentMoved,
  TASK_TTL_MS,
} from './task-store.ts'

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

describe('BoundedTaskStore: a task whose payment moved is kept its whole TTL', () => {
  const withStatus = (id: string, state: TaskState, metadata: Record<string, unknown>): Task => ({
    ...task(id),
    status: {
      state,
      timestamp: '',
      message: {
        messageId: 'm',
        contextId: 'c',
        taskId: id,
        role: Role.ROLE_AGENT,
        parts: [],
        metadata,
        extensions: [],
        referenceTaskIds: [],
      },
    },
  })
  const paid = withStatus('paid', TaskState.TASK_STATE_COMPLETED, { 'x402.payment.status': 'payment-completed' })
  const pending = withStatus('pending', TaskState.TASK_STATE_INPUT_REQUIRED, {
    'x402.payment.status': 'payment-submitted',
  })
  const running = withStatus('running', TaskState.TASK_STATE_WORKING, {})
  const refused = withStatus('refused', TaskState.TASK_STATE_FAILED, {
    'x402.payment.status': 'payment-failed',
    'x402.payment.receipts': [{ success: false, transaction: '' }],
  })

  test('which tasks count as paid', () => {
    expect([paid, pending, running, refused, task('free')].map(paymentMoved)).toEqual([true, true, true, false, false])
  })

  test('MAX_TASKS failed tasks saved after a paid, unread answer do not evict it; they evict each other', async () => {
    let now = 0
    const store = new BoundedTaskStore(() => now)
    for (const kept of [paid, pending, running, refused]) await store.save(kept, context)
    for (let i = 0; i < MAX_TASKS + 50; i++) await store.save(task(`flood${i}`), context)
    for (const id of ['paid', 'pending', 'running']) expect(await store.load(id, context)).toBeDefined()
    expect(await store.load('refused', context)).toBeUndefined()
    expect(await store.load('flood0', context)).toBeUndefined()
    expect(store.size).toBe(MAX_TASKS + 3)
    // Its TTL still ends it.
    now = TASK_TTL_MS
    await store.save(task('later'), context)
    expect(await store.load('paid', context)).toBeUndefined()
    expect(store.size).toBe(1)
  })
})

describe('localClaims', () => {
  test('one holder at a time; released, or past PAYMENT_CLAIM_MS, the task can be claimed again', async () => {
    let now = 0
    const claims = localClaims(() => now)
    expect(await claims.claim('t')).toBe(true)
    expect(await claims.claim('t')).toBe(false)
    await claims.release('t')
    expect(await claims.claim('t')).toBe(true)
    now = PAYMENT_CLAIM_MS - 1
    expect(await claims.claim('t')).toBe(false)
    now = PAYMENT_CLAIM_MS
    expect(await claims.claim('t')).toBe(true)
  })
})

describe('boundedHistory', () => {
  const said = (n: number, metadata: Record<string, unknown> = {}) => ({
    messageId: `m${n}`,
    contextId: 'c',
    taskId: 't',
    role: Role.ROLE_USER,
    parts: [],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  })
  const ids = (kept: Task) => kept.history.map((message) => message.messageId)

  test('a short history is kept whole', () => {
    const history = Array.from({ length: MAX_HISTORY + 1 }, (_, n) => said(n))
    expect(boundedHistory({ ...task('t'), history }).history).toHaveLength(MAX_HISTORY + 1)
  })

  test('a long one keeps its first message, its first payment message and the last MAX_HISTORY, in order', () => {
    const history = Array.from({ length: 50 }, (_, n) =>
      said(n, n === 3 || n === 9 ? { 'x402.payment.payload': { n } } : {}),
    )
    const last = Array.from({ length: MAX_HISTORY }, (_, n) => `m${50 - MAX_HISTORY + n}`)
    expect(ids(boundedHistory({ ...task('t'), history }))).toEqual(['m0', 'm3', ...last])
  })

  test('the store keeps a saved task bounded', async () => {
    const store = new BoundedTaskStore()
    await store.save({ ...task('long'), history: Array.from({ length: 50 }, (_, n) => said(n)) }, context)
    expect((await store.load('long', context))?.history).toHaveLength(MAX_HISTORY + 1)
  })
})

describe('localOwners', () => {
  test('the task that took a payment owns it TASK_TTL_MS; only it gives it up', async () => {
    let now = 0
    const owners = localOwners(() => now)
    expect(await owners.owner('p')).toBeUndefined()
    await owners.own('p', { taskId: 'a', call: 'c' })
    await owners.disown('p', 'b')
    expect(await owners.owner('p')).toEqual({ taskId: 'a', call: 'c' })
    await owners.own('p', { taskId: 'b', call: 'c' })
    expect((await owners.owner('p'))?.taskId).toBe('b')
    now = TASK_TTL_MS - 1
    expect((await owners.owner('p'))?.taskId).toBe('b')
    now = TASK_TTL_MS
    expect(await owners.owner('p')).toBeUndefined()
    await owners.own('q', { taskId: 'a', call: 'c' })
    await owners.disown('q', 'a')
    expect(await owners.owner('q')).toBeUndefined()
  })
})
