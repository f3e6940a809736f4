import { expect, test } from 'bun:test'
import { restartableService } from './support/launch.ts'
import { demoPayer } from '../sandbox/demo-client.ts'
import { eventually } from './support/eventually.ts'
import { paymentHeader, usdcOf } from './support/x402.ts'

const { sandbox, service, payments } = await restartableService('restart')
const { x402: offers } = sandbox.file
const mint = sandbox.file.scenarios.find((scenario) => scenario.name === 'blue-chip')!.mint
const { client } = await demoPayer(sandbox.file, 'solana')

const scan = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/scan/quick`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token_address: mint }),
  })

const ledgerStates = () => payments().map(({ state, reason }) => ({ state, reason }))

test('killed between verify and settle: after a restart the ledger shows the payment, nothing was charged, and it is charged once when reused', async () => {
  const first = await service()
  // Wait for the facilitator's fee payer, then pay the live challenge.
  const challenge = await eventually(
    'the challenge offered',
    () => scan(first.url),
    (answer) => answer.status === 402,
  )
  const payment = await paymentHeader(client, challenge.headers.get('payment-required')!)
  const before = await usdcOf(sandbox, offers.solana.pay_to)

  // A slow chain keeps the scan running after its payment is verified; kill the service then.
  sandbox.faults.set('rpc', 'getTokenLargestAccounts', { kind: 'slow', delayMs: 8_000 })
  const inFlight = scan(first.url, { 'payment-signature': payment }).catch(() => undefined)
  await eventually('the payment verified', ledgerStates, (rows) => rows.some((row) => row.state === 'verified'), {
    timeoutMs: 5_000,
    intervalMs: 20,
  })
  first.child.kill('SIGKILL')
  await first.child.exited
  await inFlight
  sandbox.faults.clear()
  expect(ledgerStates()).toEqual([{ state: 'verified', reason: null }])
  expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before)

  // The restart releases the payment that was never settled.
  const second = await service()
  try {
    expect(ledgerStates()).toEqual([{ state: 'cancelled', reason: 'the service stopped before settlement' }])
    expect(
      second.lines.some(
        (line) =>
          line.msg === 'payments left unfinished by the last run: released those never settled; the rest stay pending',
      ),
    ).toBe(true)
    // The caller's retry with the same payment goes through and is charged once.
    // Until the facilitator is reached, the paid call answers 503 (and the payment is not used).
    const paid = await eventually(
      'the paid scan',
      () => scan(second.url, { 'payment-signature': payment }),
      (answer) => answer.status !== 503,
    )
    expect(paid.status).toBe(200)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before + 20_000n)
    expect((await scan(second.url, { 'payment-signature': payment })).status).toBe(402)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before + 20_000n)
    expect(ledgerStates()).toEqual([{ state: 'settled', reason: null }])
  } finally {
    second.child.kill('SIGTERM')
    await second.child.exited
  }
}, 30_000)
