import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { privateKeyToAccount } from 'viem/accounts'
import { demoBuyer, demoPayer } from '../sandbox/demo-client.ts'
import { watchEngineOf } from '../plugins/watch/index.ts'
import type { WatchEvent } from '../plugins/watch/watch-events.ts'
import { verifyWebhook } from '../plugins/watch/webhook-signature.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { runToEnd } from './support/run.ts'
import { paymentHeader, usdcOf } from './support/x402.ts'
import { signInHeader, webhookReceiver } from './support/watch.ts'

// The position guard's paid route over the whole service on the sandbox (issue 34 §1, §3): a watch paid
// per hour on both rails (balances on chain), the sandbox's rug controls told by signed webhook and by
// the event stream (resumed with Last-Event-ID), the watch read and cancelled by the paying wallet only,
// refusals before any payment, nothing told after the paid period (the engine's clock moved, not waited).
let clockAheadMs = 0
const { sandbox, running, ctx, mintOf } = await liveService(
  { RATE_LIMIT_SCANNER_BURST: '1000' },
  { watchClock: () => Date.now() + clockAheadMs },
)
const engine = watchEngineOf(ctx)!
const { buyer } = sandbox.file
const solana = await demoPayer(sandbox.file, 'solana')
const base = await demoPayer(sandbox.file, 'base')
const HOUR = 10_000n
const url = (path: string) => `${running.url}${path}`

const { received, hook } = webhookReceiver()

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url('/watch'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

/** A paid watch: challenged, paid by `payer`, answered. */
async function paidWatch(body: Record<string, unknown>, payer = solana) {
  const challenged = await post(body)
  expect(challenged.status).toBe(402)
  const header = await paymentHeader(payer.client, challenged.headers.get('payment-required')!)
  const paid = await post(body, { 'payment-signature': header })
  const json = (await paid.json()) as any
  return { paid, json, challenged }
}

/** A SIGN-IN-WITH-X header signed by `signer` for `path` on this service. */
async function signIn(path: string, signer: KeyPairSigner | ReturnType<typeof privateKeyToAccount>, chainId: string) {
  return { 'sign-in-with-x': await signInHeader(url(path), signer, chainId) }
}
const buyerSigner = await demoBuyer(sandbox.file)
const asBuyer = (path: string) => signIn(path, buyerSigner, sandbox.file.x402.solana.network)

/** The alerts of an event stream, read until `until` holds of them (then the stream is dropped). */
async function streamed(
  path: string,
  headers: Record<string, string>,
  until: (alerts: { id: number; event: WatchEvent }[]) => boolean,
) {
  const controller = new AbortController()
  const response = await fetch(url(path), { headers, signal: controller.signal })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  const alerts: { id: number; event: WatchEvent }[] = []
  const ends: string[] = []
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (!until(alerts)) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      let cut = text.indexOf('\n\n')
      while (cut !== -1) {
        const frame = text.slice(0, cut)
        text = text.slice(cut + 2)
        const field = (name: string) =>
          frame
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))
            ?.slice(name.length + 2)
        if (field('event') === 'alert') alerts.push({ id: Number(field('id')), event: JSON.parse(field('data')!) })
        if (field('event') === 'end') ends.push(field('data')!)
        cut = text.indexOf('\n\n')
      }
    }
  } finally {
    controller.abort()
  }
  return { alerts, ends }
}

const rugReady = mintOf('rug-ready')
let watchId = ''

describe('refused before any payment', () => {
  for (const [why, body, status, words] of [
    [
      'an address that is no token (the buyer’s wallet)',
      { token_address: buyer.address, hours: 1 },
      422,
      'not a token mint',
    ],
    ['an unknown event kind', { token_address: rugReady, hours: 1, events: ['moon'] }, 400, 'unknown event kind'],
    [
      'a webhook to the cloud metadata address',
      { token_address: rugReady, hours: 1, webhook_url: 'http://169.254.169.254/latest' },
      400,
      'webhook_url',
    ],
    [
      'a webhook to a private address over https',
      { token_address: rugReady, hours: 1, webhook_url: 'https://10.0.0.7/hook' },
      400,
      'internal',
    ],
    [
      'a threshold out of bounds',
      { token_address: rugReady, hours: 1, thresholds: { liquidity_removed_pct: 1 } },
      400,
      'liquidity_removed_pct',
    ],
    ['more hours than a week', { token_address: rugReady, hours: 169 }, 400, 'hours'],
  ] as const)
    test(why, async () => {
      const response = await post(body)
      expect(response.status).toBe(status)
      expect(response.headers.get('payment-required')).toBeNull()
      expect(((await response.json()) as any).message).toContain(words)
    })
})

describe('a paid watch on rug-ready, told by webhook and by its event stream', () => {
  test('paid on Solana: hours × 0.01 USD on chain, the watch answered', async () => {
    const before = await usdcOf(sandbox, buyer.address)
    const { paid, json, challenged } = await paidWatch({ token_address: rugReady, hours: 3, webhook_url: hook })
    const asked = JSON.parse(Buffer.from(challenged.headers.get('payment-required')!, 'base64').toString())
    expect(asked.accepts.map((offer: { amount: string }) => offer.amount)).toEqual(['30000', '30000'])
    expect(paid.status).toBe(200)
    expect(paid.headers.get('payment-response')).not.toBeNull()
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 3n * HOUR)
    expect(json).toMatchObject({ subject: { kind: 'token', address: rugReady }, webhook_url: hook })
    expect(new Date(json.period.until).getTime() - new Date(json.period.from).getTime()).toBe(3 * 3_600_000)
    expect(json.stream_url).toBe(url(`/watch/${json.watch_id}/events`))
    expect(json.events).toContain('mint_used')
    watchId = json.watch_id
  })

  test('mint-more, freeze, pull-liquidity, rename and a seizure by the permanent delegate: each told by a signed webhook', async () => {
    const minted = await sandbox.rugs['mint-more'](rugReady)
    // Before the freeze: the largest holder, whose account the freeze takes, is the one seized from.
    const seized = await sandbox.rugs['permanent-delegate-transfer'](rugReady)
    await sandbox.rugs.freeze(rugReady)
    await sandbox.rugs['pull-liquidity'](rugReady, { percent: 80 })
    await sandbox.rugs.rename(rugReady)
    const kinds = ['mint_used', 'freeze_used', 'liquidity_removed', 'metadata_renamed', 'permanent_delegate_used']
    const mine = () => received.filter((delivery) => delivery.watchId === watchId)
    await eventually(
      'the four alerts delivered',
      () => mine().map((delivery) => (JSON.parse(delivery.body) as WatchEvent).kind as string),
      (seen: string[]) => kinds.every((kind) => seen.includes(kind)),
      { timeoutMs: 30_000 },
    )
    const events = [
      ...new Map(mine().map((delivery) => [delivery.body, JSON.parse(delivery.body) as WatchEvent])).values(),
    ]
    // The developer (also the permanent delegate) withdrawing its pool is liquidity removed, not a seizure:
    // the one seizure told is the delegate's own transfer out of a holder's account.
    expect(events.filter((event) => event.kind === 'permanent_delegate_used').map((event) => event.signature)).toEqual([
      seized.signature,
    ])
    // The evidence names the transaction and its slot.
    expect(events.find((event) => event.kind === 'mint_used')).toMatchObject({
      signature: minted.signature,
      slot: Number(minted.slot),
    })
    for (const delivery of mine()) {
      expect(
        await verifyWebhook({
          header: delivery.signature,
          watchId,
          body: delivery.body,
          publicKey: ctx.attestor.publicKey,
        }),
      ).toBe(true)
      expect(
        await verifyWebhook({
          header: delivery.signature,
          watchId,
          body: `${delivery.body} `,
          publicKey: ctx.attestor.publicKey,
        }),
      ).toBe(false)
    }
  })

  test('the event stream gives the same alerts in order; resumed with Last-Event-ID it gives only the later ones', async () => {
    const path = `/watch/${watchId}/events`
    const stored = await ctx.store.watches.events<WatchEvent>(watchId)
    expect(stored.length).toBeGreaterThanOrEqual(4)
    const first = await streamed(path, await asBuyer(path), (alerts) => alerts.length >= 2)
    expect(first.alerts.map((alert) => alert.id)).toEqual(
      stored.map((event) => event.seq).slice(0, first.alerts.length),
    )
    expect(first.alerts.map((alert) => alert.event.event_id)).toEqual(
      stored.slice(0, first.alerts.length).map((event) => event.eventId),
    )
    // Reconnected after a drop: what came after the last id it saw, each once.
    const resumed = await streamed(
      path,
      { ...(await asBuyer(path)), 'last-event-id': '2' },
      (alerts) => alerts.length >= stored.length - 2,
    )
    expect(resumed.alerts.map((alert) => alert.id)).toEqual(stored.slice(2).map((event) => event.seq))
  })

  test('a live alert reaches an open stream opened with the stream token (an EventSource’s way in)', async () => {
    const status = (await (
      await fetch(url(`/watch/${watchId}`), { headers: await asBuyer(`/watch/${watchId}`) })
    ).json()) as any
    const count = (await ctx.store.watches.events(watchId)).length
    const open = streamed(
      `/watch/${watchId}/events?token=${encodeURIComponent(status.stream_token.token)}`,
      { 'last-event-id': String(count) },
      (alerts) => alerts.length >= 1,
    )
    await eventually(
      'the stream listening',
      () => engine.counts().listeners,
      (listeners) => listeners > 0,
    )
    await sandbox.rugs['mint-more'](rugReady)
    const { alerts } = await open
    expect(alerts[0]).toMatchObject({ id: count + 1, event: { kind: 'mint_used', watch_id: watchId } })
    const forged = await fetch(url(`/watch/${watchId}/events?token=${Math.floor(Date.now() / 1000) + 60}.forged`))
    expect(forged.status).toBe(403)
  })
})

describe('the paying wallet signs in: GET and DELETE', () => {
  test('GET: the watch, its events with their delivery; another wallet 403, no sign-in 403, an unknown id 404', async () => {
    const path = `/watch/${watchId}`
    const own = await fetch(url(path), { headers: await asBuyer(path) })
    expect(own.status).toBe(200)
    const status = (await own.json()) as any
    expect(status).toMatchObject({ watch_id: watchId, state: 'active', payer: buyer.address, dead_letters: [] })
    expect(status.events.length).toBeGreaterThanOrEqual(5)
    expect(status.events.every((item: any) => item.delivery.state === 'delivered')).toBe(true)
    const stranger = await generateKeyPairSigner()
    const other = await fetch(url(path), { headers: await signIn(path, stranger, sandbox.file.x402.solana.network) })
    expect(other.status).toBe(403)
    expect(((await other.json()) as any).message).toContain('another wallet')
    expect((await fetch(url(path))).status).toBe(403)
    const signedForOther = await fetch(url(path), { headers: await asBuyer('/watch/elsewhere') })
    expect(signedForOther.status).toBe(400)
    const unknown = await fetch(url('/watch/w_nothing'), { headers: await asBuyer('/watch/w_nothing') })
    expect(unknown.status).toBe(404)
  })

  test('DELETE by another wallet is refused; by the payer it cancels (no refund) and nothing more is told', async () => {
    const path = `/watch/${watchId}`
    const stranger = await generateKeyPairSigner()
    const refused = await fetch(url(path), {
      method: 'DELETE',
      headers: await signIn(path, stranger, sandbox.file.x402.solana.network),
    })
    expect(refused.status).toBe(403)
    const before = await usdcOf(sandbox, buyer.address)
    const cancelled = await fetch(url(path), { method: 'DELETE', headers: await asBuyer(path) })
    expect(cancelled.status).toBe(200)
    expect(await cancelled.json()).toMatchObject({ watch_id: watchId, state: 'cancelled', refunded: false })
    expect(await usdcOf(sandbox, buyer.address)).toBe(before)
    expect((await ctx.store.watches.get(watchId))!.state).toBe('cancelled')
  })
})

describe('the CLI: solsentry watch --follow, watch status, watch cancel', () => {
  const cli = join(import.meta.dir, '..', 'client', 'cli.ts')
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: '/nonexistent',
    SOLSENTRY_URL: running.url,
    SOLSENTRY_KEYPAIR: buyer.keypair_path,
    SOLSENTRY_SOLANA_RPC: sandbox.file.urls.rpc,
  }
  const run = (args: string[]) => runToEnd([process.execPath, cli, ...args], env)

  test('watch --follow pays, prints each alert as a sentence as it comes, and ends when the watch is cancelled', async () => {
    const before = await usdcOf(sandbox, buyer.address)
    const child = Bun.spawn([process.execPath, cli, 'watch', rugReady, '--hours', '2', '--follow'], {
      env,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
    let printed = ''
    const readUntil = async (what: RegExp) => {
      while (!what.test(printed)) {
        const { value, done } = await reader.read()
        if (done)
          throw new Error(`the CLI ended before printing ${what}: ${printed}${await new Response(child.stderr).text()}`)
        printed += value
      }
      return what.exec(printed)!
    }
    const id = (await readUntil(/\(watch (w_[A-Za-z0-9_-]+)\)/))[1]!
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 2n * HOUR)
    await eventually(
      'the CLI listening',
      () => engine.bus.listeners,
      (listeners) => listeners > 0,
    )
    const minted = await sandbox.rugs['mint-more'](rugReady)
    await readUntil(/CRITICAL mint_used: .+\(slot \d+, transaction \w+\)/)
    expect(printed).toContain(minted.signature)
    const status = await run(['watch', 'status', id])
    expect(status.code).toBe(0)
    expect(status.stdout).toContain(`watch ${id} of ${rugReady}: active`)
    expect(status.stdout).toContain('#1 CRITICAL mint_used')
    const cancelled = await run(['watch', 'cancel', id])
    expect(cancelled.code).toBe(0)
    expect(cancelled.stdout).toContain('not refunded')
    await readUntil(/the stream ended/)
    expect(await child.exited).toBe(0)
  })
})

describe('on Base, and after the paid period', () => {
  test('paid on Base: one hour, its price on chain; the EVM payer reads it signed in', async () => {
    const balance = () => sandbox.evm.usdcBalance(base.payer as `0x${string}`)
    const before = await balance()
    const { paid, json } = await paidWatch({ token_address: rugReady, hours: 1, events: ['mint_used'] }, base)
    expect(paid.status).toBe(200)
    expect(await balance()).toBe(before - HOUR)
    const path = `/watch/${json.watch_id}`
    const evm = privateKeyToAccount(sandbox.file.evm_buyer.private_key as `0x${string}`)
    const read = await fetch(url(path), { headers: await signIn(path, evm, sandbox.file.x402.base.network) })
    expect(read.status).toBe(200)
    expect(((await read.json()) as any).payer.toLowerCase()).toBe(base.payer.toLowerCase())
  })

  test('past its period a watch is told nothing more, and its stream ends', async () => {
    const { json } = await paidWatch({ token_address: rugReady, hours: 1, events: ['mint_used'] })
    const id = json.watch_id as string
    await sandbox.rugs['mint-more'](rugReady)
    await eventually(
      'the alert within the period',
      () => ctx.store.watches.events(id),
      (events) => events.length === 1,
    )
    clockAheadMs = 3_600_000
    await engine.tick()
    expect((await ctx.store.watches.get(id))!.state).toBe('expired')
    await sandbox.rugs['mint-more'](rugReady)
    await engine.settled()
    const path = `/watch/${id}/events`
    const { alerts, ends } = await streamed(path, await asBuyer(path), () => false)
    expect(alerts).toHaveLength(1)
    expect(ends[0]).toContain('expired')
    expect(await ctx.store.watches.events(id)).toHaveLength(1)
    clockAheadMs = 0
  })
})

describe('the route is offered to agents with its price per hour', () => {
  test('MCP: the tool sol_watch says its price; unpaid, the PaymentRequired of those hours; paid, a running watch', async () => {
    const mcp = new Client({ name: 'watch-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)))
    afterAll(() => mcp.close())
    const tool = (await mcp.listTools()).tools.find((entry) => entry.name === 'sol_watch')!
    expect(tool.description).toContain('Costs 0.01 USD per hour (1–168)')
    const args = { token_address: rugReady, hours: 2 }
    const unpaid = (await mcp.callTool({ name: tool.name, arguments: args })) as any
    expect(unpaid.isError).toBe(true)
    expect(unpaid.structuredContent.accepts.map((offer: { amount: string }) => offer.amount)).toEqual([
      '20000',
      '20000',
    ])
    const before = await usdcOf(sandbox, buyer.address)
    const payment = await solana.client.createPaymentPayload(unpaid.structuredContent)
    const paid = (await mcp.callTool({ name: tool.name, arguments: args, _meta: { 'x402/payment': payment } })) as any
    expect(paid.isError).toBeFalsy()
    expect(paid._meta['x402/payment-response']).toMatchObject({ success: true })
    expect(await usdcOf(sandbox, buyer.address)).toBe(before - 2n * HOUR)
    expect((await ctx.store.watches.get(paid.structuredContent.watch_id))!).toMatchObject({
      state: 'active',
      payer: buyer.address,
    })
  })

  test('/.well-known/x402 and the MCP tool list say 0.01 USD per hour (1–168)', async () => {
    const manifest = (await (await fetch(url('/.well-known/x402'))).json()) as any
    expect(manifest.discovery.find((entry: { resource: string }) => entry.resource === 'POST /watch')).toMatchObject({
      price: '0.01 USD per hour (1–168)',
    })
    const metrics = await (await fetch(url('/metrics'))).text()
    expect(metrics).toContain('solsentry_watch_state')
  })
})

describe('a settlement that fails after the watch started', () => {
  test('the watch is stopped at once: nothing runs unpaid, nothing is charged', async () => {
    const body = { token_address: rugReady, hours: 1, events: ['freeze_used'] }
    const challenged = await post(body)
    const header = await paymentHeader(solana.client, challenged.headers.get('payment-required')!)
    const before = await usdcOf(sandbox, buyer.address)
    // Which watch the engine stores (the store itself does the work): the one this call started.
    const store = ctx.store.watches
    const create = store.create
    const created: string[] = []
    store.create = (record) => {
      created.push(record.id)
      return create.call(store, record)
    }
    sandbox.faults.set('facilitator', '/settle', { kind: 'down' })
    try {
      const response = await post(body, { 'payment-signature': header })
      expect(response.status).toBe(402)
      expect(((await response.json()) as any).settlement).toMatchObject({ state: 'pending' })
    } finally {
      sandbox.faults.clear()
      store.create = create
    }
    expect(created).toHaveLength(1)
    expect((await store.get(created[0]!))!.state).toBe('cancelled')
    expect((await store.active()).map((watch) => watch.id)).not.toContain(created[0])
    expect(await usdcOf(sandbox, buyer.address)).toBe(before)
  })
})

describe('shutdown drains an open event stream', () => {
  // Last: it stops this file's service (afterAll's shutdown then finds it stopped).
  test('a stream open when the service drains is ended at once with a reason to reconnect, not cut at the grace', async () => {
    const { json } = await paidWatch({ token_address: rugReady, hours: 1 })
    const path = `/watch/${json.watch_id}/events`
    const open = streamed(path, await asBuyer(path), () => false)
    await eventually(
      'the stream listening',
      () => engine.bus.listeners,
      (listeners) => listeners > 0,
    )
    await running.shutdown('test: drain')
    const { ends } = await open
    expect(ends).toHaveLength(1)
    expect(ends[0]).toContain('shutting down')
  })
})
