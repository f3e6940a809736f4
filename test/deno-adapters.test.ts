import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReply, type RedisConnection, redisConnection, respConnection } from '../src/runtime/redis-connection.ts'
import { type Database, openBunSqlite, openNodeSqlite } from '../src/runtime/sqlite-driver.ts'
import { redisClient, RedisUnavailable } from '../src/store/redis.ts'
import { describeWithRedis, redisForFile, startRedis } from './support/redis.ts'

/**
 * Deno's adapters (src/runtime/, docs/deno.md), held to what Bun's own do: both run on Bun, so each is
 * compared here with Bun's, on a real redis-server and real SQLite files. test/deno.test.ts runs the
 * whole service on Deno.
 */
const redis = redisForFile()
const work = mkdtempSync(join(tmpdir(), 'solsentry-adapters-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describeWithRedis("the RESP connection (Deno's) answers as Bun's client", () => {
  /** The commands the store sends, each with the key it writes under its own prefix. */
  const script = (prefix: string): [string, string[]][] => [
    ['PING', []],
    ['SET', [`${prefix}s`, 'héllo ✓', 'PX', '60000']],
    ['GET', [`${prefix}s`]],
    ['GET', [`${prefix}missing`]],
    ['SET', [`${prefix}nx`, '1', 'NX']],
    ['SET', [`${prefix}nx`, '2', 'NX']],
    ['HSET', [`${prefix}h`, 'state', 'verifying', 'amount', '20000']],
    ['HSETNX', [`${prefix}h`, 'state', 'other']],
    ['HEXISTS', [`${prefix}h`, 'amount']],
    ['HGETALL', [`${prefix}h`]],
    ['HGETALL', [`${prefix}none`]],
    ['ZADD', [`${prefix}z`, '2', 'b', '1', 'a', '3', 'c']],
    ['ZADD', [`${prefix}z`, 'GT', '5', 'a']],
    ['ZRANGE', [`${prefix}z`, '+inf', '0', 'BYSCORE', 'REV', 'LIMIT', '0', '2']],
    ['ZCARD', [`${prefix}z`]],
    ['SADD', [`${prefix}set`, 'x']],
    ['SMEMBERS', [`${prefix}set`]],
    ['INCR', [`${prefix}n`]],
    ['PTTL', [`${prefix}n`]],
    ['EVAL', ["return redis.call('INCR', KEYS[1])", '1', `${prefix}n`]],
    ['EVAL', ['return {1, ARGV[1], false}', '0', 'two']],
    ['EVAL', ['return nil', '0']],
    ['KEYS', [`${prefix}nx`]],
    ['DEL', [`${prefix}s`, `${prefix}missing`]],
  ]
  const answers = async (connection: RedisConnection, prefix: string) => {
    await connection.connect()
    const replies: unknown[] = []
    for (const [command, args] of script(prefix)) replies.push(await connection.send(command, args))
    connection.close()
    // Keys named in replies (KEYS) without their client's prefix, so the two runs compare.
    return JSON.parse(JSON.stringify(replies).replaceAll(prefix, '')) as unknown[]
  }

  test('the same replies, command by command: strings, nulls, integers, maps as objects, arrays', async () => {
    const run = `${process.pid}-${Date.now()}`
    const bun = await answers(redisConnection(redis.url, 1_000), `bun:${run}:`)
    const resp = await answers(respConnection(redis.url, 1_000), `resp:${run}:`)
    expect(resp).toEqual(bun)
    // The comparison reads something: the map and the integers came back as values, not protocol text.
    expect(resp[9]).toEqual({ state: 'verifying', amount: '20000' })
    expect(resp[2]).toBe('héllo ✓')
    expect(resp[3]).toBeNull()
  })

  test("an error reply rejects as Bun's does and is not an outage; the connection goes on", async () => {
    const key = `err:${process.pid}:${Date.now()}`
    for (const connection of [redisConnection(redis.url, 1_000), respConnection(redis.url, 1_000)]) {
      await connection.connect()
      await connection.send('HSET', [key, 'a', '1'])
      const error = await connection.send('INCR', [key]).catch((caught: Error) => caught)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).message).toContain('WRONGTYPE')
      expect(await connection.send('PING', [])).toBe('PONG')
      connection.close()
    }
    const client = redisClient(redis.url, respConnection)
    const thrown = await client.send('INCR', [key]).catch((caught: Error) => caught)
    expect(thrown).not.toBeInstanceOf(RedisUnavailable)
    client.close()
  })

  test('a megabyte value and a hundred pipelined commands arrive whole and in order', async () => {
    const connection = respConnection(redis.url, 1_000)
    await connection.connect()
    const key = `big:${process.pid}:${Date.now()}`
    const big = 'x'.repeat(1_000_000)
    await connection.send('SET', [key, big, 'PX', '60000'])
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => connection.send('ECHO', [String(i)])).concat(connection.send('GET', [key])),
    )
    expect(replies.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => String(i)))
    expect(replies[100]).toBe(big)
    connection.close()
  })
})

describeWithRedis('the store on the RESP connection when Redis goes away (docs/reliability.md)', () => {
  test('down: refused fast as RedisUnavailable; back on the same port: the next command reconnects', async () => {
    const server = await startRedis({ dir: work })
    const client = redisClient(server.url, respConnection)
    expect(await client.send('SET', ['k', 'v'])).toBe('OK')
    await server.stop()
    const started = performance.now()
    const down = await client.send('GET', ['k']).catch((caught: Error) => caught)
    expect(down).toBeInstanceOf(RedisUnavailable)
    expect(performance.now() - started).toBeLessThan(1_500)
    const again = await startRedis({ dir: work, port: server.port })
    expect(await client.send('PING', [])).toBe('PONG')
    expect(client.connected).toBe(true)
    client.close()
    await again.stop()
  })

  test('nothing listening: the first command fails within the connection timeout', async () => {
    const client = redisClient('redis://127.0.0.1:1', respConnection)
    const started = performance.now()
    expect(await client.send('PING', []).catch((caught: Error) => caught)).toBeInstanceOf(RedisUnavailable)
    expect(performance.now() - started).toBeLessThan(1_500)
    client.close()
  })
})

describe('the RESP reader', () => {
  test('a reply cut anywhere is incomplete until its last byte; then it reads whole', () => {
    const wire = Buffer.from('%2\r\n+state\r\n$5\r\nnewer\r\n$3\r\nttl\r\n:42\r\n')
    for (let cut = 0; cut < wire.length; cut++) expect(parseReply(wire.subarray(0, cut), 0)).toBeUndefined()
    expect(parseReply(wire, 0)).toEqual({ value: { state: 'newer', ttl: 42 }, next: wire.length, push: undefined })
  })

  test('RESP3 nulls, booleans, doubles and verbatim strings', () => {
    const read = (text: string) => parseReply(Buffer.from(text), 0)?.value
    expect(read('_\r\n')).toBeNull()
    expect(read('$-1\r\n')).toBeNull()
    expect(read('#t\r\n')).toBe(true)
    expect(read(',1.5\r\n')).toBe(1.5)
    expect(read('=8\r\ntxt:some\r\n')).toBe('some')
  })
})

describe("the SQLite drivers: node:sqlite (Deno's) as bun:sqlite", () => {
  const drivers: [string, (path: string) => Database][] = [
    ['bun:sqlite', openBunSqlite],
    ['node:sqlite', openNodeSqlite],
  ]
  for (const [name, open] of drivers)
    test(`${name}: named and positional parameters, null for no row, changes, a throwing transaction rolled back`, () => {
      const db = open(join(work, `${name.replace(':', '-')}.db`))
      db.run('CREATE TABLE t (key TEXT PRIMARY KEY, n INTEGER)')
      const insert = db.query<unknown, { key: string; n: number }>('INSERT INTO t (key, n) VALUES ($key, $n)')
      expect(insert.run({ key: 'a', n: 1 }).changes).toBe(1)
      expect(db.query<{ n: number }, [string]>('SELECT n FROM t WHERE key = ?').get('a')).toEqual({ n: 1 })
      expect(db.query<{ n: number }, [string]>('SELECT n FROM t WHERE key = ?').get('zzz')).toBeNull()
      expect(db.query('UPDATE t SET n = n + 1 WHERE key = ?').run('none').changes).toBe(0)
      const both = db.transaction((first: string, second: string) => {
        insert.run({ key: first, n: 2 })
        insert.run({ key: second, n: 3 })
      })
      expect(() => both('b', 'a')).toThrow()
      expect(db.query<{ key: string }, []>('SELECT key FROM t ORDER BY key').all()).toEqual([{ key: 'a' }])
      both('b', 'c')
      expect(
        db
          .query<{ key: string }, []>('SELECT key FROM t ORDER BY key')
          .all()
          .map((row) => row.key),
      ).toEqual(['a', 'b', 'c'])
      db.close()
    })

  test('a file written by one driver reads back with the other', () => {
    const path = join(work, 'shared.db')
    const writer = openNodeSqlite(path)
    writer.run('CREATE TABLE kept (v TEXT)')
    writer.query('INSERT INTO kept (v) VALUES (?)').run('from node:sqlite')
    writer.close()
    const reader = openBunSqlite(path)
    expect(reader.query<{ v: string }, []>('SELECT v FROM kept').all()).toEqual([{ v: 'from node:sqlite' }])
    reader.close()
  })
})

const tlsTools = Bun.which('redis-server') && Bun.which('openssl')
const describeWithTls = tlsTools ? describe : describe.skip
describeWithTls(
  `the RESP connection over TLS (rediss://)${tlsTools ? '' : ' — skipped: needs redis-server and openssl'}`,
  () => {
    test('a redis-server speaking TLS only: answered with its certificate trusted, refused without', async () => {
      const dir = mkdtempSync(join(work, 'tls-'))
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
      const made = Bun.spawnSync(
        ['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat(
          ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'],
        ),
        { stdout: 'ignore', stderr: 'pipe' },
      )
      expect(made.exitCode).toBe(0)
      const probe = Bun.serve({ port: 0, fetch: () => new Response('') })
      const port = probe.port!
      await probe.stop(true)
      const server = Bun.spawn(
        ['redis-server', '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--save', ''].concat([
          '--tls-cert-file',
          cert,
          '--tls-key-file',
          key,
          '--tls-auth-clients',
          'no',
        ]),
        { stdout: 'ignore', stderr: 'ignore' },
      )
      try {
        const url = `rediss://127.0.0.1:${port}`
        let reply: unknown
        for (let attempt = 0; attempt < 100 && reply === undefined; attempt++) {
          const trusted = respConnection(url, 1_000, { ca: readFileSync(cert) })
          reply = await trusted.connect().then(
            () => trusted.send('PING', []),
            () => Bun.sleep(20).then(() => undefined),
          )
          trusted.close()
        }
        expect(reply).toBe('PONG')
        // The same server unverified: a self-signed certificate is not trusted by default.
        const untrusted = respConnection(url, 1_000)
        expect(await untrusted.connect().catch((error: Error) => error)).toBeInstanceOf(Error)
        untrusted.close()
      } finally {
        server.kill()
        await server.exited
      }
    })
  },
)
