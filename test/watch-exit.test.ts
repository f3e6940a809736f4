import { describe, expect, test } from 'bun:test'
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoBuyer, demoPayer } from '../sandbox/demo-client.ts'
import { mainPool } from '../sandbox/rugs/chain-view.ts'
import { NATIVE_MINT } from '../sandbox/world/swap.ts'
import { watchEngineOf } from '../plugins/watch/index.ts'
import type { WatchEvent } from '../plugins/watch/watch-events.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { SWAP_API_SETTINGS } from './support/swap-api.ts'
import { chainBalances, signLocally } from './support/wallet.ts'
import { paymentHeader } from './support/x402.ts'
import { signInHeader, webhookReceiver } from './support/watch.ts'

// Exits ready to sign on alerts (issue 34 §4; docs/watch.md, "Exits ready to sign"): a watch naming a
// holder, a sandbox rug, the alert (webhook, event stream, GET /watch/:id) carrying the holder's exit
// built once at detection; signed with the holder's key, executed through POST /trade/execute (its fee
// paid on the EVM rail by the official x402 client): the tokens leave the holder, the USDC arrives, on chain.
// The engine gives the exit 30 s here (2 s in service): a loaded test machine must not turn it into EXIT_TIMEOUT;
// it re-scans a token at most every 5 s here (a minute in service), so the grade test does not wait a minute.
const { sandbox, running, ctx, mintOf } = await liveService(
  { RATE_LIMIT_SCANNER_BURST: '1000', ...SWAP_API_SETTINGS },
  { watch: { exitTimeoutMs: 30_000, gradeEveryMs: 5_000 } },
)
const url = (path: string) => `${running.url}${path}`
const solana = await demoPayer(sandbox.file, 'solana')
const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)
const buyerSigner = await demoBuyer(sandbox.file)
const USDC = sandbox.file.x402.solana.asset
const { tokensOf } = chainBalances(sandbox.file.urls.rpc)
const rugReady = mintOf('rug-ready')

const { received, hook } = webhookReceiver()

/** A fresh holder of `mint`: a wallet with SOL that bought 1 SOL of the token on its main pool, on chain. */
async function holderOf(mint: string): Promise<KeyPairSigner> {
  const wallet = await generateKeyPairSigner()
  await sandbox.world.faucet.airdrop(wallet.address, 5_000_000_000n)
  await sandbox.world.swap(wallet, mainPool(sandbox.world, mint), NATIVE_MINT, 1_000_000_000n)
  expect(await tokensOf(wallet.address, mint)).toBeGreaterThan(0n)
  return wallet
}

/** A watch of rug-ready paid on Solana by the demo buyer, its exit for `holder`. */
async function watchFor(holder: string | null, extra: Record<string, unknown> = {}, mint = rugReady): Promise<string> {
  const body = JSON.stringify({
    token_address: mint,
    hours: 1,
    webhook_url: hook,
    ...(holder ? { exit: { user_public_key: holder, slippage_bps: 300 } } : {}),
    ...extra,
  })
  const post = (headers: Record<string, string> = {}) =>
    fetch(url('/watch'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  const challenged = await post()
  expect(challenged.status).toBe(402)
  const paid = await post({
    'payment-signature': await paymentHeader(solana.client, challenged.headers.get('payment-required')!),
  })
  expect(paid.status).toBe(200)
  return ((await paid.json()) as { watch_id: string }).watch_id
}

/** The buyer's SIGN-IN-WITH-X for `path`. */
async function signedIn(path: string) {
  return { 'sign-in-with-x': await signInHeader(url(path), buyerSigner, sandbox.file.x402.solana.network) }
}

/** The first `kind` alert of watch `id` its event stream replays (from the store, Last-Event-ID 0). */
async function streamedAlert(id: string, kind: string): Promise<WatchEvent> {
  const path = `/watch/${id}/events`
  const controller = new AbortController()
  const response = await fetch(url(path), {
    headers: { ...(await signedIn(path)), 'last-event-id': '0' },
    signal: controller.signal,
  })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the stream of ${id} ended without a ${kind} alert`)
      text += decoder.decode(value, { stream: true })
      for (const frame of text.split('\n\n').slice(0, -1)) {
        const data = frame.split('\n').find((line) => line.startsWith('data: '))
        const event = data && frame.includes('event: alert') ? (JSON.parse(data.slice(6)) as WatchEvent) : undefined
        if (event?.kind === kind) return event
      }
    }
  } finally {
    controller.abort()
  }
}

const alertOf = (watchId: string, kind: string) =>
  eventually(
    `a ${kind} alert delivered for ${watchId}`,
    () =>
      received
        .filter((delivery) => delivery.watchId === watchId)
        .map((delivery) => JSON.parse(delivery.body) as WatchEvent)
        .find((event) => event.kind === kind),
    (event) => event !== undefined,
    { timeoutMs: 45_000 },
  ) as Promise<WatchEvent>

describe('an alert carries the holder’s exit, ready to sign', () => {
  test('mint-more on rug-ready: the critical alert’s exit is READY (webhook, stream and GET agree); signed and executed, the tokens leave and USDC arrives', async () => {
    const holder = await holderOf(rugReady)
    const nobody = await generateKeyPairSigner()
    const holderWatch = await watchFor(holder.address)
    const emptyWatch = await watchFor(nobody.address)
    const before = { token: await tokensOf(holder.address, rugReady), usdc: await tokensOf(holder.address, USDC) }

    await sandbox.rugs['mint-more'](rugReady)
    const alert = await alertOf(holderWatch, 'mint_used')
    expect(alert.severity).toBe('critical')
    const exit = alert.exit
    if (exit?.status !== 'READY') throw new Error(`no exit on the alert: ${JSON.stringify(exit)}`)
    expect(exit.quote).toMatchObject({ input_mint: rugReady, output_mint: USDC, in_amount: before.token.toString() })
    expect(exit.valid_until.last_valid_block_height).toBeGreaterThan(0)

    // Built once, at detection: the stream and the watch's status carry the very same exit.
    expect((await streamedAlert(holderWatch, 'mint_used')).exit).toEqual(exit)
    const path = `/watch/${holderWatch}`
    const status = (await (await fetch(url(path), { headers: await signedIn(path) })).json()) as {
      events: { event: WatchEvent }[]
    }
    expect(status.events.find((item) => item.event.kind === 'mint_used')?.event.exit).toEqual(exit)

    // A watch naming a wallet that holds none: the same alert, with the not-built answer and its reason.
    const empty = await alertOf(emptyWatch, 'mint_used')
    expect(empty.exit).toMatchObject({ status: 'NOTHING_HELD', code: 'NOTHING_HELD', job_id: null })

    const executed = await payingFetch(url('/trade/execute'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        job_id: exit.job_id,
        signed_transaction_b64: await signLocally(exit.transaction, holder),
      }),
    })
    const answer = (await executed.json()) as { status: string; job_id: string }
    expect(executed.status).toBe(200)
    expect(answer).toMatchObject({ job_id: exit.job_id, status: 'CONFIRMED' })
    expect(await tokensOf(holder.address, rugReady)).toBe(0n)
    expect((await tokensOf(holder.address, USDC)) - before.usdc).toBeGreaterThanOrEqual(
      BigInt(exit.quote.min_out_amount),
    )
  })
})

describe('sell_route_failing: the route out refused where it answered', () => {
  test('fail-sell-route on rug-ready: told once, critical, with the aggregator’s refusal; a later event does not tell it again', async () => {
    const watchId = await watchFor(null, { events: ['sell_route_failing', 'mint_used'] })
    await sandbox.rugs['fail-sell-route'](rugReady)
    const failing = await alertOf(watchId, 'sell_route_failing')
    expect(failing).toMatchObject({
      severity: 'critical',
      before: { route: 'open' },
      after: { route: 'refused', reason: expect.stringMatching(/COULD_NOT_FIND_ANY_ROUTE|Failed to get quotes/) },
    })
    expect(failing.sentence).toContain('no route')
    // Still refused at the next material event: not told again until it has recovered.
    await sandbox.rugs['mint-more'](rugReady)
    await alertOf(watchId, 'mint_used')
    await watchEngineOf(ctx)!.settled()
    const told = received.filter(
      (delivery) =>
        delivery.watchId === watchId && (JSON.parse(delivery.body) as WatchEvent).kind === 'sell_route_failing',
    )
    expect(told).toHaveLength(1)
  })
})

describe('grade_fell: the quick scan re-run after a material change', () => {
  test('unlock-lp on locked-lp: the grade read again falls, told with before and after and the findings that cap it', async () => {
    const lockedLp = mintOf('locked-lp')
    const watchId = await watchFor(null, { events: ['grade_fell', 'lp_moved'] }, lockedLp)
    // The token's grade as it stands is read first (the engine's baseline), then the rug.
    await watchEngineOf(ctx)!.settled()
    await sandbox.rugs['unlock-lp'](lockedLp)
    await alertOf(watchId, 'lp_moved')
    const fell = await alertOf(watchId, 'grade_fell')
    const order = ['A', 'B', 'C', 'D', 'F']
    expect(order.indexOf(fell.after.grade as string)).toBeGreaterThan(order.indexOf(fell.before.grade as string))
    expect(fell.sentence).toContain(`fell from ${fell.before.grade} to ${fell.after.grade}`)
  })
})
