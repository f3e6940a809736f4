import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { createTokenContext } from '../facts/index.ts'
import type { PluginManifest, RouteSpec } from '../kernel/manifest.ts'
import { runScan, type ScanPolicy, type ScanResult } from '../pipeline/scan.ts'
import { arrivalOf, requestIdOf } from './request.ts'
import { CASSETTE_VERSION, Tape, writeCassette } from '../sources/tape.ts'
import { routeOptions } from './route-options.ts'

/** A token-scoped scanner: one manifest route taking `{token_address}`, a policy, a deadline and an answer. */
export interface ScannerDefinition<Routes extends Record<string, RouteSpec>> {
  manifest: PluginManifest<Routes>
  /** The manifest's route this scanner serves. */
  route: keyof Routes & string
  policy: ScanPolicy
  /** From the request's arrival (payment verification included) to the facts' cut-off, in ms. */
  deadlineMs: number
  /** The route's 200 answer from the scan. */
  answer(scan: ScanResult, input: { mint: string; policy: ScanPolicy }): unknown
}

/**
 * Builds a scanner plugin: registers its manifest, and serves its route — payment, limits and schemas
 * from the manifest entry (routeOptions), then facts under the deadline → signals → grade → answer.
 * Each scanner is a manifest, a policy and an answer builder; the handler is written once, here.
 */
export function defineScanner<Routes extends Record<string, RouteSpec>>(definition: ScannerDefinition<Routes>) {
  const { manifest, policy, deadlineMs, answer } = definition
  const spec = manifest.routes[definition.route]!
  return function scannerPlugin(ctx: ServiceContext) {
    ctx.registry.register(manifest)
    return new Elysia({ name: `plugin:${manifest.name}` }).post(
      spec.path,
      async function scanRoute({ body, request }) {
        const mint = (body as { token_address: string }).token_address
        const tape = ctx.config.RECORD_DIR ? new Tape() : undefined
        const facts = createTokenContext(mint, ctx.sources, arrivalOf(request) + deadlineMs, tape)
        let answered: unknown
        try {
          answered = answer(await runScan(facts, ctx.signals, policy), { mint, policy })
          return answered
        } finally {
          facts.close(ctx.logger)
          if (tape) record(ctx, { route: `POST ${spec.path}`, body, requestId: requestIdOf(request), tape, answered })
        }
      },
      routeOptions(ctx, spec),
    )
  }
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
