import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { describePath } from '../sandbox/call-log.ts'
import { tracedScan } from './support/round-trips.ts'
import { scannerService } from './support/scanner-service.ts'

/**
 * Dependent round trips of each scanner on every scenario, through the HTTP route (payment waived):
 * counted from the call graph the sandbox records (sandbox/call-log.ts), never from a stopwatch. Each
 * scan runs alone on a fresh service (cold caches), the account check included.
 *
 * Targets (issue 30): the quick scan 3 — the mint's own accounts, its pairs and its token-list entry;
 * then the largest holders' and the pools' accounts; then the holders' owners and the pools' vaults and
 * LP mints. 5 when the LP is not all burned: its lock holders can be asked only once the pool account
 * names the LP mint, and a lock shows only in the holder's owner (pair → pool → LP holders → their
 * token accounts → their owners). Market intel 4 (pair → pool → its signatures → their transactions).
 * The deep dive 6: the history reads that depend on a signature list are the floor (pair → pool → its
 * first signatures → their transactions → each first buyer's signatures → its first transaction).
 */
/**
 * Scans are counted alone on their sandbox, and the scenarios' scans are independent: three sandboxes
 * (the same deterministic world each) take a third of the scenarios each at once. The count is of one
 * sandbox's calls, so it does not change; the file's time is a third.
 */
const WORLDS = await Promise.all([scannerService(), scannerService(), scannerService()])
const { sandbox, freshApp, mintOf } = WORLDS[0]

/**
 * Added to every upstream answer while counting, so the calls of one round overlap and only a call
 * that waited for an answer starts after it. Larger than any pause of the service between two calls of
 * one round, on a busy machine too: the count does not depend on it otherwise.
 */
const LATENCY_MS = 250
beforeAll(() => {
  for (const world of WORLDS) world.sandbox.faults.latencyMs = LATENCY_MS
})
afterAll(() => {
  for (const world of WORLDS) world.sandbox.faults.latencyMs = 0
})

const SCANNERS = [
  { route: '/scan/quick', target: (body: { lp_status?: string }) => (body.lp_status === 'UNBURNED' ? 5 : 3) },
  { route: '/market/intel', target: () => 4 },
  { route: '/scan/deep', target: () => 6 },
] as const

describe('round trips at their floor: the critical path of each scanner on every scenario', () => {
  for (const { route, target } of SCANNERS)
    test(`${route}: within its target on every scenario`, async () => {
      const over: string[] = []
      const scenarios = sandbox.file.scenarios.map(({ name }) => name)
      // Each world takes every third scenario, one scan at a time (a recording is of one scan alone).
      await Promise.all(
        WORLDS.map(async (world, index) => {
          for (const name of scenarios.filter((_, at) => at % WORLDS.length === index)) {
            const { status, body, calls, path } = await tracedScan(
              world.sandbox,
              world.freshApp(),
              route,
              world.mintOf(name),
            )
            expect({ name, status }).toEqual({ name, status: 200 })
            // Every scan asked something upstream, and its chain is made of the calls it made.
            expect(calls.length).toBeGreaterThan(0)
            expect(path.length).toBeGreaterThan(0)
            if (path.length > target(body))
              over.push(`${name}: ${path.length} > ${target(body)} (${describePath(path)})`)
          }
        }),
      )
      expect(over.sort()).toEqual([])
    }, 180_000)

  test('the account check shares the scan’s first round trip: the mint is read once, with the other first reads', async () => {
    const { path, calls } = await tracedScan(sandbox, freshApp(), '/scan/quick', mintOf('blue-chip'))
    const mintReads = calls.filter((call) => call.server === 'rpc' && call.route.split(',').includes('getAccountInfo'))
    expect(mintReads).toHaveLength(1)
    expect(path.length).toBe(3)
  })
})
