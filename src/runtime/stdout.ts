import { RUNTIME } from './runtime.ts'

/** Standard output as the logger writes it: text handed over in batches, flushed on demand. */
export interface StdoutWriter {
  write(text: string): void
  /** Resolves once what was written has left the process. */
  flush(): Promise<void>
}

/**
 * Standard output through the runtime's own writer: Bun's native buffered writer (`highWaterMark`
 * characters), or on Deno the file's synchronous write of each batch (the logger batches already).
 */
export function stdoutWriter(highWaterMark: number): StdoutWriter {
  if (RUNTIME === 'bun') {
    const writer = Bun.stdout.writer({ highWaterMark })
    return {
      write: (text) => void writer.write(text),
      flush: async () => void (await writer.flush()),
    }
  }
  const stdout = (globalThis as unknown as { Deno: { stdout: { writeSync(bytes: Uint8Array): number } } }).Deno.stdout
  const utf8 = new TextEncoder()
  return {
    write(text) {
      const bytes = utf8.encode(text)
      try {
        // A pipe takes what it has room for: the rest is written on, in order.
        for (let done = 0; done < bytes.length; ) done += stdout.writeSync(bytes.subarray(done))
      } catch {
        // Standard output closed (the reader went away): the lines are lost, the service goes on.
      }
    },
    flush: async () => {},
  }
}
