import { describe, expect, test } from 'bun:test'
import { RPC_PROVIDERS } from '../../src/sources/rpc-providers.ts'
import { batchCapacity, unitsWithin } from './service.ts'

describe('unitsWithin: the mints max_usd pays for at 0.015 USD each, exactly', () => {
  test.each([
    [0.015, 1],
    [0.029999, 1],
    [0.03, 2],
    [0.3, 20],
    [0.75, 50],
    [1, 66],
  ])('max_usd %p buys %p', (maxUsd, units) => expect(unitsWithin(maxUsd)).toBe(units))
})

describe('batchCapacity: 50 on a node that paces nothing, fewer on a paced plan', () => {
  test.each([
    ['no Solana source', undefined, 50],
    ['unlimited', RPC_PROVIDERS.unlimited, 50],
    ['keyed (10 calls a second)', RPC_PROVIDERS.keyed, 5],
    ['public (100 calls per 10 s)', RPC_PROVIDERS.public, 5],
  ])('%s', (_, provider, capacity) =>
    expect(batchCapacity({ sources: provider ? { solana: { provider } } : {} } as never)).toBe(capacity),
  )
})
