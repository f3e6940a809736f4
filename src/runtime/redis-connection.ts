import { connect as connectSocket, isIP, type Socket } from 'node:net'
import { type ConnectionOptions, connect as connectTls } from 'node:tls'
import { RUNTIME } from './runtime.ts'

/**
 * One connection to Redis as the store's client drives it: connect when asked (no reconnection of its
 * own), no queue while disconnected, replies as JavaScript values (RESP3: a map is an object, a null is
 * null, an integer a number), an error reply a rejected Error.
 */
export interface RedisConnection {
  connect(): Promise<void>
  readonly connected: boolean
  send(command: string, args: string[]): Promise<unknown>
  close(): void
}

/** Bun's own client on Bun; on Deno the RESP3 subset below, over `node:net`. */
export function redisConnection(url: string, connectTimeoutMs: number): RedisConnection {
  if (RUNTIME === 'bun')
    return new Bun.RedisClient(url, {
      connectionTimeout: connectTimeoutMs,
      autoReconnect: false,
      enableOfflineQueue: false,
    })
  return respConnection(url, connectTimeoutMs)
}

/** A connection failure, coded as Bun's client codes its own (the store tells them from Redis's replies). */
class ConnectionError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
    this.name = 'RedisConnectionError'
  }
}

/** An error Redis replied (`-ERR …`): not an outage. */
class ReplyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RedisReplyError'
  }
}

type Waiter = { resolve(value: unknown): void; reject(error: Error): void }

/**
 * The Redis protocol (RESP3, after `HELLO 3`) over a TCP socket, or TLS for `rediss://` (the system's
 * certificate authorities; `tls` adds to them): commands pipelined, replies matched in order. Only what
 * the service needs: `redis[s]://[user:password@]host:port[/db]`, no pub/sub. Runs on Deno and on Bun
 * alike (the tests compare its replies with Bun's client's).
 */
export function respConnection(url: string, connectTimeoutMs: number, tls: ConnectionOptions = {}): RedisConnection {
  const target = new URL(url)
  const secure = target.protocol === 'rediss:'
  const host = target.hostname || '127.0.0.1'
  const port = Number(target.port || 6379)
  const db = target.pathname.slice(1)
  let socket: Socket | undefined
  let ready = false
  let closed = false
  let buffer: Buffer = Buffer.alloc(0)
  const waiting: Waiter[] = []

  const failAll = (error: Error) => {
    for (const waiter of waiting.splice(0)) waiter.reject(error)
  }
  const drop = (error: Error) => {
    ready = false
    socket?.destroy()
    socket = undefined
    buffer = Buffer.alloc(0)
    failAll(error)
  }
  const onData = (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    let offset = 0
    for (;;) {
      let parsed: Parsed | undefined
      try {
        parsed = parseReply(buffer, offset)
      } catch (error) {
        return drop(new ConnectionError((error as Error).message, 'ERR_REDIS_SOCKET_PROTOCOL'))
      }
      if (!parsed) break
      offset = parsed.next
      if (parsed.push) continue
      const waiter = waiting.shift()
      if (!waiter) continue
      if (parsed.value instanceof ReplyError) waiter.reject(parsed.value)
      else waiter.resolve(parsed.value)
    }
    buffer = offset === buffer.length ? Buffer.alloc(0) : buffer.subarray(offset)
  }
  const write = (command: string, args: string[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (!socket)
        return reject(new ConnectionError('the connection to Redis is closed', 'ERR_REDIS_CONNECTION_CLOSED'))
      waiting.push({ resolve, reject })
      socket.write(encodeCommand(command, args))
    })

  return {
    get connected() {
      return ready
    },
    async connect() {
      if (closed) throw new ConnectionError('the Redis client is closed', 'ERR_REDIS_CONNECTION_CLOSED')
      if (ready) return
      await new Promise<void>((resolve, reject) => {
        const opening = secure
          ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }), ...tls })
          : connectSocket({ host, port })
        const timer = setTimeout(() => {
          opening.destroy()
          reject(
            new ConnectionError(`no connection to Redis within ${connectTimeoutMs} ms`, 'ERR_REDIS_CONNECTION_TIMEOUT'),
          )
        }, connectTimeoutMs)
        opening.once(secure ? 'secureConnect' : 'connect', () => {
          clearTimeout(timer)
          opening.setNoDelay(true)
          socket = opening
          resolve()
        })
        // Every socket error is met here (an unheard one would end the process); 'close' follows it.
        opening.on('error', (error) => {
          clearTimeout(timer)
          reject(new ConnectionError(`Redis cannot be reached: ${error.message}`, 'ERR_REDIS_CONNECTION_CLOSED'))
        })
        opening.on('data', onData)
        opening.on('close', () => {
          if (socket === opening)
            drop(new ConnectionError('the connection to Redis closed', 'ERR_REDIS_CONNECTION_CLOSED'))
        })
      })
      try {
        const auth = target.password
          ? ['AUTH', decodeURIComponent(target.username || 'default'), decodeURIComponent(target.password)]
          : []
        await write('HELLO', ['3', ...auth])
        if (db) await write('SELECT', [db])
        ready = true
      } catch (error) {
        drop(error as Error)
        throw error
      }
    },
    send(command, args) {
      if (!ready) return Promise.reject(new ConnectionError('not connected to Redis', 'ERR_REDIS_CONNECTION_CLOSED'))
      return write(command, args)
    },
    close() {
      closed = true
      drop(new ConnectionError('the Redis client is closed', 'ERR_REDIS_CONNECTION_CLOSED'))
    },
  }
}

/** A command as RESP: an array of bulk strings. */
function encodeCommand(command: string, args: string[]): Buffer {
  const parts = [command, ...args]
  let text = `*${parts.length}\r\n`
  for (const part of parts) text += `$${Buffer.byteLength(part)}\r\n${part}\r\n`
  return Buffer.from(text)
}

type Parsed = { value: unknown; next: number; push?: boolean }

/** One reply from `offset`, or undefined while it has not all arrived. */
export function parseReply(buffer: Buffer, offset: number): Parsed | undefined {
  const end = buffer.indexOf('\r\n', offset)
  if (end < 0) return undefined
  const type = String.fromCharCode(buffer[offset]!)
  const line = buffer.toString('utf8', offset + 1, end)
  const next = end + 2
  switch (type) {
    case '+':
      return { value: line, next }
    case '-':
      return { value: new ReplyError(line), next }
    case ':':
      return { value: Number(line), next }
    case ',':
      return { value: Number(line.replace('inf', 'Infinity')), next }
    case '(':
      return { value: BigInt(line), next }
    case '#':
      return { value: line === 't', next }
    case '_':
      return { value: null, next }
    case '$':
    case '!':
    case '=': {
      const length = Number(line)
      if (length < 0) return { value: null, next }
      if (buffer.length < next + length + 2) return undefined
      let text = buffer.toString('utf8', next, next + length)
      if (type === '=') text = text.slice(4) // the verbatim string's "txt:" format
      return { value: type === '!' ? new ReplyError(text) : text, next: next + length + 2 }
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
      const count = Number(line)
      if (count < 0) return { value: null, next }
      const items: unknown[] = []
      let at = next
      for (let i = 0; i < (type === '%' || type === '|' ? count * 2 : count); i++) {
        const item = parseReply(buffer, at)
        if (!item) return undefined
        items.push(item.value)
        at = item.next
      }
      if (type === '|') {
        // Attributes precede the reply they describe: the reply itself is what is answered.
        const reply = parseReply(buffer, at)
        return reply && { ...reply }
      }
      if (type === '%') {
        const map: Record<string, unknown> = {}
        for (let i = 0; i < items.length; i += 2) map[String(items[i])] = items[i + 1]
        return { value: map, next: at }
      }
      return { value: items, next: at, push: type === '>' }
    }
    default:
      throw new Error(`Redis sent a reply this client does not read (type ${JSON.stringify(type)})`)
  }
}
