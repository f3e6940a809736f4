import { afterAll, describe, expect, test } from 'bun:test'
import { address, createSolanaRpc, createSolanaRpcSubscriptions, type Signature } from '@solana/kit'
import { PUMP_PROGRAM_ADDRESS } from '../src/onchain/programs.ts'
import { pumpEventsInLogs, type TradeEvent } from '../src/onchain/pump-events.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { trade } from '../sandbox/scenarios/kit.ts'

// The sandbox's launchpad curves speak as pump.fun does: their trades name the program, carry its
// events in their logs (getTransaction) and are pushed to logsSubscribe {mentions: [program]}.
const sandbox = await startSandbox(ephemeralSandboxOptions())
afterAll(() => sandbox.stop())
const rpc = createSolanaRpc(sandbox.file.urls.rpc)
const curveOf = (scenario: string) => {
  const mint = sandbox.file.scenarios.find((entry) => entry.name === scenario)!.mint
  return sandbox.world.pools.all().find((pool) => pool.kind === 'pump-curve' && pool.baseMint === mint)!
}

describe('launchpad events on the sandbox chain', () => {
  test('a curve’s history: the program’s signatures list its trades; the first carries create and buy', async () => {
    const pool = curveOf('pump-bonding')
    const signatures = await rpc.getSignaturesForAddress(address(pool.address), { limit: 1000 }).send()
    // Oldest first: the curve's set-up transactions carry no event; its first trade is the create-and-buy.
    let events: ReturnType<typeof pumpEventsInLogs> = []
    let first = ''
    for (const entry of [...signatures].reverse()) {
      const transaction = await rpc
        .getTransaction(entry.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send()
      events = pumpEventsInLogs(transaction!.meta!.logMessages ?? [])
      first = entry.signature as string
      if (events.length > 0) break
    }
    expect(events.map((event) => event.kind)).toEqual(['create', 'trade'])
    expect(events[0]).toMatchObject({
      kind: 'create',
      mint: pool.baseMint,
      bondingCurve: pool.address,
      symbol: 'CURVY',
      realTokenReserves: 793_100_000_000_000n,
    })
    const mentions = await rpc.getSignaturesForAddress(PUMP_PROGRAM_ADDRESS, { limit: 1000 }).send()
    expect(mentions.map((entry) => entry.signature as string)).toContain(first)
  })

  test('logsSubscribe {mentions: [pump]}: a new curve trade arrives with its trade event, the reserves after it', async () => {
    const pool = curveOf('pump-bonding')
    const subscriptions = createSolanaRpcSubscriptions(sandbox.file.urls.ws)
    const abort = new AbortController()
    const stream = await subscriptions
      .logsNotifications({ mentions: [PUMP_PROGRAM_ADDRESS] }, { commitment: 'confirmed' })
      .subscribe({ abortSignal: abort.signal })
    const buyer = await sandbox.world.wallet('launchpad-test-buyer', 5)
    await trade(sandbox.world, buyer, pool, 'buy', 0.5)
    for await (const notification of stream) {
      const events = pumpEventsInLogs(notification.value.logs ?? [])
      const event = events.find((entry): entry is TradeEvent => entry.kind === 'trade' && entry.user === buyer.address)
      if (event === undefined) continue
      const real = sandbox.world.pools.realReserves(pool)
      expect(event).toMatchObject({ isBuy: true, mint: pool.baseMint, realSolReserves: real.quote })
      expect(event.virtualTokenReserves).toBe(real.base + pool.virtualBase)
      break
    }
    abort.abort()
  })

  test('a filter of two addresses is refused, as the validator does', async () => {
    const socket = new WebSocket(sandbox.file.urls.ws)
    await new Promise((resolve) => socket.addEventListener('open', resolve))
    const answer = new Promise<string>((resolve) =>
      socket.addEventListener('message', (event) => resolve(String(event.data))),
    )
    socket.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'logsSubscribe',
        params: [{ mentions: [PUMP_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS] }],
      }),
    )
    expect(JSON.parse(await answer).error.code).toBe(-32602)
    socket.close()
  })
})
