import { expect, test } from 'bun:test'
import { describeBackends, redisForFile } from '../../test/support/redis.ts'
import type { JobStore } from './jobs.ts'
import { redisClient } from './redis.ts'
import { redisJobs } from './jobs-redis.ts'
import { openSqliteStore } from './sqlite.ts'
import { openNodeSqlite } from '../runtime/sqlite-driver.ts'
import { respConnection } from '../runtime/redis-connection.ts'

const redis = redisForFile()

const backends: [string, () => { jobs: JobStore; close(): unknown }][] = [
  ['SQLite', () => openSqliteStore(':memory:')],
  // Deno's driver (src/runtime/sqlite-driver.ts), which Bun has too.
  ['SQLite, node:sqlite', () => openSqliteStore(':memory:', openNodeSqlite)],
  [
    'Redis',
    () => {
      const client = redisClient(redis.url)
      return { jobs: redisJobs(client), close: () => client.close() }
    },
  ],
  [
    // Deno's connection (src/runtime/redis-connection.ts), which runs on Bun too.
    'Redis, RESP over node:net',
    () => {
      const client = redisClient(redis.url, respConnection)
      return { jobs: redisJobs(client), close: () => client.close() }
    },
  ],
]

let unique = 0
const id = (name: string) => `${name}-${process.pid}-${++unique}`

describeBackends(backends, 'trade jobs', (open) => {
  test('a job id is created once; get answers the job and its status', async () => {
    const { jobs, close } = open()
    const job = id('create')
    expect(await jobs.create(job, 'QUOTED', { n: 1 })).toBe(true)
    expect(await jobs.create(job, 'QUOTED', { n: 2 })).toBe(false)
    expect(await jobs.get(job)).toMatchObject({ id: job, status: 'QUOTED', job: { n: 1 } })
    expect(await jobs.get(id('absent'))).toBeUndefined()
    await close()
  })

  test('transitions are guarded by the status they leave: of ten concurrent executes, one wins', async () => {
    const { jobs, close } = open()
    const job = id('race')
    await jobs.create(job, 'QUOTED', { n: 0 })
    const wins = await Promise.all(
      Array.from({ length: 10 }, (_, n) => jobs.transition(job, ['QUOTED'], 'EXECUTING', { n })),
    )
    expect(wins.filter(Boolean)).toHaveLength(1)
    expect((await jobs.get(job))?.status).toBe('EXECUTING')
    expect(await jobs.transition(job, ['QUOTED', 'EXPIRED'], 'QUOTED', {})).toBe(false)
    expect(await jobs.transition(job, ['EXECUTING'], 'CONFIRMED', { done: true })).toBe(true)
    expect(await jobs.get(job)).toMatchObject({ status: 'CONFIRMED', job: { done: true } })
    expect(await jobs.transition(id('absent'), ['QUOTED'], 'EXECUTING', {})).toBe(false)
    await close()
  })

  test('a transaction belongs to the first job that claims it: of ten jobs claiming one signature at once, one owns it for good', async () => {
    const { jobs, close } = open()
    const signature = id('signature')
    const claimants = Array.from({ length: 10 }, (_, n) => id(`job${n}`))
    const owners = await Promise.all(claimants.map((job) => jobs.claimTransaction(signature, job)))
    expect(new Set(owners).size).toBe(1)
    const [owner] = owners
    expect(claimants).toContain(owner!)
    // The owner claiming again keeps it; anyone else is told who owns it.
    expect(await jobs.claimTransaction(signature, owner!)).toBe(owner!)
    expect(await jobs.claimTransaction(signature, id('late'))).toBe(owner!)
    expect(await jobs.claimTransaction(id('other-signature'), id('late'))).not.toBe(owner!)
    await close()
  })
})
