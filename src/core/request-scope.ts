/**
 * The request a piece of work belongs to, carried through its awaits (AsyncLocalStorage): every log
 * line written while a request is served — an upstream call's failure, a scan's call counts, a
 * payment's settlement — names its `req_id` without being handed it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const scope = new AsyncLocalStorage<string>()

/** Runs `work` as part of request `id`. */
export const withinRequest = <T>(id: string, work: () => T): T => scope.run(id, work)

/** The id of the request being served here, if any. */
export const currentRequestId = (): string | undefined => scope.getStore()

/** pino's mixin: `req_id` on every line written within a request (unless the line names one). */
export function requestIdMixin(merge: object): Record<string, string> {
  const id = scope.getStore()
  return id === undefined || 'req_id' in merge ? {} : { req_id: id }
}
