import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import recorded from '../../test/fixtures/recorded/lifi/quote-eth-to-arbitrum-usdc-celercircle-2026-10-04.json'
import { type LifiQuote, LifiQuoteSchema } from '../../src/sources/lifi.ts'
import { bridgeOf } from './service.ts'

// The bridge member read off LI.FI's recorded answer (1 ETH on Ethereum → USDC on Arbitrum, 2026-10-04).
describe('the bridge member from a recorded LI.FI quote', () => {
  test('passes the boundary schema; output, minimum, fees taken out, the sender’s gas, duration', () => {
    expect(Value.Check(LifiQuoteSchema, recorded.answer)).toBe(true)
    expect(bridgeOf(recorded.answer as LifiQuote)).toEqual({
      tool: 'celercircle',
      tool_name: 'CCTP + Celer (Standard)',
      from_usdc: 1,
      output_usdc: 2694.021249,
      min_output_usdc: 2680.551143,
      // LIFI Fixed Fee 6.7522 + Transaction Fee 0.1000, both included in toAmount.
      fee_usd: 6.8522,
      // The SEND gas, paid by the sender on top.
      gas_usd: 0.2167,
      duration_s: 964,
    })
  })
})
