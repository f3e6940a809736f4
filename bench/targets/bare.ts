// Bench baseline: the runtime's bare server (Bun.serve, or Deno.serve under `--runtime deno`, through
// src/runtime/serve.ts) answering the same JSON as the service, with no framework at all.
import { listen } from '../../src/runtime/serve.ts'
import * as answers from './answers.ts'

const HEALTH = JSON.stringify(answers.HEALTH)
const INVALID = JSON.stringify(answers.INVALID)
const json = { 'content-type': 'application/json' }

const server = listen({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeoutS: 30,
  async fetch(request) {
    const { pathname } = new URL(request.url)
    if (request.method === 'GET' && pathname === '/health') return new Response(HEALTH, { headers: json })
    if (request.method === 'POST' && pathname === '/fixture/scan') {
      await request.json()
      return new Response(INVALID, { status: 400, headers: json })
    }
    return new Response('{}', { status: 404, headers: json })
  },
})
console.error(`READY http://127.0.0.1:${server.port}`)
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage()
  console.error(`CPU ${user + system}`)
  server.stop(false).then(() => process.exit(0))
})
