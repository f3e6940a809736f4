import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { extractDiscoveryInfo, validateDiscoveryExtension } from '@x402/extensions/bazaar'
import { routeDiscovery } from '../src/payments/discovery.ts'
import { liveService } from './support/live.ts'

// What x402 directories read: every paid route's 402 carries the Bazaar discovery extension and the
// resource's service name and tags (checked with the official @x402/extensions validators), and
// /openapi.json's x-payment-info has the directories' price/protocols shape.
const { ctx, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const priced = ctx.registry.routes().filter((route) => route.price !== 'free')

describe('Bazaar discovery in every 402', () => {
  test.each(priced.map((route) => [route.key, route] as const))('%s', async (_, route) => {
    const { extensions } = routeDiscovery(route)
    const example = (extensions.bazaar as any).info.input.body
    // The example body is one the route accepts: sent without payment, it is challenged (never a 400).
    // Trade execute holds its payment once the job it names exists: its example names none (404).
    const send = (body: unknown) =>
      fetch(`${running.url}${route.path}`, {
        method: route.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    let response = await send(example)
    // A price per unit reads the example's mints before any challenge, and they are mainnet's, absent from
    // the sandbox: the batch buys nothing there (answered free), a watch has no token to follow (404) —
    // never a 400. The same request with a sandbox mint is challenged.
    if (route.price !== 'free' && route.price.per) {
      if (route.path === '/scan/quick/batch') {
        expect(response.status).toBe(200)
        expect(((await response.json()) as { charged: { units: number } }).charged.units).toBe(0)
      } else expect(response.status).toBe(404)
      response = await send(withSandboxMint(example, mintOf('blue-chip')))
    }
    if (route.deferredPayment) {
      expect(response.status).toBe(404)
      expect(validateDiscoveryExtension(extensions.bazaar as any)).toEqual({ valid: true })
      return
    }
    expect(response.status).toBe(402)
    const challenge = JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString())
    expect(challenge.resource).toMatchObject({ serviceName: 'solsentry', mimeType: 'application/json' })
    expect(challenge.resource.tags.length).toBeLessThanOrEqual(5)
    const bazaar = challenge.extensions.bazaar
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true })
    expect(bazaar.info.input).toMatchObject({ type: 'http', method: route.method, bodyType: 'json', body: example })
    // The output example fits the response schema; the challenge stays small (a payment echoes it).
    expect(Value.Check(route.response, bazaar.info.output.example)).toBe(true)
    expect(response.headers.get('payment-required')!.length).toBeLessThan(8_000)
    expect(extractDiscoveryInfo(challenge, challenge.accepts[0])?.resourceUrl).toBe(`${running.url}${route.path}`)
  })

  test('/.well-known/x402 lists each paid route: its offers as in OpenAPI, its Bazaar declaration in full one link away', async () => {
    const manifest = (await (await fetch(`${running.url}/.well-known/x402`)).json()) as any
    const document = (await (await fetch(`${running.url}/openapi.json`)).json()) as any
    expect(manifest.discovery.map((entry: any) => entry.resource)).toEqual(manifest.resources)
    for (const entry of manifest.discovery) {
      const schemas = (await (await fetch(entry.schemas)).json()) as any
      const own = schemas.routes.find((route: any) => route.resource === entry.resource)
      expect(validateDiscoveryExtension(own.extensions.bazaar).valid).toBe(true)
      // There the output schema is in full (the 402 carries its example only, to keep payment headers small).
      expect(JSON.stringify(own.extensions.bazaar.schema)).toContain('"output"')
      // The offers are the ones the route's OpenAPI x-payment-info names (the same rails and amount).
      const path = entry.resource.slice(entry.resource.indexOf(' ') + 1)
      const info = document.paths[path].post['x-payment-info']
      expect(entry.offers).toEqual(info.protocols[0].x402.accepts)
    }
  })

  test('x-payment-info: the directories’ price and protocols shape, the earlier members kept', async () => {
    const document = (await (await fetch(`${running.url}/openapi.json`)).json()) as any
    const info = document.paths['/scan/quick'].post['x-payment-info']
    expect(info).toMatchObject({
      price: { mode: 'fixed', currency: 'USD', amount: '0.02' },
      protocols: [{ x402: { x402Version: 2, scheme: 'exact' } }],
      price_usd: '0.02',
      amount: '20000',
      currency: 'USDC',
    })
    expect(info.protocols[0].x402.accepts.map((offer: any) => offer.network)).toEqual(info.networks)
    for (const offer of info.protocols[0].x402.accepts) expect(offer.amount).toBe('20000')
  })
})

/** An example body with its mints (`token_address`, `token_addresses`) replaced by a sandbox one. */
function withSandboxMint(example: Record<string, unknown>, mint: string): Record<string, unknown> {
  return {
    ...example,
    ...('token_address' in example ? { token_address: mint } : {}),
    ...('token_addresses' in example ? { token_addresses: [mint] } : {}),
  }
}
