import { getBase58Encoder } from '@solana/kit'
import { invalidParams, RPC_ERRORS, RpcError } from './rpc-error.ts'

const base58 = getBase58Encoder()
const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized', 'recent', 'single', 'singleGossip', 'root', 'max'])

/** Reads the positional params of a JSON-RPC call, with the Solana RPC's messages for bad input. */
export class Params {
  constructor(
    private readonly values: unknown[],
    private readonly currentSlot: bigint,
  ) {}

  /** A base58 public key at `index` (required). */
  pubkey(index: number): string {
    const value = this.values[index]
    if (typeof value !== 'string') throw invalidParams(`expected a base58 public key string at position ${index}`)
    let bytes: Uint8Array
    try {
      bytes = base58.encode(value) as Uint8Array
    } catch {
      throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: Invalid')
    }
    if (bytes.length !== 32) throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: WrongSize')
    return value
  }

  /** A transaction signature (base58, 64 bytes) at `index`. */
  signature(index: number, value: unknown = this.values[index]): string {
    if (typeof value !== 'string') throw invalidParams(`expected a base58 signature string at position ${index}`)
    let bytes: Uint8Array
    try {
      bytes = base58.encode(value) as Uint8Array
    } catch {
      throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: Invalid')
    }
    if (bytes.length !== 64) throw new RpcError(RPC_ERRORS.INVALID_PARAMS, 'Invalid param: WrongSize')
    return value
  }

  string(index: number): string {
    const value = this.values[index]
    if (typeof value !== 'string') throw invalidParams(`expected a string at position ${index}`)
    return value
  }

  /** A non-negative integer (JSON number) at `index`. */
  u64(index: number): bigint {
    const value = this.values[index]
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      throw invalidParams(`expected a non-negative integer at position ${index}`)
    return BigInt(value)
  }

  array(index: number): unknown[] {
    const value = this.values[index]
    if (!Array.isArray(value)) throw invalidParams(`expected an array at position ${index}`)
    return value
  }

  /**
   * The config object at `index` (optional). Checks `commitment` and `minContextSlot`, which every
   * method accepts; the sandbox has one bank, so every commitment reads the same state.
   */
  config(index: number): Config {
    const value = this.values[index]
    if (value === undefined || value === null) return new Config({})
    if (typeof value !== 'object' || Array.isArray(value))
      throw invalidParams(`expected a config object at position ${index}`)
    const config = new Config(value as Record<string, unknown>)
    const commitment = config.raw.commitment
    if (commitment !== undefined && (typeof commitment !== 'string' || !COMMITMENTS.has(commitment)))
      throw invalidParams(`unknown commitment ${JSON.stringify(commitment)}`)
    const minContextSlot = config.raw.minContextSlot
    if (typeof minContextSlot === 'number' && BigInt(minContextSlot) > this.currentSlot)
      throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: this.currentSlot })
    return config
  }
}

export class Config {
  constructor(readonly raw: Record<string, unknown>) {}

  string<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw[key]
    if (value === undefined || value === null) return fallback
    if (typeof value !== 'string' || !allowed.includes(value as T))
      throw invalidParams(`${key} must be one of ${allowed.join(', ')}`)
    return value as T
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.raw[key]
    if (value === undefined || value === null) return fallback
    if (typeof value !== 'boolean') throw invalidParams(`${key} must be a boolean`)
    return value
  }

  optionalNumber(key: string): number | undefined {
    const value = this.raw[key]
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      throw invalidParams(`${key} must be a non-negative integer`)
    return value
  }

  dataSlice(): { offset: number; length: number } | undefined {
    const value = this.raw.dataSlice
    if (value === undefined || value === null) return undefined
    const slice = value as { offset?: unknown; length?: unknown }
    if (typeof slice.offset !== 'number' || typeof slice.length !== 'number' || slice.offset < 0 || slice.length < 0)
      throw invalidParams('dataSlice needs non-negative offset and length')
    return { offset: slice.offset, length: slice.length }
  }
}
