import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoPayer } from '../sandbox/demo-client.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { eventually } from './support/eventually.ts'
import { launch } from './support/launch.ts'
import { redisForFile, testWithRedis } from './support/redis.ts'
import { ledgerKeyOf, paymentHeader, usdcOf } from './support/x402.ts'

// The restore drill of docs/deploy.md, on the real process (`bun src/main.ts`) and the sandbox: what an
// operator's backup of DATA_DIR (or a shared Redis) must carry for nothing paid to be lost, and what a
// paid call in flight sees when its instance is stopped for an upgrade.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const work = mkdtempSync(join(tmpdir(), 'solsentry-restore-'))
const redis = redisForFile()
afterAll(async () => {
  await sandbox.stop()
  rmSync(work, { recursive: true, force: true })
})

const MAIN = join(import.meta.dir, '..', 'src/main.ts')
const SETTINGS = {
  ...sandbox.serviceSettings,
  LOG_LEVEL: 'info',
  RATE_LIMIT_SCANNER_BURST: '1000',
  // Settlements are waited for 1 s: a facilitator slower than that leaves the payment pending.
  FACILITATOR_SETTLE_TIMEOUT_MS: '1000',
}
const start = (dataDir: string, env: Record<string, string> = {}) =>
  launch([process.execPath, MAIN], { cwd: work, env: { ...SETTINGS, DATA_DIR: dataDir, ...env } })
type Running = Awaited<ReturnType<typeof start>>

const { client } = await demoPayer(sandbox.file, 'solana')
const treasury = () => usdcOf(sandbox, sandbox.file.x402.solana.pay_to)
const mints = sandbox.file.scenarios.map((scenario) => scenario.mint)
const scan = (url: string, mint: string, payment?: string) =>
  fetch(`${url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(payment ? { 'payment-signature': payment } : {}) },
    body: JSON.stringify({ token_address: mint }),
  })

/** A payment for a quick scan of `mint`, signed by the official client for the service's live challenge. */
async function pay(url: string, mint: string): Promise<string> {
  // The challenge is offered once the facilitator's fee payer is known (a moment after the start).
  const challenge = await eventually(
    'the challenge',
    () => scan(url, mint),
    (answer) => answer.status === 402,
  )
  return paymentHeader(client, challenge.headers.get('payment-required')!)
}

const attestationKey = async (url: string) =>
  ((await (await fetch(`${url}/.well-known/x402`)).json()) as { attestation: { public_key: string } }).attestation
    .public_key

/** A paid call answered and settled, and one left pending (the facilitator answers after the service stopped waiting). */
async function settledAndPending(url: string, settledMint: string, pendingMint: string) {
  const settled = await pay(url, settledMint)
  const before = await treasury()
  expect((await scan(url, settledMint, settled)).status).toBe(200)
  const pending = await pay(url, pendingMint)
  sandbox.faults.set('facilitator', '/settle', { kind: 'slow', delayMs: 2_500 })
  const withheld = await scan(url, pendingMint, pending)
  expect(withheld.status).toBe(402)
  expect(await withheld.json()).toMatchObject({ settlement: { state: 'pending' } })
  // The slow facilitator lands the transfer meanwhile.
  await eventually('both settlements on chain', treasury, (balance) => balance === before + 40_000n, {
    timeoutMs: 10_000,
  })
  sandbox.faults.clear()
  return { settled, pending, charged: before + 40_000n }
}

/** After a restore: the pending payment collects the call it paid for once, the settled one stays used. */
async function nothingLost(url: string, paid: Awaited<ReturnType<typeof settledAndPending>>, mints: string[]) {
  const [settledMint, pendingMint] = mints as [string, string]
  const collected = await eventually(
    'the pending payment resolved and its call answered',
    () => scan(url, pendingMint, paid.pending),
    (answer) => answer.status === 200,
  )
  expect(JSON.parse(Buffer.from(collected.headers.get('payment-response')!, 'base64').toString())).toMatchObject({
    success: true,
  })
  expect((await scan(url, pendingMint, paid.pending)).status).toBe(402)
  expect((await scan(url, settledMint, paid.settled)).status).toBe(402)
  expect(await treasury()).toBe(paid.charged)
}

async function stop(running: Running): Promise<number> {
  running.child.kill('SIGTERM')
  return running.child.exited
}

/** The payments table of a data directory's SQLite ledger. */
function ledger(dataDir: string): Record<string, string> {
  const db = new Database(join(dataDir, 'solsentry.db'), { readonly: true })
  try {
    const rows = db.query<{ key: string; state: string }, []>('SELECT key, state FROM payments').all()
    return Object.fromEntries(rows.map((row) => [row.key, row.state]))
  } finally {
    db.close()
  }
}

describe('the restore drill: DATA_DIR copied away after a SIGTERM, the service started from the copy', () => {
  test('a paid call in flight at SIGTERM is answered and settled; from the copy, the attestation key is the same, the pending payment resolves, the settled one stays used', async () => {
    const live = join(work, 'live')
    const first = await start(live)
    const key = await attestationKey(first.url)
    const paid = await settledAndPending(first.url, mints[0]!, mints[1]!)

    // The upgrade: a paid call whose scan is still running when SIGTERM comes.
    const inFlightPayment = await pay(first.url, mints[2]!)
    sandbox.faults.set('rpc', 'getTokenLargestAccounts', { kind: 'slow', delayMs: 1_500 })
    const inFlight = scan(first.url, mints[2]!, inFlightPayment)
    const inFlightKey = ledgerKeyOf(inFlightPayment)
    await eventually(
      'the in-flight payment verified',
      () => ledger(live)[inFlightKey],
      (state) => state === 'verified',
      {
        timeoutMs: 5_000,
        intervalMs: 20,
      },
    )
    first.child.kill('SIGTERM')
    const answer = await inFlight
    sandbox.faults.clear()
    expect(answer.status).toBe(200)
    expect(answer.headers.get('payment-response')).toBeTruthy()
    expect(await first.child.exited).toBe(0)
    expect(await first.rest()).toContain('"msg":"stopped"')
    expect(await treasury()).toBe(paid.charged + 20_000n)

    // The backup: the whole directory, taken while the service is stopped.
    const restored = join(work, 'restored')
    cpSync(live, restored, { recursive: true })
    expect(readdirSync(restored)).toEqual(expect.arrayContaining(['attestation-key.json', 'solsentry.db']))
    expect(ledger(restored)).toEqual({
      [ledgerKeyOf(paid.settled)]: 'settled',
      [ledgerKeyOf(paid.pending)]: 'pending',
      [inFlightKey]: 'settled',
    })

    const second = await start(restored)
    try {
      expect(await attestationKey(second.url)).toBe(key)
      await nothingLost(second.url, { ...paid, charged: paid.charged + 20_000n }, [mints[0]!, mints[1]!])
      expect((await scan(second.url, mints[2]!, inFlightPayment)).status).toBe(402)
    } finally {
      expect(await stop(second)).toBe(0)
    }
  }, 30_000)

  testWithRedis(
    'on a shared Redis, an instance started on an empty DATA_DIR loses nothing paid; ATTESTATION_KEY keeps the signer',
    async () => {
      const first = await start(join(work, 'redis-a'), { REDIS_URL: redis.url })
      const key = await attestationKey(first.url)
      const paid = await settledAndPending(first.url, mints[3]!, mints[4]!)
      expect(await stop(first)).toBe(0)

      // A new host: nothing of the old DATA_DIR but the attestation key, given as ATTESTATION_KEY.
      const empty = join(work, 'redis-b')
      expect(existsSync(empty)).toBe(false)
      const second = await start(empty, {
        REDIS_URL: redis.url,
        ATTESTATION_KEY: join(work, 'redis-a', 'attestation-key.json'),
      })
      try {
        expect(await attestationKey(second.url)).toBe(key)
        await nothingLost(second.url, paid, [mints[3]!, mints[4]!])
      } finally {
        expect(await stop(second)).toBe(0)
      }
    },
  )
})
