import { afterAll, describe, expect, test } from 'bun:test'
import { getFreezeAccountInstruction } from '@solana-program/token'
import { address, createSolanaRpc } from '@solana/kit'
import pino from 'pino'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { holding } from '../sandbox/scenarios/kit.ts'
import { WatchEngine } from '../plugins/watch/engine.ts'
import { LogMultiplexer, type LogNotification } from '../plugins/watch/log-multiplexer.ts'
import { discoverSubject, readSnapshot, watchedAccounts } from '../plugins/watch/subject-snapshot.ts'
import type { WatchEvent } from '../plugins/watch/watch-events.ts'
import { verifyWebhook } from '../plugins/watch/webhook-signature.ts'
import { Attestor } from '../src/attest/attestation.ts'
import { watchGauges } from '../src/kernel/metrics.ts'
import { loadIssuerRegistry } from '../src/onchain/issuers.ts'
import { DexScreenerSource } from '../src/sources/dexscreener.ts'
import { JupiterSource } from '../src/sources/jupiter.ts'
import { SolanaSource } from '../src/sources/solana-rpc.ts'
import { openSqliteStore } from '../src/store/sqlite.ts'
import type { WatchRecord } from '../src/store/watches.ts'
import { eventually } from './support/eventually.ts'
import { describeWithRedis, startRedis } from './support/redis.ts'
import { webhookReceiver } from './support/watch.ts'
import { redisClient } from '../src/store/redis.ts'
import { redisWatches } from '../src/store/watches-redis.ts'

// The position guard's engine on the sandbox chain: snapshots of the scenario tokens as the facts read
// them, then real transactions (a mint, a developer's sale, a freeze) told by signed webhooks to a real
// receiver, with one subscription per account however many watches share it; and a subscription that
// drops catching up on what it missed.
const sandbox = await startSandbox(ephemeralSandboxOptions())
const logger = pino({ level: 'silent' })
const sources = () => ({
  solana: new SolanaSource({ url: sandbox.file.urls.rpc }),
  dexscreener: new DexScreenerSource({ baseUrl: sandbox.file.urls.dexscreener }),
  jupiter: new JupiterSource({ baseUrl: sandbox.file.urls.jupiter }),
  issuers: loadIssuerRegistry(),
})
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint
const attestor = new Attestor(crypto.getRandomValues(new Uint8Array(32)))

const { received, port: receiverPort } = webhookReceiver()
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
  await sandbox.stop()
})

describe('snapshots of the scenario tokens', () => {
  const snapshotOf = async (name: string) => {
    const using = sources()
    const plan = await discoverSubject(mintOf(name), using, 15_000)
    return { plan, snapshot: await readSnapshot(using.solana, plan) }
  }

  test('locked-lp: the pool’s LP in a Jupiter Lock escrow, dated 180 days out; authorities revoked', async () => {
    const { snapshot } = await snapshotOf('locked-lp')
    expect(snapshot.token.mintAuthority).toBeNull()
    const [pool] = snapshot.pools
    expect(pool).toMatchObject({ venue: 'Raydium AMM v4' })
    expect(pool!.quoteReserve! > 0n && pool!.tokenReserve! > 0n).toBe(true)
    const [lock] = pool!.locks
    expect(lock).toMatchObject({ kind: 'locker', program: 'jupiter_lock', permanent: false })
    expect(lock!.amount > 0n).toBe(true)
    const days = (lock!.unlocksAt! - Date.now() / 1000) / 86_400
    expect(days > 170 && days < 190).toBe(true)
  })

  test('mint-authority-live: the developer holds the mint authority and is followed as an insider', async () => {
    const { snapshot, plan } = await snapshotOf('mint-authority-live')
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    expect(snapshot.token.mintAuthority).toBe(dev.address)
    expect(snapshot.insiders.find((insider) => insider.role === 'developer')?.wallet).toBe(dev.address)
    expect(snapshot.metadata).toMatchObject({ name: 'Printer', symbol: 'PRNT' })
    // Subscribed: the mint, its metadata, the pool and the insiders' token accounts.
    expect(watchedAccounts(plan)).toContain(plan.mint)
    expect(watchedAccounts(plan)).toContain(plan.pools[0]!.address)
  })

  test('hostile-token-2022: fee, hook, permanent delegate and frozen-by-default read from the extensions', async () => {
    const { snapshot } = await snapshotOf('hostile-token-2022')
    expect(snapshot.token.transferFee?.basisPoints).toBe(1_000)
    expect(snapshot.token.transferHook).not.toBeNull()
    expect(snapshot.token.permanentDelegate).not.toBeNull()
    expect(snapshot.token.defaultAccountState).toBe('frozen')
  })

  test('fake-stablecoin: its metadata reads as the registered USDC', async () => {
    const { snapshot } = await snapshotOf('fake-stablecoin')
    expect(snapshot.impersonates?.symbol).toBe('USDC')
    // The real one is nobody's copy.
    const real = await snapshotOf('blue-chip')
    expect(real.snapshot.impersonates).toBeNull()
  })
})

describe('the engine on live transactions', () => {
  const watchOf = (id: string, mint: string, webhook: boolean): WatchRecord => ({
    id,
    subject: { kind: 'token', address: mint },
    events: [],
    thresholds: {},
    webhookUrl: webhook ? `http://127.0.0.1:${receiverPort}/hook` : null,
    exit: null,
    payer: 'payer',
    paidFrom: Date.now() - 1_000,
    paidUntil: Date.now() + 3_600_000,
    state: 'active',
    createdAt: Date.now(),
  })

  test('two watches of one token share its subscriptions; a mint and a developer’s sale reach the webhook signed, in order', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
      delivery: { baseDelayMs: 10, maxDelayMs: 50 },
    })
    closers.push(() => engine.stop())
    await engine.start()
    const mint = mintOf('mint-authority-live')
    const first = await engine.watch(watchOf('printer-1', mint, true))
    expect(first.ok).toBe(true)
    const alone = engine.counts()
    const second = await engine.watch(watchOf('printer-2', mint, false))
    expect(second.ok).toBe(true)
    // The second watch adds no subscription: one per account, whichever watches read it.
    expect(engine.counts()).toMatchObject({
      watches: 2,
      subjects: 1,
      subscriptions: alone.subscriptions,
      references: alone.references,
    })
    expect(alone.subscriptions).toBe(first.ok ? first.accounts.length : -1)
    // /metrics reads the same.
    const gauge = async (what: string) =>
      (await watchGauges.get()).values.find((sample) => sample.labels.what === what)?.value
    expect(await gauge('watches')).toBe(2)
    expect(await gauge('subscriptions')).toBe(alone.subscriptions)

    const streamed: WatchEvent[] = []
    engine.bus.subscribe('printer-2', (event) => streamed.push(event))
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    await sandbox.world.mintTo(mint, dev.address, 1_000_000_000_000n, dev)
    const sent = await eventually(
      'the mint told to the webhook',
      () => received.filter((entry) => entry.watchId === 'printer-1'),
      (entries) => entries.length >= 1,
    )
    const event = JSON.parse(sent[0]!.body) as WatchEvent
    expect(event).toMatchObject({ kind: 'mint_used', severity: 'critical', watch_id: 'printer-1' })
    expect(event.signature).not.toBeNull()
    expect(
      await verifyWebhook({
        header: sent[0]!.signature,
        watchId: 'printer-1',
        body: sent[0]!.body,
        publicKey: attestor.publicKey,
      }),
    ).toBe(true)
    // The watch without a webhook has it too, on the bus (what SSE streams) and in the store.
    await eventually(
      'the mint on the bus',
      () => streamed.length,
      (count) => count >= 1,
    )
    expect(streamed[0]!.kind).toBe('mint_used')
    expect((await store.watches.events('printer-2')).map((entry) => entry.delivery.state)).toEqual(['none'])

    // The developer sends 60% of its holding away: insider selling.
    const held = await holding(sandbox.world, mint, dev.address)
    const buyer = await sandbox.world.wallet('watch-test:receiver', 1)
    await sandbox.world.transfer(mint, dev, buyer.address, (held * 6n) / 10n)
    const kinds = await eventually(
      'the sale told',
      () => received.filter((entry) => entry.watchId === 'printer-1').map((entry) => JSON.parse(entry.body).kind),
      (list) => list.includes('insider_selling'),
    )
    expect(kinds).toEqual(['mint_used', 'insider_selling'])
    await engine.settled()
    const stored = await store.watches.events<WatchEvent>('printer-1')
    expect(stored.map((entry) => [entry.event.kind, entry.delivery.state])).toEqual([
      ['mint_used', 'delivered'],
      ['insider_selling', 'delivered'],
    ])
    expect(stored[1]!.event.after.sold_pct).toBe(60)

    // Cancelled: its subscriptions are given up once no watch reads the token.
    await engine.cancel('printer-1')
    await engine.cancel('printer-2')
    expect(engine.counts()).toMatchObject({ watches: 0, subjects: 0, subscriptions: 0, references: 0 })
  })

  test('a freeze of a holder’s account: freeze_used, read from the transaction’s instructions', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    await engine.start()
    const mint = mintOf('freeze-authority-live')
    expect((await engine.watch(watchOf('icebox', mint, false))).ok).toBe(true)
    const dev = await sandbox.world.signer('freeze-authority-live:dev')
    const holder = await sandbox.world.wallet('watch-test:frozen', 1)
    await sandbox.world.transfer(mint, dev, holder.address, 1_000_000n)
    const account = await sandbox.world.ata(mint, holder.address)
    await sandbox.world.run(dev, [getFreezeAccountInstruction({ account, mint: address(mint), owner: dev })])
    const events = await eventually(
      'the freeze stored',
      async () => (await store.watches.events<WatchEvent>('icebox')).map((entry) => entry.event.kind),
      (kinds) => kinds.includes('freeze_used'),
    )
    expect(events).toContain('freeze_used')
  })

  test('the developer withdrawing half the pool: liquidity_removed, with the reserves before and after', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    const mint = mintOf('bundled-launch')
    expect((await engine.watch(watchOf('bundled', mint, false))).ok).toBe(true)
    const pool = sandbox.world.pools.all().find((entry) => entry.baseMint === mint && entry.kind === 'raydium-amm-v4')!
    const before = engine.snapshotOf(mint)!.pools.find((entry) => entry.address === pool.address)!
    await sandbox.world.removeLiquidity(pool, await sandbox.world.signer('bundled:dev'), 0.5)
    const [event] = await eventually(
      'the withdrawal stored',
      async () => (await store.watches.events<WatchEvent>('bundled')).map((entry) => entry.event),
      (events) => events.some((entry) => entry.kind === 'liquidity_removed'),
    )
    expect(event).toMatchObject({ kind: 'liquidity_removed', severity: 'high' })
    expect(event!.before.quote_reserve).toBe(before.quoteReserve!.toString())
    expect(event!.after.removed_pct).toBe(50)
    expect(event!.sentence).toContain('50% of the Raydium AMM v4 pool’s liquidity was withdrawn in one transaction')
  })

  test('a restart: the engine that follows next reports what changed while none was running', async () => {
    const store = openSqliteStore(':memory:')
    const options = { store: store.watches, wsUrl: sandbox.file.urls.ws, attestor, logger }
    const mint = mintOf('mint-authority-live')
    const first = new WatchEngine({ ...options, sources: sources() })
    expect((await first.watch(watchOf('across-restart', mint, false))).ok).toBe(true)
    await first.stop()
    // While no engine runs, the developer mints.
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    await sandbox.world.mintTo(mint, dev.address, 7_000_000n, dev)
    const second = new WatchEngine({ ...options, sources: sources() })
    closers.push(() => second.stop())
    await second.start()
    expect(second.counts().watches).toBe(1)
    const [event] = (await store.watches.events<WatchEvent>('across-restart')).map((entry) => entry.event)
    expect(event).toMatchObject({ kind: 'mint_used', signature: null })
    expect(event!.after.minted).toBe('7000000')
  })

  test('a change the store failed to keep is reported with the next one, never lost', async () => {
    const store = openSqliteStore(':memory:')
    // The store refuses the first event (as a Redis away would), then answers again.
    let refusals = 1
    const watches = {
      ...store.watches,
      append: (...args: Parameters<typeof store.watches.append>) => {
        if (refusals-- > 0) return Promise.reject(new Error('the store did not answer'))
        return store.watches.append(...args)
      },
    }
    const engine = new WatchEngine({
      store: watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    const mint = mintOf('mint-authority-live')
    expect((await engine.watch(watchOf('kept-later', mint, false))).ok).toBe(true)
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    await sandbox.world.mintTo(mint, dev.address, 3_000_000n, dev)
    await eventually(
      'the refusal spent',
      () => refusals,
      (left) => left < 0,
    )
    await sandbox.world.mintTo(mint, dev.address, 4_000_000n, dev)
    // One transaction notifies for each watched account it mentions (the mint, the developer's account):
    // the refused first is kept with the next notification. Nothing is lost: every unit minted is told once.
    const minted = async () =>
      (await store.watches.events<WatchEvent>('kept-later'))
        .map((entry) => entry.event)
        .filter((event) => event.kind === 'mint_used')
        .reduce((sum, event) => sum + BigInt(event.after.minted as string), 0n)
    expect(await eventually('both mints reported', minted, (sum) => sum >= 7_000_000n)).toBe(7_000_000n)
  })

  test('LP taken out of its lock: lp_moved, critical', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    const mint = mintOf('locked-lp')
    expect((await engine.watch(watchOf('locked', mint, false))).ok).toBe(true)
    const pool = sandbox.world.pools.all().find((entry) => entry.baseMint === mint && entry.kind === 'raydium-amm-v4')!
    const [lock] = engine.snapshotOf(mint)!.pools.find((entry) => entry.address === pool.address)!.locks
    // The escrow's key signs the LP out (the lock program cannot run offline: its escrow is a plain key here).
    const escrow = await sandbox.world.signer('locked-lp:escrow')
    const dev = await sandbox.world.signer('locked-lp:dev')
    await sandbox.world.transfer(pool.lpMint!, escrow, dev.address, lock!.amount, dev)
    const [event] = await eventually(
      'the LP move stored',
      async () =>
        (await store.watches.events<WatchEvent>('locked'))
          .map((entry) => entry.event)
          .filter((e) => e.kind === 'lp_moved'),
      (events) => events.length > 0,
    )
    expect(event).toMatchObject({
      severity: 'critical',
      before: { lock_account: lock!.account, kind: 'locker', amount: lock!.amount.toString() },
      after: { amount: '0' },
    })
    expect(event!.sentence).toContain('100% of the LP tokens locked by jupiter lock left it')
  })

  test('a watch of a wallet, an unknown event or a threshold out of bounds is refused with the reason', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    const base = watchOf('refused', mintOf('blue-chip'), false)
    expect(await engine.watch({ ...base, subject: { kind: 'wallet', address: base.subject.address } })).toMatchObject({
      ok: false,
      reason: 'wallet watches are not built yet: watch a token',
    })
    expect(await engine.watch({ ...base, thresholds: { insider_selling_pct: 0 } })).toMatchObject({ ok: false })
    expect(await engine.watch({ ...base, events: ['moon'] })).toMatchObject({ ok: false })
    expect(await engine.watch({ ...base, paidUntil: Date.now() - 1 })).toMatchObject({ ok: false })
    expect(await store.watches.get('refused')).toBeUndefined()
    await engine.stop()
  })

  test('subscriptions that never answer: the watch is refused with the reason and nothing is kept', async () => {
    // A port nothing listens on stands for an RPC whose WebSocket is down.
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') })
    const port = closed.port
    closed.stop(true)
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: `ws://127.0.0.1:${port}`,
      attestor,
      logger,
      subscribeTimeoutMs: 300,
      subscriptions: { initialPauseMs: 50, maxPauseMs: 100 },
    })
    closers.push(() => engine.stop())
    const outcome = await engine.watch(watchOf('unreachable', mintOf('blue-chip'), false))
    expect(outcome).toEqual({
      ok: false,
      reason: "the token cannot be watched: the RPC's subscriptions did not answer within 300 ms",
    })
    expect((await store.watches.get('unreachable'))?.state).toBe('cancelled')
    expect(engine.counts()).toMatchObject({ watches: 0, subjects: 0, subscriptions: 0 })
  })

  test('expiry: past its paid period a watch ends and nothing more is detected for it', async () => {
    const store = openSqliteStore(':memory:')
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    const record = watchOf('short', mintOf('blue-chip'), false)
    expect((await engine.watch(record)).ok).toBe(true)
    await engine.tick(record.paidUntil + 1)
    expect((await store.watches.get('short'))?.state).toBe('expired')
    expect(engine.counts()).toMatchObject({ watches: 0, subscriptions: 0 })
  })
})

describe('exits on alerts: built once per event and holder', () => {
  test('an expired lock found again by every tick gets one exit; two watches naming one holder share it; another holder gets its own', async () => {
    const store = openSqliteStore(':memory:')
    const asked: string[] = []
    const engine = new WatchEngine({
      store: store.watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
      // The engine's seam to the trade's exitFor: each build counted, answered as a wallet holding none.
      exits: async (request) => {
        asked.push(request.user_public_key)
        return { status: 'NOTHING_HELD', code: 'NOTHING_HELD', reason: 'holds none', job_id: null, exit_rating: null }
      },
    })
    closers.push(() => engine.stop())
    const mint = mintOf('locked-lp')
    const DAY = 86_400_000
    const holderA = 'HoLdA111111111111111111111111111111111111111'
    const holderB = 'HoLdB111111111111111111111111111111111111111'
    const record = (id: string, holder: string): WatchRecord => ({
      id,
      subject: { kind: 'token', address: mint },
      events: ['lp_unlocked'],
      thresholds: {},
      webhookUrl: null,
      exit: { userPublicKey: holder, slippageBps: 300 },
      payer: 'payer',
      paidFrom: Date.now() - 1_000,
      paidUntil: Date.now() + 400 * DAY,
      state: 'active',
      createdAt: Date.now(),
    })
    for (const [id, holder] of [
      ['lock-a1', holderA],
      ['lock-a2', holderA],
      ['lock-b', holderB],
    ] as const)
      expect((await engine.watch(record(id, holder))).ok).toBe(true)
    // The lock's release (about 180 days out) passed: each tick finds lp_unlocked again.
    await engine.tick(Date.now() + 200 * DAY)
    await engine.tick(Date.now() + 200 * DAY + 60_000)
    await engine.settled()
    expect(asked.sort()).toEqual([holderA, holderB])
    for (const id of ['lock-a1', 'lock-a2', 'lock-b']) {
      const events = await store.watches.events<WatchEvent>(id)
      expect(events.map((item) => [item.event.kind, item.event.exit?.status])).toEqual([
        ['lp_unlocked', 'NOTHING_HELD'],
      ])
    }
  })
})

describe('subscriptions that drop', () => {
  test('after the connection is cut, the subscription comes back and reads back the transaction it missed', async () => {
    // A WebSocket relay between the multiplexer and the sandbox, which the test can cut.
    const upstream = sandbox.file.urls.ws
    const links = new Set<{ client: import('bun').ServerWebSocket<{ remote?: WebSocket }>; remote: WebSocket }>()
    let cut = false
    const relay = Bun.serve<{ remote?: WebSocket; queue: string[] }>({
      port: 0,
      fetch(request, server) {
        if (cut) return new Response('down', { status: 503 })
        return server.upgrade(request, { data: { queue: [] } }) ? undefined : new Response('no', { status: 400 })
      },
      websocket: {
        open(client) {
          const remote = new WebSocket(upstream)
          client.data.remote = remote
          remote.addEventListener('open', () => {
            for (const message of client.data.queue) remote.send(message)
          })
          remote.addEventListener('message', (event) => client.send(String(event.data)))
          remote.addEventListener('close', () => client.close())
          links.add({ client: client as never, remote })
        },
        message(client, message) {
          const remote = client.data.remote!
          if (remote.readyState === WebSocket.OPEN) remote.send(String(message))
          else client.data.queue.push(String(message))
        },
        close(client) {
          client.data.remote?.close()
        },
      },
    })
    closers.push(() => relay.stop(true))
    const seen: LogNotification[] = []
    const multiplexer = new LogMultiplexer({
      wsUrl: `ws://127.0.0.1:${relay.port}`,
      solana: new SolanaSource({ url: sandbox.file.urls.rpc }),
      logger,
      onLogs: (notification) => void seen.push(notification),
      initialPauseMs: 50,
      maxPauseMs: 200,
    })
    closers.push(() => multiplexer.stop())
    const mint = mintOf('mint-authority-live')
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    await multiplexer.acquire(mint, 'a')
    await multiplexer.acquire(mint, 'b')
    expect(multiplexer.counts).toMatchObject({ subscriptions: 1, references: 2 })

    await sandbox.world.mintTo(mint, dev.address, 1n, dev)
    await eventually(
      'the live notification',
      () => seen.length,
      (count) => count >= 1,
    )
    expect(seen[0]).toMatchObject({ account: mint, caughtUp: false })

    // Cut: the relay drops its connections as a network would (no closing handshake) and refuses new
    // ones while a transaction lands.
    cut = true
    for (const link of links) link.client.terminate()
    links.clear()
    await eventually(
      'the drop noticed',
      () => multiplexer.counts.reconnects,
      (count) => count >= 1,
    )
    await sandbox.world.mintTo(mint, dev.address, 2n, dev)
    cut = false
    const caught = await eventually(
      'the missed transaction read back',
      () => seen.filter((entry) => entry.caughtUp),
      (entries) => entries.length >= 1,
    )
    // It is the transaction made while cut: the mint's newest.
    const [newest] = await createSolanaRpc(sandbox.file.urls.rpc)
      .getSignaturesForAddress(address(mint), { limit: 1 })
      .send()
    expect(caught.map((entry) => [entry.account, entry.signature])).toEqual([[mint, newest!.signature]])
    expect(caught[0]!.signature).not.toBe(seen[0]!.signature)

    multiplexer.release(mint, 'a')
    expect(multiplexer.counts).toMatchObject({ subscriptions: 1, references: 1 })
    multiplexer.release(mint, 'b')
    expect(multiplexer.counts).toMatchObject({ subscriptions: 0, references: 0 })
  })
})

describeWithRedis('the engine on the Redis store', () => {
  test('a mint told by webhook, its delivery and the token’s snapshot kept in Redis', async () => {
    const redis = await startRedis()
    const client = redisClient(redis.url)
    closers.push(async () => {
      client.close()
      await redis.stop()
    })
    const watches = redisWatches(client)
    const engine = new WatchEngine({
      store: watches,
      sources: sources(),
      wsUrl: sandbox.file.urls.ws,
      attestor,
      logger,
    })
    closers.push(() => engine.stop())
    const mint = mintOf('mint-authority-live')
    const record: WatchRecord = {
      id: 'redis-printer',
      subject: { kind: 'token', address: mint },
      events: ['mint_used'],
      thresholds: {},
      webhookUrl: `http://127.0.0.1:${receiverPort}/hook`,
      exit: null,
      payer: 'payer',
      paidFrom: Date.now() - 1_000,
      paidUntil: Date.now() + 3_600_000,
      state: 'active',
      createdAt: Date.now(),
    }
    expect((await engine.watch(record)).ok).toBe(true)
    const dev = await sandbox.world.signer('mint-authority-live:dev')
    await sandbox.world.mintTo(mint, dev.address, 5_000_000n, dev)
    await eventually(
      'the mint delivered',
      async () => (await watches.events<WatchEvent>('redis-printer')).map((entry) => entry.delivery.state),
      (states) => states.includes('delivered'),
    )
    const sent = received.filter((entry) => entry.watchId === 'redis-printer')
    expect(sent.map((entry) => JSON.parse(entry.body).after.minted)).toEqual(['5000000'])
    expect(await watches.snapshot(mint)).toContain(`"slot":${engine.snapshotOf(mint)!.slot}`)
  })
})
