import { setTimeout as sleep } from 'node:timers/promises'
import { closeContext, type ServiceContext } from '../context.ts'
import { listen } from '../runtime/serve.ts'
import type { Service } from './front-door.ts'

export interface RunningServer {
  /** Where the service listens, e.g. `http://127.0.0.1:8402`. */
  url: string
  /** Stops accepting, drains in-flight requests (up to SHUTDOWN_GRACE_MS), then closes the stores. */
  shutdown(reason: string): Promise<void>
}

/**
 * Starts the HTTP server for a service built by createApp (the runtime's own: src/runtime/serve.ts): every
 * request enters by its front door.
 */
export function startServer(service: Service, ctx: ServiceContext): RunningServer {
  const { config, logger } = ctx
  const server = listen({
    hostname: config.HOST,
    port: config.PORT,
    // Keep-alive connections idle this long are closed (what the framework's own listen sets).
    idleTimeoutS: 30,
    fetch: (request, peer) => service.handle(request, peer),
  })
  const url = `http://${config.HOST}:${server.port}`
  let stopping: Promise<void> | undefined

  async function shutdown(reason: string): Promise<void> {
    stopping ??= (async () => {
      ctx.lifecycle.draining = true
      // Long-lived answers (event streams) end now: their clients reconnect to another instance.
      for (const end of ctx.lifecycle.onDrain) end()
      logger.info({ reason, pending_requests: server.pendingRequests }, 'shutting down: draining in-flight requests')
      const drained = server.stop(false).then(() => true)
      const timedOut = sleep(config.SHUTDOWN_GRACE_MS).then(() => false)
      if (!(await Promise.race([drained, timedOut]))) {
        logger.warn({ grace_ms: config.SHUTDOWN_GRACE_MS }, 'grace period over: closing remaining connections')
        await server.stop(true)
      }
      logger.info('stopped')
      await closeContext(ctx)
    })()
    return stopping
  }

  return { url, shutdown }
}
