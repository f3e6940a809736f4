import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { liveService } from './support/live.ts'
import { scannerService } from './support/scanner-service.ts'
import { answerProblem, requestsFor, send } from './support/fuzz-requests.ts'

// Generated requests for every route in the registry (test/support/fuzz-requests.ts): whatever comes
// in, the answer is never a 5xx (503 only as the catalogue's "retry later"), always the JSON error
// shape with a catalogue code, never a stack trace or a filesystem path, and never later than the
// slowest route's deadline. Bounded here; `npm run bench -- fuzz` runs 10 000 and more.
const DEADLINE_MS = 45_000

describe('fuzzing every route', () => {
  test('the service on the sandbox, payments waived (the handlers run on whatever passes validation)', async () => {
    const { app } = await scannerService()
    const routes = app.registry.routes()
    await fc.assert(
      fc.asyncProperty(requestsFor(routes), async (request) => {
        const answer = await send((r) => app.handle(r), request)
        expect(answerProblem(answer.status, answer.contentType, answer.text, request.path)).toBeUndefined()
        expect(answer.ms).toBeLessThan(DEADLINE_MS)
      }),
      { numRuns: 400 },
    )
  }, 120_000)

  test('the real payment gate (the sandbox facilitator): random and near-valid payment and sign-in headers', async () => {
    const { ctx, running } = await liveService({ RATE_LIMIT_SCANNER_BURST: '100000' })
    const priced = ctx.registry.routes().filter((route) => route.price !== 'free')
    await fc.assert(
      fc.asyncProperty(requestsFor(priced), async (request) => {
        const answer = await send(
          (r) => fetch(`${running.url}${new URL(r.url).pathname}${new URL(r.url).search}`, r),
          request,
        )
        expect(answerProblem(answer.status, answer.contentType, answer.text, request.path)).toBeUndefined()
        expect(answer.ms).toBeLessThan(DEADLINE_MS)
      }),
      { numRuns: 200 },
    )
  }, 120_000)
})
