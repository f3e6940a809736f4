import { expect, test } from 'bun:test'
import { X402_EXTENSION_URI } from '../src/kernel/a2a.ts'
import { liveService } from './support/live.ts'

// /a2a is under the per-client rate limit as the scanners are: a flood of free, failing tasks from one
// address is refused (429, Retry-After) before it makes tasks.
const { running } = await liveService({ RATE_LIMIT_SCANNER_BURST: '5', RATE_LIMIT_SCANNER_PER_MINUTE: '1' })

test('a burst of A2A requests past the client limit is refused 429 RATE_LIMITED, with Retry-After', async () => {
  const statuses: number[] = []
  let refused: Response | undefined
  for (let i = 0; i < 8; i++) {
    const answer = await fetch(`${running.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-a2a-extensions': X402_EXTENSION_URI },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: `f${i}`, role: 'user', parts: [{ kind: 'text', text: 'x' }] },
        },
      }),
    })
    statuses.push(answer.status)
    if (answer.status === 429) refused ??= answer
    else await answer.text()
  }
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
  expect(statuses.slice(5)).toEqual([429, 429, 429])
  expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/)
  expect(await refused?.json()).toMatchObject({ code: 'RATE_LIMITED' })
})
