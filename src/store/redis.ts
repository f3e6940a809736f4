import { type RedisConnection, redisConnection } from '../runtime/redis-connection.ts'

/**
 * What the Redis-backed parts need of a connection: commands that answer within a deadline or fail,
 * whatever Redis is doing (docs/reliability.md, "Redis goes away").
 */
export interface Redis {
  /** Sends one command; rejects with RedisUnavailable when Redis cannot be reached or answers too late. */
  send(command: string, args: string[], timeoutMs?: number): Promise<unknown>
  /** True while a connection is open. */
  readonly connected: boolean
  close(): void
}

/** Redis did not answer: down, unreachable, or later than the command's deadline. */
export class RedisUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'RedisUnavailable'
  }
}

/** A command's deadline: Redis answers in well under a millisecond, so a second means it is not answering. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000
/** How long one connection attempt may take. */
const CONNECT_TIMEOUT_MS = 1_000

/**
 * A client for REDIS_URL as every Redis-backed part opens it, on the runtime's connection
 * (src/runtime/redis-connection.ts: Bun's own client on Bun). Bun's client alone, with its defaults,
 * queues commands while disconnected — a request then waits for Redis to come back — and after its
 * reconnection attempts run out it refuses every command until the process restarts (both measured
 * with a real redis-server killed under traffic: `npm run bench -- chaos`). Here commands are never
 * queued: while there is no connection, a command first tries to connect (one attempt shared by all
 * commands waiting, within CONNECT_TIMEOUT_MS) and fails at once if Redis refuses; every command has a
 * deadline. So a Redis that is down fails fast, and the first command after it is back reconnects.
 * `connection` is the runtime's (src/runtime/redis-connection.ts); tests hand the other one.
 */
export function redisClient(
  url: string,
  connection: (url: string, connectTimeoutMs: number) => RedisConnection = redisConnection,
): Redis {
  const client = connection(url, CONNECT_TIMEOUT_MS)
  let connecting: Promise<void> | undefined
  let closed = false
  const connect = () => {
    connecting ??= client.connect().finally(() => (connecting = undefined))
    return connecting
  }
  // Connect now, so the first command does not wait for it; a failure here is retried by that command.
  connect().catch(() => {})
  return {
    get connected() {
      return client.connected
    },
    async send(command, args, timeoutMs = REDIS_COMMAND_TIMEOUT_MS) {
      if (closed) throw new RedisUnavailable('the Redis client is closed')
      let timer: ReturnType<typeof setTimeout> | undefined
      const late = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new RedisUnavailable(`Redis did not answer ${command} within ${timeoutMs} ms`)),
            timeoutMs,
          )),
      )
      const run = (async () => {
        if (!client.connected) await connect()
        return client.send(command, args)
      })()
      try {
        return await Promise.race([run, late])
      } catch (error) {
        run.catch(() => {})
        if (error instanceof RedisUnavailable) throw error
        // A reply Redis itself sent (a script's error, a wrong type) is not an outage: it stays as it is.
        if (client.connected && !isConnectionError(error)) throw error
        throw new RedisUnavailable(`Redis cannot be reached: ${(error as Error).message}`, { cause: error })
      } finally {
        clearTimeout(timer)
      }
    },
    close() {
      closed = true
      client.close()
    },
  }
}

/**
 * Connection-level failures (closed, refused, timed out; coded as Bun's client codes them, which the
 * RESP connection follows), as opposed to Redis's own error replies.
 */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && /CONNECTION|SOCKET|TIMEOUT|ECONN|CLOSED/.test(code)
}

/** True when Redis answers PING within a second (the store's health). */
export function redisPing(client: Redis): Promise<boolean> {
  return client.send('PING', [], 1_000).then(
    (reply) => reply === 'PONG',
    () => false,
  )
}
