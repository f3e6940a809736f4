/**
 * The request a piece of work belongs to, carried through its awaits (AsyncLocalStorage): every log
 * line written while a request is served — an upstream call's failure, a scan's call counts, a
 * payment's settlement — names its `req_id` without being handed it, and with tracing on
 * (src/kernel/tracing.ts) every upstream attempt finds the request's span to hang under.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Span } from '@opentelemetry/api'

const scope = new AsyncLocalStorage<{ id: string; span: Span | undefined }>()

/** Runs `work` as part of request `id` (and its span, when traced). */
export const withinRequest = <T>(id: string, work: () => T, span?: Span): T => scope.run({ id, span }, work)

/** The id of the request being served here, if any. */
export const currentRequestId = (): string | undefined => scope.getStore()?.id

/** The span of the request being served here, when it is traced. */
export const currentSpan = (): Span | undefined => scope.getStore()?.span

/** pino's mixin: `req_id` on every line written within a request (unless the line names one). */
export function requestIdMixin(merge: object): Record<string, string> {
  const id = scope.getStore()?.id
  return id === undefined || 'req_id' in merge ? {} : { req_id: id }
}
