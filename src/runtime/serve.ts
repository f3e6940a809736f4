import { RUNTIME } from './runtime.ts'

/** What a request handler may ask of the server about a request: the client's socket address. */
export interface Peer {
  requestIP(request: Request): { address: string } | null
}

/** An HTTP listener as the service drives it, whichever runtime serves it. */
export interface Listener {
  /** The port bound (the one asked for, or the one picked for port 0). */
  readonly port: number
  /** Requests received and not yet answered. */
  readonly pendingRequests: number
  /**
   * Stops accepting. Without `force`, resolves once the requests in flight are answered; with it, the
   * open connections are closed at once (Bun) or left to the process's exit (Deno has no forced close).
   */
  stop(force: boolean): Promise<void>
}

export interface ListenOptions {
  hostname: string
  port: number
  /** Keep-alive connections idle this long are closed (seconds; Bun's own setting, Deno's default). */
  idleTimeoutS: number
  fetch(request: Request, peer: Peer): Promise<Response>
}

/** Listens with the runtime's own web-standard server: `Bun.serve` or `Deno.serve`. */
export function listen(options: ListenOptions): Listener {
  return RUNTIME === 'bun' ? listenOnBun(options) : listenOnDeno(options)
}

function listenOnBun({ hostname, port, idleTimeoutS, fetch }: ListenOptions): Listener {
  const server = Bun.serve({
    hostname,
    port,
    idleTimeout: idleTimeoutS,
    development: false,
    // Bun shares a port another process listens on (SO_REUSEPORT) once `development` is off, unless told
    // not to: a second service started on a taken port would quietly take half its requests.
    reusePort: false,
    // The server itself answers requestIP: no object per request.
    fetch: (request, bun) => fetch(request, bun),
  })
  return {
    port: server.port ?? port,
    get pendingRequests() {
      return server.pendingRequests
    },
    stop: (force) => server.stop(force),
  }
}

/** The part of Deno's API this adapter uses (Deno's own types are not in this project's type check). */
interface DenoServe {
  serve(
    options: { hostname: string; port: number; onListen(): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> }
}

function listenOnDeno({ hostname, port, fetch }: ListenOptions): Listener {
  const deno = (globalThis as unknown as { Deno: DenoServe }).Deno
  let pending = 0
  const server = deno.serve(
    // Deno prints its own "Listening on" line unless told not to: the service logs its own, as JSON.
    { hostname, port, onListen() {} },
    async function handleOnDeno(request, info) {
      pending++
      try {
        return await fetch(request, { requestIP: () => ({ address: info.remoteAddr.hostname }) })
      } finally {
        pending--
      }
    },
  )
  let stopping: Promise<void> | undefined
  return {
    port: server.addr.port,
    get pendingRequests() {
      return pending
    },
    stop(force) {
      stopping ??= server.shutdown()
      return force ? Promise.resolve() : stopping
    },
  }
}
