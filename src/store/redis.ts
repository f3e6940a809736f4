import { RedisClient } from 'bun'

/** A client for REDIS_URL as every Redis-backed part opens it: a 2 s connect timeout, reconnecting. */
export function redisClient(url: string): RedisClient {
  return new RedisClient(url, { connectionTimeout: 2_000, autoReconnect: true })
}

/** True when Redis answers PING within a second (the store's health). */
export function redisPing(client: RedisClient): Promise<boolean> {
  const answer = client.send('PING', []).then(
    (reply) => reply === 'PONG',
    () => false,
  )
  return Promise.race([answer, Bun.sleep(1_000).then(() => false)])
}
