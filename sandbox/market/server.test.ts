import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { NATIVE_MINT } from '../world/swap.ts'
import { pairOf, type DexPair } from './pairs.ts'
import { startMarketServer, type RunningMarketServer } from './server.ts'
import { NOW_UNIX_S, tradedMarketWorld, type TradedMarketWorld } from './test-world.ts'

const UNKNOWN_MINT = 'Unknown111111111111111111111111111111111111'

let market: TradedMarketWorld
let server: RunningMarketServer

beforeAll(async () => {
  market = await tradedMarketWorld()
  server = startMarketServer(market.world, { hostname: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await server.stop()
})

async function get(path: string): Promise<{ status: number; contentType: string | null; body: any }> {
  const response = await fetch(`${server.url}${path}`)
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.json() }
}

/** What a pair looks like on the wire. */
function wire(pair: DexPair): unknown {
  return JSON.parse(JSON.stringify(pair))
}

function addresses(pairs: DexPair[]): string[] {
  return pairs.map((pair) => pair.pairAddress)
}

describe('market server', () => {
  test('GET /tokens/v1/solana/{token}: every pool of the token, deepest first, as of the chain’s time', async () => {
    const { world, tst, tstSol, tstUsdc } = market
    expect(world.chain.unixS).toBe(NOW_UNIX_S)
    const { status, contentType, body } = await get(`/tokens/v1/solana/${tst}`)
    expect(status).toBe(200)
    expect(contentType).toContain('application/json')
    expect(addresses(body)).toEqual([tstSol.address, tstUsdc.address])
    expect(body[0]).toEqual(wire(pairOf(world, tstSol, NOW_UNIX_S)))
    expect(body[0].txns).toEqual({
      m5: { buys: 1, sells: 0 },
      h1: { buys: 1, sells: 1 },
      h6: { buys: 2, sells: 2 },
      h24: { buys: 3, sells: 2 },
    })
    expect(body[0].volume.m5).toBe(75)
    expect(body[0].liquidity.usd).toBeGreaterThan(body[1].liquidity.usd)
    expect(body[0].pairCreatedAt).toBe(1_700_000_000_000)
  })

  test('GET /tokens/v1/solana/{a,b}: pools of either token, each once, sorted by liquidity; a percent-encoded comma works', async () => {
    const { tst, solUsdc, tstSol, tstUsdc } = market
    const expected = [solUsdc.address, tstSol.address, tstUsdc.address]
    expect(addresses((await get(`/tokens/v1/solana/${tst},${NATIVE_MINT}`)).body)).toEqual(expected)
    expect(addresses((await get(`/tokens/v1/solana/${NATIVE_MINT}%2C${tst}`)).body)).toEqual(expected)
    const sol = (await get(`/tokens/v1/solana/${NATIVE_MINT}`)).body as DexPair[]
    expect(addresses(sol)).toEqual([solUsdc.address, tstSol.address])
    // wSOL as a base token: the chain has no SOL supply to value it with.
    expect(sol[0]).toMatchObject({
      priceUsd: '150',
      liquidity: { usd: 300_000, base: 1_000, quote: 150_000 },
      fdv: null,
      marketCap: null,
    })
  })

  test('GET /tokens/v1: unknown tokens and other chains give an empty list', async () => {
    expect(await get(`/tokens/v1/solana/${UNKNOWN_MINT}`)).toMatchObject({ status: 200, body: [] })
    expect(await get(`/tokens/v1/ethereum/${market.tst}`)).toMatchObject({ status: 200, body: [] })
  })

  test('more than 30 addresses is a 400; exactly 30 is answered', async () => {
    const thirty = [market.tst, ...Array.from({ length: 29 }, () => UNKNOWN_MINT)].join(',')
    const tooMany = `${thirty},${UNKNOWN_MINT}`
    expect((await get(`/tokens/v1/solana/${thirty}`)).status).toBe(200)
    expect((await get(`/latest/dex/tokens/${thirty}`)).status).toBe(200)
    for (const path of [
      `/tokens/v1/solana/${tooMany}`,
      `/latest/dex/tokens/${tooMany}`,
      `/latest/dex/pairs/solana/${tooMany}`,
    ]) {
      const { status, contentType, body } = await get(path)
      expect(status).toBe(400)
      expect(contentType).toContain('application/json')
      expect(body.message).toContain('31')
    }
  })

  test('GET /latest/dex/tokens/{addresses}: the schema envelope, with pairs null when nothing matches', async () => {
    const { tst, tstSol, tstUsdc } = market
    const found = await get(`/latest/dex/tokens/${tst}`)
    expect(found.status).toBe(200)
    expect(found.body.schemaVersion).toBe('1.0.0')
    expect(addresses(found.body.pairs)).toEqual([tstSol.address, tstUsdc.address])
    expect(await get(`/latest/dex/tokens/${UNKNOWN_MINT}`)).toMatchObject({
      status: 200,
      body: { schemaVersion: '1.0.0', pairs: null },
    })
  })

  test('GET /token-pairs/v1/solana/{token}: the pools of one token', async () => {
    const { world, usdc, solUsdc, tstUsdc } = market
    const { status, body } = await get(`/token-pairs/v1/solana/${usdc}`)
    expect(status).toBe(200)
    expect(addresses(body)).toEqual([solUsdc.address, tstUsdc.address])
    expect(body[1]).toEqual(wire(pairOf(world, tstUsdc, NOW_UNIX_S)))
    expect((await get(`/token-pairs/v1/solana/${UNKNOWN_MINT}`)).body).toEqual([])
  })

  test('GET /latest/dex/pairs/solana/{pairs}: pairs by pool address', async () => {
    const { tstSol, tstUsdc } = market
    const one = await get(`/latest/dex/pairs/solana/${tstUsdc.address}`)
    expect(one.status).toBe(200)
    expect(one.body.schemaVersion).toBe('1.0.0')
    expect(addresses(one.body.pairs)).toEqual([tstUsdc.address])
    expect(one.body.pairs[0].labels).toEqual(['CLMM'])
    const two = await get(`/latest/dex/pairs/solana/${tstUsdc.address},${UNKNOWN_MINT},${tstSol.address}`)
    expect(addresses(two.body.pairs)).toEqual([tstSol.address, tstUsdc.address])
    expect((await get(`/latest/dex/pairs/solana/${UNKNOWN_MINT}`)).body).toEqual({
      schemaVersion: '1.0.0',
      pairs: null,
    })
  })

  test('unknown routes are 404 JSON; other methods on a route are 405', async () => {
    for (const path of ['/', '/tokens/v1/solana', '/latest/dex/search?q=TST', '/tokens/v2/solana/x']) {
      const { status, contentType, body } = await get(path)
      expect(status).toBe(404)
      expect(contentType).toContain('application/json')
      expect(body.error).toBe('Not Found')
    }
    const post = await fetch(`${server.url}/tokens/v1/solana/${market.tst}`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('market server over time', () => {
  test('answers follow the chain: when time moves on, trades leave the windows', async () => {
    const later = await tradedMarketWorld()
    const running = startMarketServer(later.world, { hostname: '127.0.0.1', port: 0 })
    try {
      const read = async () =>
        ((await (await fetch(`${running.url}/tokens/v1/solana/${later.tst}`)).json()) as DexPair[])[0]!
      expect((await read()).txns.m5).toEqual({ buys: 1, sells: 0 })
      // Ten minutes on, the last trade (2 minutes old before) is 12 minutes old.
      later.world.chain.advanceTo(NOW_UNIX_S + 600)
      const pair = await read()
      expect(pair.txns.m5).toEqual({ buys: 0, sells: 0 })
      expect(pair.volume.m5).toBe(0)
      expect(pair.priceChange.m5).toBe(0)
      expect(pair.txns.h1).toEqual({ buys: 1, sells: 1 })
    } finally {
      await running.stop()
    }
  })
})
