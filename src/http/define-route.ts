import type { Static, TObject, TString } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import type { DeadlineMs, PluginManifest, Requirement, RouteSpec } from '../kernel/manifest.ts'
import type { ScanPolicy, ScanResult } from '../pipeline/scan.ts'
import { type BegunScan, beginScan } from '../pipeline/scan-token.ts'
import { arrivalOf, requestIdOf } from './request.ts'
import { CASSETTE_VERSION, Tape, writeCassette } from '../sources/tape.ts'
import { routeOptions } from './route-options.ts'

type Sources = ServiceContext['sources']

/** A source a manifest's `requires` may name: a member of the service's sources. */
export type SourceName = keyof Sources

/** A route entry `defineRoute` can serve: what it requires names the service's sources. */
export type DefinedRoute = RouteSpec & {
  requires?: readonly (Requirement & { source: SourceName | readonly SourceName[] })[]
}

/** A route's body, as its schema validated it. */
export type BodyOf<Spec extends RouteSpec> = Spec extends { body: infer Schema extends RouteSpec['body'] & object }
  ? Static<Schema>
  : undefined

/** A route's deadline(s) as epoch ms: one, or the named steps of its `deadlineMs`. */
export type DeadlineOf<Spec extends RouteSpec> = Spec['deadlineMs'] extends infer Ms extends DeadlineMs
  ? Ms extends number
    ? number
    : { [Step in keyof Ms]: number }
  : undefined

/** The sources a route requires by name, there: a route whose source is missing is switched off. */
export type RequiredSources<Spec extends RouteSpec> = {
  [Name in Extract<NonNullable<Spec['requires']>[number]['source'], SourceName>]-?: NonNullable<Sources[Name]>
}

/** What a handler is given: the validated body, the deadline(s) from the request's arrival, the sources it requires. */
export interface RouteInput<Spec extends RouteSpec> {
  body: BodyOf<Spec>
  deadline: DeadlineOf<Spec>
  sources: RequiredSources<Spec>
}

/** A route answered by its own handler (a feed's, or any other route's): its 200 answer, as its `response` schema says. */
export type RouteHandler<Spec extends RouteSpec> = (ctx: ServiceContext, input: RouteInput<Spec>) => unknown

/** A scanner route: what it scans (its policy) and its answer from the scan. */
export interface ScannerRoute {
  policy: ScanPolicy
  answer(scan: ScanResult, input: { mint: string; policy: ScanPolicy }): unknown
}

/** What serves each route of a manifest: a scanner's policy and answer, or a handler. */
export type RouteHandlers<Routes extends Record<string, RouteSpec>> = {
  [Name in keyof Routes]: Routes[Name] extends { kind: 'scanner' } ? ScannerRoute : RouteHandler<Routes[Name]>
}

/** A scanner's entry: its body carries the token it scans (the registry checks it at boot). */
type ScannerSpec = RouteSpec & { body: TObject<{ token_address: TString }> }

/** A handler past the schema's validation, its types erased (the manifest typed it where it was written). */
type Served = (ctx: ServiceContext, input: { body: unknown; deadline: unknown; sources: Sources }) => unknown

/**
 * A plugin from its manifest: each route declared whole in its entry — price, schemas, limits, its kind,
 * deadline(s) and the sources it requires — and served here with the handler given for it. At
 * construction the registry registers the manifest and switches off the routes whose sources are not
 * configured; the routes on are mounted with their payment, limits and schemas (routeOptions). A
 * scanner runs its facts under the deadline → signals → grade → its answer; a feed or any other route
 * answers from `{ body, deadline, sources }`. The plugin carries its manifest (`plugin.manifest`).
 */
export function defineRoute<const Routes extends Record<string, DefinedRoute>>(
  manifest: PluginManifest<Routes>,
  handlers: RouteHandlers<Routes>,
) {
  function plugin(ctx: ServiceContext) {
    const app = new Elysia({ name: `plugin:${manifest.name}` })
    const available = (source: string) => ctx.sources[source as SourceName] !== undefined
    for (const name of ctx.registry.register(manifest, available)) {
      const spec: RouteSpec = manifest.routes[name]!
      // The handlers were typed against the manifest where they were written; here, past it, erased.
      const served = handlers[name] as ScannerRoute | Served
      if (typeof served !== 'function') {
        const { handle, begin } = scanner(ctx, spec, served)
        app.post(spec.path, handle, routeOptions(ctx, spec as ScannerSpec, { besideCheck: begin }))
        continue
      }
      const handler = ({ body, request }: { body: unknown; request: Request }) =>
        served(ctx, { body, deadline: deadlineOf(spec.deadlineMs, arrivalOf(request)), sources: ctx.sources })
      if (spec.method === 'GET') app.get(spec.path, handler, routeOptions(ctx, spec))
      else app.post(spec.path, handler, routeOptions(ctx, spec))
    }
    return app
  }
  return Object.assign(plugin, { manifest })
}

/** A route's deadline(s) as epoch ms, from the request's arrival. */
function deadlineOf(ms: DeadlineMs | undefined, arrival: number): unknown {
  if (ms === undefined) return undefined
  if (typeof ms === 'number') return arrival + ms
  return Object.fromEntries(Object.entries(ms).map(([step, after]) => [step, arrival + after]))
}

/**
 * A scanner's handler: the facts of the body's `token_address` under the deadline → signals → grade →
 * the scanner's answer; a recorded cassette with RECORD_DIR. The scan begins beside the route's account
 * check (`begin`: its first reads share the check's round trip; a refusal abandons it) and the handler
 * finishes it; a request that reached the handler without a check (no Solana source) begins it there.
 */
function scanner(ctx: ServiceContext, spec: RouteSpec, { policy, answer }: ScannerRoute) {
  const deadlineMs = spec.deadlineMs as number
  const begun = new WeakMap<Request, { scan: BegunScan<unknown>; tape: Tape | undefined }>()
  function begin({ body, request }: { body: unknown; request: Request }) {
    const mint = (body as BodyOf<ScannerSpec>).token_address
    const tape = ctx.config.RECORD_DIR ? new Tape() : undefined
    const scan = beginScan(ctx, mint, policy, arrivalOf(request) + deadlineMs, {
      tape,
      beforeClose: (result: ScanResult) => answer(result, { mint, policy }),
    })
    begun.set(request, { scan, tape })
    return scan
  }
  async function handle({ body, request }: { body: BodyOf<ScannerSpec>; request: Request }) {
    if (!begun.has(request)) begin({ body, request })
    const { scan, tape } = begun.get(request)!
    begun.delete(request)
    let answered: unknown
    try {
      answered = await scan.finish()
      return answered
    } finally {
      if (tape) record(ctx, { route: `POST ${spec.path}`, body, requestId: requestIdOf(request), tape, answered })
    }
  }
  return { handle, begin }
}

/** Writes a recorded scan's cassette into RECORD_DIR (a failure to write is logged, never the caller's). */
function record(
  ctx: ServiceContext,
  scan: { route: string; body: unknown; requestId: string; tape: Tape; answered: unknown },
): void {
  try {
    const path = writeCassette(ctx.config.RECORD_DIR!, {
      cassette: CASSETTE_VERSION,
      request_id: scan.requestId,
      route: scan.route,
      body: scan.body,
      recorded_at: new Date().toISOString(),
      settings: {
        SOLSENTRY_PROFILE: ctx.config.SOLSENTRY_PROFILE,
        SOLANA_RPC_PROVIDER: ctx.sources.solana?.provider.name ?? 'unlimited',
      },
      exchanges: scan.tape.exchanges,
      ...(scan.answered === undefined ? {} : { status: 200, answer: scan.answered }),
    })
    ctx.logger.info({ cassette: path, exchanges: scan.tape.exchanges.length }, 'scan recorded')
  } catch (error) {
    ctx.logger.warn({ err: error }, 'RECORD_DIR: the cassette could not be written')
  }
}
