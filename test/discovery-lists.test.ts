import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { validateDiscoveryExtension } from '@x402/extensions/bazaar'
import { clientCall } from '../client/catalogue.ts'
import { Solsentry } from '../client/index.ts'
import { fullService } from '../scripts/docs.ts'
import { offerings } from '../src/kernel/catalogue.ts'
import { priceInWords } from '../src/kernel/manifest.ts'
import { send, testApp } from './support/app.ts'

// Every list of routes the service publishes, read live from the service with every source configured
// (so every route is mounted; nothing upstream is called) and from the repository's generated files,
// against the registry: each names every route offered to agents, under the same names and prices.
const ORIGIN = 'https://solsentry.example'
const app = fullService()
const { registry } = app
const offered = offerings(registry)
const paid = registry.routes().filter((route) => route.price !== 'free')
const root = join(import.meta.dir, '..')
const read = (path: string) => Bun.file(join(root, path)).text()

async function get(path: string) {
  const response = await app.handle(new Request(`${ORIGIN}${path}`))
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() }
}

async function mcpTools(): Promise<{ name: string; _meta: Record<string, string> }[]> {
  const response = await app.handle(
    new Request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }),
  )
  return ((await response.json()) as { result: { tools: [] } }).result.tools
}

describe('one list of routes, named alike everywhere', () => {
  test('the service offers the 20 paid routes and the free ones of its skills', () => {
    expect(paid.length).toBe(20)
    for (const route of paid) expect(offered.map((offering) => offering.route.key)).toContain(route.key)
  })

  test('every offered route is a skill of both agent cards, its route and price named there', async () => {
    for (const path of ['/.well-known/agent.json', '/.well-known/agent-card.json']) {
      const card = JSON.parse((await get(path)).text) as { skills: { id: string; description: string }[] }
      const skills = new Map(card.skills.map((skill) => [skill.id, skill.description]))
      for (const { route, skill } of offered) {
        expect(skills.has(skill)).toBe(true)
        expect(skills.get(skill)).toContain(`${route.key} (${priceInWords(route)})`)
      }
      // The skill ids the spec fixes (§4.6).
      for (const id of ['sol_quick_scan', 'sol_market_intel', 'sol_deep_dive', 'sol_trade'])
        expect(skills.has(id)).toBe(true)
    }
  })

  test('every offered route is an MCP tool named sol_<name>; the spec names are kept', async () => {
    const tools = await mcpTools()
    expect(tools.map((tool) => tool.name)).toEqual(offered.map((offering) => offering.tool))
    for (const tool of tools) expect(tool.name).toMatch(/^sol_[a-z0-9_]+$/)
    const byRoute = new Map(tools.map((tool) => [tool._meta['solsentry/route'], tool.name]))
    expect(byRoute.get('POST /scan/quick')).toBe('sol_quick_scan')
    expect(byRoute.get('POST /market/intel')).toBe('sol_market_intel')
    expect(byRoute.get('POST /scan/deep')).toBe('sol_deep_dive')
    expect(byRoute.get('POST /trade/quote')).toBe('sol_trade_quote')
    expect(byRoute.get('POST /trade/execute')).toBe('sol_trade_execute')
    expect(byRoute.get('POST /scan/trending')).toBe('sol_trending')
    for (const route of paid) expect(byRoute.has(route.key)).toBe(true)
  })

  test('every offered route is in /skill.md and skills/solsentry/SKILL.md, with its price and tool', async () => {
    for (const text of [(await get('/skill.md')).text, await read('skills/solsentry/SKILL.md')])
      for (const { route, tool } of offered) {
        expect(text).toContain(`### ${route.key} — ${priceInWords(route)}\n`)
        expect(text).toContain(`MCP tool \`${tool}\``)
      }
  })

  test('every offered route is a row of docs/mcp.md and docs/client.md, with its tool and price', async () => {
    const mcp = await read('docs/mcp.md')
    const client = await read('docs/client.md')
    for (const { route, tool } of offered) {
      expect(mcp).toContain(`| \`${tool}\` | \`${route.key}\` | ${priceInWords(route)} |`)
      expect(client).toMatch(
        new RegExp(
          `\\| \`${escapeRegExp(route.key)}\` \\| ${escapeRegExp(priceInWords(route))} \\|.*\\| \`${tool}\` \\|`,
        ),
      )
    }
  })

  test('/llms.txt lists every offered route once, at its manifest price, linked to its own page', async () => {
    const { text } = await get('/llms.txt')
    expect(text).not.toContain('(free) (free)')
    const endpoints = text.slice(text.indexOf('## Endpoints'), text.indexOf('## Optional'))
    const items = endpoints.split('\n').filter((line) => line.startsWith('- ['))
    const listed = items.map((line) => {
      const match = /^- \[(\w+ \S+)\]\(([^)]+)\): (.+) — (.+?)\. MCP tool `(\w+)`\./.exec(line)
      expect(match).not.toBeNull()
      const [, key, url, summary, price, tool] = match!
      return { key: key!, url: url!, summary: summary!, price: price!, tool: tool! }
    })
    expect(listed.map((item) => item.key)).toEqual(offered.map((offering) => offering.route.key))
    for (const [i, { route, tool }] of offered.entries()) {
      const item = listed[i]!
      expect(item.price).toBe(priceInWords(route))
      expect(item.tool).toBe(tool)
      // The price is said once: not in the summary again.
      expect(item.summary).not.toMatch(/\bfree\b|\d USD/)
      expect(item.url).toStartWith(`${ORIGIN}/docs/routes/`)
      expect((await get(item.url.slice(ORIGIN.length))).status).toBe(200)
    }
    // Nothing links the whole OpenAPI document as a route's description.
    expect(items.filter((line) => line.includes('/openapi.json'))).toEqual([])
  })

  test('no route summary states a price (each list adds it once, from the manifest)', () => {
    for (const route of registry.routes()) expect(route.summary).not.toMatch(/\(free\)|\d+(\.\d+)? USD/)
  })

  test('the SDK and the CLI have a call for every offered route', async () => {
    const cli = await read('client/cli.ts')
    for (const { route } of offered) {
      const call = clientCall(route.key)
      expect(call, route.key).toBeDefined()
      expect(typeof (Solsentry.prototype as unknown as Record<string, unknown>)[call!.sdk]).toBe('function')
      expect(cli).toContain(`case '${call!.cli.split(' ')[0]}':`)
    }
  })
})

describe('small summaries, the detail one link away', () => {
  test('/llm.txt is under 40 KB and links each route’s page, which answers', async () => {
    const { text } = await get('/llm.txt')
    expect(new TextEncoder().encode(text).length).toBeLessThan(40_000)
    for (const route of registry.routes()) expect(text).toContain(`### ${route.key} (${priceInWords(route)}`)
    const links = [...text.matchAll(/^Details: (\S+)$/gm)].map((match) => match[1]!)
    expect(links.length).toBe(registry.routes().length)
    for (const link of new Set(links)) {
      const page = await get(link.slice(ORIGIN.length))
      expect(page.status).toBe(200)
      expect(page.type).toStartWith('text/markdown')
    }
  })

  test('/.well-known/x402 is under 40 KB, lists every paid route with its offers, links its page and schemas', async () => {
    const { text } = await get('/.well-known/x402')
    expect(new TextEncoder().encode(text).length).toBeLessThan(40_000)
    const manifest = JSON.parse(text)
    // The spec's members (§4.6): version 1, resources as `<METHOD> <path>`.
    expect(manifest.version).toBe(1)
    expect(manifest.resources).toEqual(paid.map((route) => route.key))
    const tools = new Map(offered.map((offering) => [offering.route.key, offering.tool]))
    for (const [i, entry] of (manifest.discovery as any[]).entries()) {
      const route = paid[i]!
      expect(entry).toMatchObject({
        resource: route.key,
        url: `${ORIGIN}${route.path}`,
        price_usd: (route.price as { usd: string }).usd,
        mcp_tool: tools.get(route.key),
      })
      expect(entry.offers.length).toBeGreaterThan(0)
      expect((await get(entry.docs.slice(ORIGIN.length))).status).toBe(200)
      const schemas = await get(entry.schemas.slice(ORIGIN.length))
      expect(schemas.status).toBe(200)
      const document = JSON.parse(schemas.text)
      const own = document.routes.find((candidate: any) => candidate.resource === route.key)
      // The route's Bazaar declaration, in full (its output schema too), valid for the official validator.
      expect(validateDiscoveryExtension(own.extensions.bazaar).valid).toBe(true)
      expect(JSON.stringify(own.extensions.bazaar.schema)).toContain('"output"')
      expect(own.output_schema).toBeDefined()
    }
  })

  test('a route page names its tool, price and every field; an unknown page is a JSON 404', async () => {
    const page = await get('/docs/routes/scan-quick.md')
    expect(page.text).toStartWith('# POST /scan/quick — 0.02 USD')
    expect(page.text).toContain('MCP tool: `sol_quick_scan`')
    expect(page.text).toContain('- structural_risk_grade: "A" | "B" | "C" | "D" | "F"')
    // Nested members too: the liquidity check's rating.
    expect(page.text).toMatch(/\n {2}- rating: /)
    // One page per path: GET and POST /mcp together.
    const mcp = await get('/docs/routes/mcp.md')
    expect(mcp.text).toContain('# POST /mcp')
    expect(mcp.text).toContain('# GET /mcp')
    const missing = await get('/docs/routes/no-such-route.md')
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.text)).toMatchObject({ error: true, code: 'NOT_FOUND' })
    expect(JSON.parse(missing.text).message).toContain('scan-quick.md')
    // A hurried reader's spelling finds the page: no extension, capitals.
    for (const asked of ['scan-quick', 'Scan-Quick.md'])
      expect((await get(`/docs/routes/${asked}`)).text).toBe(page.text)
    expect((await get('/docs/schemas/scan-quick')).status).toBe(200)
    const wrong = await get('/docs/routes/scan quick.md')
    expect(wrong.status).toBe(400)
    expect(JSON.parse(wrong.text)).toMatchObject({ error: true, code: 'INVALID_REQUEST' })
  })
})

describe('/openapi.json names its server', () => {
  test('PUBLIC_URL when it is set', async () => {
    const { app: configured } = testApp({ PUBLIC_URL: ORIGIN })
    const document = (await send(configured, 'GET', '/openapi.json')).json
    expect(document.servers).toEqual([{ url: ORIGIN, description: expect.any(String) }])
  })

  test('without PUBLIC_URL, the origin it was asked at (each asker its own, from one cached document)', async () => {
    const { app: bare } = testApp()
    const first = (await (await bare.handle(new Request('http://127.0.0.1:8402/openapi.json'))).json()) as any
    const second = (await (await bare.handle(new Request('http://localhost:9000/openapi.json'))).json()) as any
    expect(first.servers[0].url).toBe('http://127.0.0.1:8402')
    expect(second.servers[0].url).toBe('http://localhost:9000')
    expect(second.paths).toEqual(first.paths)
  })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
