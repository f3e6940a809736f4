import { routeDiscovery } from '../../src/payments/discovery.ts'
import { paymentRails, railsInWords } from '../../src/payments/rails.ts'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../../src/context.ts'
import { htmlHeaders } from '../../src/http/html.ts'
import { publicOrigin, requestIdOf } from '../../src/http/request.ts'
import { paymentInfo, routeOptions } from '../../src/http/route-options.ts'
import { cardSkills, offerings, routeDoc } from '../../src/kernel/catalogue.ts'
import { ApiError, errorBody } from '../../src/kernel/errors.ts'
import { SCHEMA_VERSION, SERVICE_VERSION } from '../../src/kernel/version.ts'
import { type Price, priceInWords } from '../../src/kernel/manifest.ts'
import type { HealthReading } from '../../src/kernel/health.ts'
import { failingRoutes } from '../../src/sources/health-probes.ts'
import { a2aCard, serviceDescription } from './agent-card.ts'
import { renderLlmTxt } from './llm-txt.ts'
import { renderLlmsTxt } from './llms-txt.ts'
import { renderSkill } from './skill.ts'
import { manifest } from './manifest.ts'
import { openApiDocument } from './openapi.ts'
import { renderRouteDoc, routeDocPath, routeSchemaPath, routeSchemas, routesOfDoc } from './route-docs.ts'
import { shippedFile } from '../../src/runtime/files.ts'

// The API viewer's browser bundle, served by the service itself (Bun embeds the file in the compiled
// binary; Deno reads it from node_modules): /docs renders offline, with no CDN.
const viewerFile = shippedFile(
  // @ts-expect-error a file import (Bun answers its path); the bundle ships no type declarations
  () => import('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', { with: { type: 'file' } }),
  new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url),
)

export { manifest }

/**
 * Discovery and liveness: /health, /.well-known/x402, /.well-known/agent.json, /openapi.json,
 * /llm.txt and /docs, all generated from the manifests of the plugins actually registered.
 */
export function discoveryPlugin(ctx: ServiceContext) {
  ctx.registry.register(manifest)
  const { routes } = manifest
  // The payment rails the operator configured, in words: the texts name those only.
  const rails = railsInWords(paymentRails(ctx.config))
  let openapiCache: { routeCount: number; head: string; tail: string } | undefined
  const offersOf = (price: Exclude<Price, 'free'>) => paymentInfo(ctx, price).protocols[0]!.x402.accepts

  let healthCache:
    | {
        reading: HealthReading
        refused: string
        offCount: number
        head: string
        tail: string
        uptime?: number
        bytes?: Uint8Array
      }
    | undefined

  /**
   * /health's JSON as UTF-8, in the order of the route's schema (schema_version first, as the core stamps
   * it). All but `uptime_s` changes only with the health board's reading (at most a second old), the RPC's
   * refused methods and the routes switched off (the failing routes follow from the reading), so that text is kept, and rebuilt when one of them
   * changes; the bytes are kept for as long as `uptime_s` (whole seconds, computed on every answer) stays
   * the same. Answered as a Response: no copy, response check and JSON encoding of the object per request.
   */
  function healthBody(reading: HealthReading): Uint8Array {
    const solana = ctx.sources.solana
    const refused = solana ? solana.refused : []
    const off = ctx.registry.off()
    const key = refused.join(',')
    let cache = healthCache
    if (cache?.reading !== reading || cache.refused !== key || cache.offCount !== off.length) {
      const { status, components, details } = reading
      const head = JSON.stringify({ schema_version: SCHEMA_VERSION, status, version: SERVICE_VERSION })
      const tail = JSON.stringify({
        sources: components,
        probes: details,
        ...(solana
          ? {
              rpc: {
                provider: solana.provider.name,
                refused,
                holders_source: solana.refuses('getTokenLargestAccounts') ? 'token_list' : 'rpc',
              },
            }
          : {}),
        routes_off: off.map(({ routes, why }) => ({ routes, why })),
        routes_failing: failingRoutes(ctx.registry.routes(), reading),
      })
      cache = {
        reading,
        refused: key,
        offCount: off.length,
        head: `${head.slice(0, -1)},"uptime_s":`,
        tail: `,${tail.slice(1)}`,
      }
      healthCache = cache
    }
    const uptime = Math.round((Date.now() - ctx.startedAt) / 1000)
    if (cache.uptime !== uptime || cache.bytes === undefined) {
      cache.uptime = uptime
      cache.bytes = UTF8.encode(`${cache.head}${uptime}${cache.tail}`)
    }
    return cache.bytes
  }

  const plugin = new Elysia({ name: 'plugin:discovery' })
  return plugin
    .get(
      routes.health.path,
      async function health() {
        const reading = await ctx.health.read()
        return new Response(healthBody(reading), { headers: { 'content-type': 'application/json;charset=utf-8' } })
      },
      routeOptions(ctx, routes.health),
    )
    .get(
      routes.x402.path,
      function x402Manifest({ request }) {
        const origin = publicOrigin(ctx, request)
        const tools = new Map(offerings(ctx.registry).map((offering) => [offering.route.key, offering.tool]))
        const paid = ctx.registry.routes().filter((route) => route.price !== 'free')
        return {
          version: 1 as const,
          resources: paid.map((route) => route.key),
          // What a directory needs to list a route, and a link to the rest: each route's 402 carries its
          // Bazaar declaration, its schemas document the same in full (this document stays small).
          discovery: paid.map((route) => {
            const price = route.price as Exclude<Price, 'free'>
            const { serviceName, tags } = routeDiscovery(route)
            return {
              resource: route.key,
              url: `${origin}${route.path}`,
              description: route.summary,
              price: priceInWords(route),
              price_usd: price.usd,
              ...(price.per ? { per_unit: { unit: price.per.unit, min_units: 1, max_units: price.per.max } } : {}),
              offers: offersOf(price),
              mcp_tool: tools.get(route.key)!,
              serviceName,
              tags,
              docs: `${origin}${routeDocPath(route)}`,
              schemas: `${origin}${routeSchemaPath(route)}`,
            }
          }),
          attestation: {
            alg: 'Ed25519' as const,
            public_key: ctx.attestor.publicKey,
            header: 'x-attestation' as const,
            docs: 'docs/attestations.md (in the service repository)',
          },
        }
      },
      routeOptions(ctx, routes.x402),
    )
    .get(
      routes.agentCard.path,
      function agentCard({ request }) {
        return {
          name: 'solsentry',
          description: serviceDescription(rails),
          url: publicOrigin(ctx, request),
          version: SERVICE_VERSION,
          capabilities: { streaming: false as const, pushNotifications: false as const },
          defaultInputModes: ['application/json' as const],
          defaultOutputModes: ['application/json' as const],
          skills: cardSkills(ctx.registry),
        }
      },
      routeOptions(ctx, routes.agentCard),
    )
    .get(
      routes.a2aCard.path,
      function a2aAgentCard({ request }) {
        // A Response, not an object: the card's members are A2A's only (no schema_version stamped in).
        return Response.json(a2aCard(ctx.registry, publicOrigin(ctx, request), rails))
      },
      routeOptions(ctx, routes.a2aCard),
    )
    .get(
      routes.openapi.path,
      function openapi({ request }) {
        const routeCount = ctx.registry.routes().length
        if (openapiCache?.routeCount !== routeCount) {
          // Built once per route table with a placeholder server, which each answer fills in.
          const slot = JSON.stringify(SERVER_SLOT)
          const body = JSON.stringify(openApiDocument(plugin, SERVER_SLOT))
          const at = body.indexOf(slot)
          openapiCache = { routeCount, head: body.slice(0, at), tail: body.slice(at + slot.length) }
        }
        const server = JSON.stringify(publicOrigin(ctx, request))
        // A Response, not an object: the document's root admits only OpenAPI members and x- extensions.
        return new Response(`${openapiCache.head}${server}${openapiCache.tail}`, {
          headers: { 'content-type': 'application/json' },
        })
      },
      routeOptions(ctx, routes.openapi),
    )
    .get(
      routes.llmTxt.path,
      function llmTxt({ request }) {
        return new Response(renderLlmTxt(ctx.registry, publicOrigin(ctx, request), rails), {
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        })
      },
      routeOptions(ctx, routes.llmTxt),
    )
    .get(
      routes.llmsTxt.path,
      function llmsTxt({ request }) {
        return markdown(renderLlmsTxt(ctx.registry, publicOrigin(ctx, request), rails))
      },
      routeOptions(ctx, routes.llmsTxt),
    )
    .get(
      routes.skill.path,
      function skill({ request }) {
        return markdown(renderSkill(ctx.registry, publicOrigin(ctx, request)))
      },
      routeOptions(ctx, routes.skill),
    )
    .get(
      routes.docs.path,
      function docs() {
        return new Response(DOCS_PAGE, { headers: htmlHeaders() })
      },
      routeOptions(ctx, routes.docs),
    )
    .get(
      routes.routeDoc.path,
      function routeDocument({ request, params }) {
        const found = routesOfDoc(ctx.registry, pageName(params.doc, '.md'))
        if (found.length === 0) return noSuchPage(ctx, request, params.doc, '.md')
        return markdown(renderRouteDoc(ctx.registry, found, publicOrigin(ctx, request)))
      },
      routeOptions(ctx, routes.routeDoc),
    )
    .get(
      routes.routeSchemas.path,
      function routeSchemaDocument({ request, params }) {
        const found = routesOfDoc(ctx.registry, pageName(params.doc, '.json'))
        if (found.length === 0) return noSuchPage(ctx, request, params.doc, '.json')
        return Response.json(routeSchemas(ctx.registry, found, publicOrigin(ctx, request), offersOf))
      },
      routeOptions(ctx, routes.routeSchemas),
    )
    .get(
      routes.docsViewer.path,
      async function docsViewer() {
        return new Response(await viewerFile(), {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
        })
      },
      routeOptions(ctx, routes.docsViewer),
    )
}

discoveryPlugin.manifest = manifest

const UTF8 = new TextEncoder()

/** The placeholder server URL of the cached OpenAPI document (each answer names its own origin). */
const SERVER_SLOT = '\u0000server\u0000'

/** A page's name as asked (`Scan-Quick.md`, `scan-quick`) as routeDoc names it (`scan-quick`). */
function pageName(asked: string, extension: string): string {
  const name = asked.toLowerCase()
  return name.endsWith(extension) ? name.slice(0, -extension.length) : name
}

/** 404 NOT_FOUND for a page name no mounted route has, naming the pages there are. */
function noSuchPage(ctx: ServiceContext, request: Request, doc: string, extension: string): Response {
  const pages = [...new Set(ctx.registry.routes().map((route) => routeDoc(route.path)))]
  const error = new ApiError('NOT_FOUND', {
    message: `no route has the page ${doc}; the pages are ${pages.map((page) => `${page}${extension}`).join(', ')}`,
  })
  return Response.json(errorBody(error, requestIdOf(request)), { status: 404 })
}

function markdown(text: string): Response {
  return new Response(text, { headers: { 'content-type': 'text/markdown; charset=utf-8' } })
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>solsentry API reference</title>
</head>
<body>
  <noscript>The API reference needs JavaScript; the raw description is at <a href="/openapi.json">/openapi.json</a>.</noscript>
  <script id="api-reference" data-url="/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true}'></script>
  <script src="/docs/viewer.js"></script>
</body>
</html>
`
