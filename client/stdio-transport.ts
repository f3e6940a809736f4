/**
 * The bridge's stdio transport: one JSON-RPC message per line, as the SDK's StdioServerTransport reads
 * them, and also what revision 2025-03-26 allows on a line — a batch (an array of messages), answered
 * with one array of the responses to its requests. A line that is not JSON, or not a JSON-RPC message,
 * is answered with its JSON-RPC error (the SDK's transport drops it, leaving the host waiting).
 */
import process from 'node:process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js'

type Id = string | number

/** A batch waiting for its requests' responses, in the order its requests came. */
interface Batch {
  ids: Id[]
  responses: Map<Id, JSONRPCMessage>
  /** The errors of its entries that were not JSON-RPC messages, answered in the same array. */
  errors: unknown[]
}

export class StdioBatchTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  #buffer = ''
  /** The batch each pending request id belongs to. */
  readonly #batches = new Map<Id, Batch>()

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  readonly #ondata = (chunk: Buffer | string) => {
    this.#buffer += chunk.toString()
    for (let newline = this.#buffer.indexOf('\n'); newline >= 0; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '')
      this.#buffer = this.#buffer.slice(newline + 1)
      if (line.trim() !== '') this.#read(line)
    }
  }

  readonly #onerror = (error: Error) => this.onerror?.(error)

  async start(): Promise<void> {
    this.input.on('data', this.#ondata)
    this.input.on('error', this.#onerror)
  }

  async close(): Promise<void> {
    this.input.off('data', this.#ondata)
    this.input.off('error', this.#onerror)
    if (this.input.listenerCount('data') === 0) this.input.pause()
    this.onclose?.()
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id = 'id' in message && !('method' in message) ? (message.id as Id) : undefined
    const batch = id === undefined ? undefined : this.#batches.get(id)
    if (!batch) return this.#write(message)
    this.#batches.delete(id!)
    batch.responses.set(id!, message)
    if (batch.responses.size === batch.ids.length)
      await this.#write([...batch.errors, ...batch.ids.map((request) => batch.responses.get(request)!)])
  }

  #read(line: string): void {
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch (error) {
      void this.#write(failure(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`))
      return
    }
    if (!Array.isArray(parsed)) {
      const read = this.#message(parsed)
      if ('error' in read) void this.#write(read.error)
      else this.onmessage?.(read.message)
      return
    }
    if (parsed.length === 0) {
      void this.#write(failure(null, ErrorCode.InvalidRequest, 'Invalid Request: an empty batch'))
      return
    }
    const read = parsed.map((entry) => this.#message(entry))
    const messages = read
      .filter((entry): entry is { message: JSONRPCMessage } => 'message' in entry)
      .map((entry) => entry.message)
    const errors = read.filter((entry): entry is { error: unknown } => 'error' in entry).map((entry) => entry.error)
    const ids = messages.filter((entry) => 'method' in entry && 'id' in entry).map((entry) => (entry as { id: Id }).id)
    // Notifications and responses only: nothing to answer but the errors.
    if (ids.length === 0) {
      if (errors.length > 0) void this.#write(errors)
    } else {
      const batch: Batch = { ids, responses: new Map(), errors }
      for (const id of ids) this.#batches.set(id, batch)
    }
    for (const message of messages) this.onmessage?.(message)
  }

  /** A JSON-RPC message, or the error answering a value that is not one. */
  #message(value: unknown): { message: JSONRPCMessage } | { error: unknown } {
    const checked = JSONRPCMessageSchema.safeParse(value)
    if (checked.success) return { message: checked.data }
    const id = (value as { id?: unknown } | null)?.id
    return {
      error: failure(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message',
      ),
    }
  }

  #write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(value)}\n`)) resolve()
      else this.output.once('drain', resolve)
    })
  }
}

function failure(id: Id | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } }
}
