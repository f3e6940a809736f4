// Bench baseline: a bare Bun.serve answering the same JSON as the service, with no framework at all.
const HEALTH = JSON.stringify({
  schema_version: '2.0',
  status: 'ok',
  version: '2.0.0',
  uptime_s: 0,
  sources: { store: 'ok' },
})
const INVALID = JSON.stringify({
  schema_version: '2.0',
  error: true,
  code: 'INVALID_ADDRESS',
  message: `"BONK" looks like a ticker: send the token's mint address, not its ticker`,
  request_id: '00000000-0000-0000-0000-000000000000',
  field: 'token_address',
})
const json = { 'content-type': 'application/json' }

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
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
  server.stop().then(() => process.exit(0))
})
