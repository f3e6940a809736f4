/**
 * pump.fun bonding-curve events, as the program emits them in its logs ("Program data: <base64>":
 * an 8-byte Anchor event discriminator, then the event's fields in Borsh). Layouts and discriminators:
 * pump-fun/pump-public-docs `idl/pump.json` (commit 1b82215). The program appends fields over time, so
 * older events are shorter: the decoder reads the fields present and requires only the first ones
 * (those every recorded version carries). The encoder writes the current layout (the sandbox's
 * launchpad stand-in emits these events for the curve trades it makes).
 */
import { getBase58Codec } from '@solana/kit'

export const CREATE_EVENT_DISCRIMINATOR = new Uint8Array([27, 114, 169, 77, 222, 235, 99, 118])
export const TRADE_EVENT_DISCRIMINATOR = new Uint8Array([189, 219, 127, 211, 78, 230, 97, 238])
export const COMPLETE_EVENT_DISCRIMINATOR = new Uint8Array([95, 114, 97, 156, 212, 46, 152, 8])

/** The log line prefix of an emitted event (`sol_log_data`). */
export const PROGRAM_DATA_PREFIX = 'Program data: '

export interface CreateEvent {
  kind: 'create'
  name: string
  symbol: string
  uri: string
  mint: string
  bondingCurve: string
  user: string
  /** Present since creator fees; the user who created it before. */
  creator: string | null
  timestamp: number | null
  virtualTokenReserves: bigint | null
  virtualSolReserves: bigint | null
  realTokenReserves: bigint | null
  tokenTotalSupply: bigint | null
}

export interface TradeEvent {
  kind: 'trade'
  mint: string
  solAmount: bigint
  tokenAmount: bigint
  isBuy: boolean
  user: string
  timestamp: number
  virtualSolReserves: bigint
  virtualTokenReserves: bigint
  realSolReserves: bigint | null
  realTokenReserves: bigint | null
}

export interface CompleteEvent {
  kind: 'complete'
  user: string
  mint: string
  bondingCurve: string
  timestamp: number
}

export type PumpEvent = CreateEvent | TradeEvent | CompleteEvent

const base58 = getBase58Codec()

/** Reads Borsh values in order; `done` is true once the bytes run out (an older, shorter event). */
class Reader {
  #offset = 0
  constructor(private readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.#offset >= this.bytes.length
  }
  #take(size: number): Uint8Array {
    if (this.#offset + size > this.bytes.length) throw new RangeError('event ends early')
    const slice = this.bytes.subarray(this.#offset, this.#offset + size)
    this.#offset += size
    return slice
  }
  #view(size: number) {
    const slice = this.#take(size)
    return new DataView(slice.buffer, slice.byteOffset, size)
  }
  key(): string {
    return base58.decode(this.#take(32))
  }
  u64(): bigint {
    return this.#view(8).getBigUint64(0, true)
  }
  i64(): number {
    return Number(this.#view(8).getBigInt64(0, true))
  }
  bool(): boolean {
    return this.#take(1)[0] === 1
  }
  string(): string {
    const length = this.#view(4).getUint32(0, true)
    return new TextDecoder().decode(this.#take(length))
  }
  /** The next value, or null when the event ended before it. */
  maybe<T>(read: () => T): T | null {
    return this.done ? null : read()
  }
}

const same = (a: Uint8Array, b: Uint8Array) => a.length >= b.length && b.every((byte, i) => a[i] === byte)

/** The event in one "Program data:" payload, or undefined for another event, another program's data or a malformed one. */
export function decodePumpEvent(data: Uint8Array): PumpEvent | undefined {
  try {
    const reader = new Reader(data.subarray(8))
    if (same(data, TRADE_EVENT_DISCRIMINATOR))
      return {
        kind: 'trade',
        mint: reader.key(),
        solAmount: reader.u64(),
        tokenAmount: reader.u64(),
        isBuy: reader.bool(),
        user: reader.key(),
        timestamp: reader.i64(),
        virtualSolReserves: reader.u64(),
        virtualTokenReserves: reader.u64(),
        realSolReserves: reader.maybe(() => reader.u64()),
        realTokenReserves: reader.maybe(() => reader.u64()),
      }
    if (same(data, CREATE_EVENT_DISCRIMINATOR))
      return {
        kind: 'create',
        name: reader.string(),
        symbol: reader.string(),
        uri: reader.string(),
        mint: reader.key(),
        bondingCurve: reader.key(),
        user: reader.key(),
        creator: reader.maybe(() => reader.key()),
        timestamp: reader.maybe(() => reader.i64()),
        virtualTokenReserves: reader.maybe(() => reader.u64()),
        virtualSolReserves: reader.maybe(() => reader.u64()),
        realTokenReserves: reader.maybe(() => reader.u64()),
        tokenTotalSupply: reader.maybe(() => reader.u64()),
      }
    if (same(data, COMPLETE_EVENT_DISCRIMINATOR))
      return {
        kind: 'complete',
        user: reader.key(),
        mint: reader.key(),
        bondingCurve: reader.key(),
        timestamp: reader.i64(),
      }
  } catch {
    return undefined
  }
  return undefined
}

/** Every pump.fun event in a transaction's log lines, in order. */
export function pumpEventsInLogs(logs: readonly string[]): PumpEvent[] {
  const events: PumpEvent[] = []
  for (const line of logs) {
    if (!line.startsWith(PROGRAM_DATA_PREFIX)) continue
    const event = decodePumpEvent(Buffer.from(line.slice(PROGRAM_DATA_PREFIX.length), 'base64'))
    if (event) events.push(event)
  }
  return events
}

/** Borsh writer for the encoder. */
class Writer {
  readonly parts: Uint8Array[] = []
  key(value: string) {
    this.parts.push(new Uint8Array(base58.encode(value)))
  }
  u64(value: bigint) {
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setBigUint64(0, value, true)
    this.parts.push(bytes)
  }
  i64(value: number) {
    const bytes = new Uint8Array(8)
    new DataView(bytes.buffer).setBigInt64(0, BigInt(value), true)
    this.parts.push(bytes)
  }
  u32(value: number) {
    const bytes = new Uint8Array(4)
    new DataView(bytes.buffer).setUint32(0, value, true)
    this.parts.push(bytes)
  }
  bool(value: boolean) {
    this.parts.push(new Uint8Array([value ? 1 : 0]))
  }
  string(value: string) {
    const bytes = new TextEncoder().encode(value)
    this.u32(bytes.length)
    this.parts.push(bytes)
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.parts)
  }
}

const SYSTEM = '11111111111111111111111111111111'

/**
 * The "Program data:" line of an event in the current layout (the IDL's). Members the sandbox does not
 * model (fees, volume tracking, cashback, shareholders) are written as zero, false, empty or the
 * all-zero key.
 */
export function encodePumpEventLog(event: PumpEvent): string {
  const out = new Writer()
  if (event.kind === 'trade') {
    out.parts.push(TRADE_EVENT_DISCRIMINATOR)
    out.key(event.mint)
    out.u64(event.solAmount)
    out.u64(event.tokenAmount)
    out.bool(event.isBuy)
    out.key(event.user)
    out.i64(event.timestamp)
    out.u64(event.virtualSolReserves)
    out.u64(event.virtualTokenReserves)
    out.u64(event.realSolReserves ?? 0n)
    out.u64(event.realTokenReserves ?? 0n)
    out.key(SYSTEM) // fee_recipient
    for (let i = 0; i < 2; i++) out.u64(0n) // fee_basis_points, fee
    out.key(SYSTEM) // creator
    for (let i = 0; i < 2; i++) out.u64(0n) // creator_fee_basis_points, creator_fee
    out.bool(false) // track_volume
    for (let i = 0; i < 3; i++) out.u64(0n) // total_unclaimed_tokens, total_claimed_tokens, current_sol_volume
    out.i64(0) // last_update_timestamp
    out.string(event.isBuy ? 'buy' : 'sell') // ix_name
    out.bool(false) // mayhem_mode
    for (let i = 0; i < 4; i++) out.u64(0n) // cashback bps and amount, buyback bps and amount
    out.u32(0) // shareholders: an empty vec
    out.key(SYSTEM) // quote_mint: the all-zero key for SOL-paired coins
    out.u64(event.solAmount) // quote_amount
    out.u64(event.virtualSolReserves) // virtual_quote_reserves
    out.u64(event.realSolReserves ?? 0n) // real_quote_reserves
  } else if (event.kind === 'create') {
    out.parts.push(CREATE_EVENT_DISCRIMINATOR)
    out.string(event.name)
    out.string(event.symbol)
    out.string(event.uri)
    out.key(event.mint)
    out.key(event.bondingCurve)
    out.key(event.user)
    out.key(event.creator ?? event.user)
    out.i64(event.timestamp ?? 0)
    out.u64(event.virtualTokenReserves ?? 0n)
    out.u64(event.virtualSolReserves ?? 0n)
    out.u64(event.realTokenReserves ?? 0n)
    out.u64(event.tokenTotalSupply ?? 0n)
    out.key('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
    out.bool(false) // is_mayhem_mode
    out.bool(false) // is_cashback_enabled
    out.key(SYSTEM) // quote_mint
    out.u64(event.virtualSolReserves ?? 0n) // virtual_quote_reserves
  } else {
    out.parts.push(COMPLETE_EVENT_DISCRIMINATOR)
    out.key(event.user)
    out.key(event.mint)
    out.key(event.bondingCurve)
    out.i64(event.timestamp)
    out.key(SYSTEM) // quote_mint
  }
  return `${PROGRAM_DATA_PREFIX}${Buffer.from(out.bytes()).toString('base64')}`
}
