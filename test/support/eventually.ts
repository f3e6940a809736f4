/**
 * Waits for something another process or a background task does: reads `read()` every `intervalMs`
 * until `done(value)` holds, and answers that value; after `timeoutMs` fails with what it last read.
 * Tests wait for outcomes this way, never with a fixed sleep or an unbounded loop.
 */
export async function eventually<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 15_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() - started > timeoutMs) {
      const shown =
        value instanceof Response
          ? `HTTP ${value.status}`
          : JSON.stringify(value, (_key, entry) => (typeof entry === 'bigint' ? `${entry}n` : entry))
      throw new Error(`${what}: still ${shown} after ${timeoutMs} ms`)
    }
    await Bun.sleep(intervalMs)
  }
}
