// Bench target: the real service core on a free port. BENCH_APP=fixture (default) mounts the test
// fixture's scanner route alone; BENCH_APP=service mounts every plugin with the x402 gate, pointed at
// a sandbox by the ordinary settings in the environment. Logs go to stdout as in production; the
// bench discards them. Prints "READY <url>" on stderr.
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/settings.ts'
import { createContext } from '../../src/context.ts'
import { startServer } from '../../src/http/server.ts'
import { fixturePlugin } from '../../test/fixtures/fixture-plugin.ts'
import { WAIVED_PAYMENTS } from '../../test/support/payments.ts'

const config = loadConfig({
  ...process.env,
  PORT: '0',
  DATA_DIR: ':memory:',
  // One client sends every request here: the limit is set out of reach, but every call still takes a token.
  RATE_LIMIT_SCANNER_BURST: '1000000000',
  RATE_LIMIT_SCANNER_PER_MINUTE: '1000000000',
})
// BENCH_WAIVE=1: payments waived, so paid routes run their handlers (warm-answer throughput).
const ctx = createContext(config, process.env.BENCH_WAIVE === '1' ? { payments: WAIVED_PAYMENTS } : {})
const whole = process.env.BENCH_APP === 'service'
if (whole) await ctx.payments.start()
const running = startServer(whole ? createApp(ctx) : createApp(ctx, { plugins: [fixturePlugin(ctx)] }), ctx)
console.error(`READY ${running.url}`)
process.once('SIGTERM', () => {
  const { user, system } = process.cpuUsage()
  console.error(`CPU ${user + system}`)
  running.shutdown('SIGTERM').then(() => process.exit(0))
})
