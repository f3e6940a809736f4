import { describe, expect, test } from 'bun:test'
import {
  PUMP_PROGRAM_ADDRESS as PUMP,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from '../../src/onchain/programs.ts'
import { RPC_PROVIDERS } from '../../src/sources/rpc-providers.ts'
import { KEY_EXCLUDED_FROM_SECONDARY_INDEX, sandboxRpcProfile } from './profiles.ts'

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' // mainnet USDC: any mint is refused

describe('sandbox RPC profiles', () => {
  test('open serves every method at any rate', () => {
    const open = sandboxRpcProfile('open')
    expect(open.refusal('getTokenLargestAccounts', [MINT])).toBeUndefined()
    expect(Array.from({ length: 500 }, () => open.overLimit(['getAccountInfo'])).some(Boolean)).toBe(false)
  })

  test("public refuses the secondary-index methods with agave's -32010 and its wording", () => {
    const pub = sandboxRpcProfile('public')
    expect(pub.refusal('getTokenLargestAccounts', [MINT])).toMatchObject({
      code: KEY_EXCLUDED_FROM_SECONDARY_INDEX,
      message: `${MINT} excluded from account secondary indexes; this RPC method unavailable for key`,
    })
    for (const program of [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS])
      expect(pub.refusal('getProgramAccounts', [program, {}])?.code).toBe(-32010)
    // Other programs' accounts stay readable; ordinary reads are never refused.
    expect(pub.refusal('getProgramAccounts', [PUMP, {}])).toBeUndefined()
    expect(pub.refusal('getAccountInfo', [MINT])).toBeUndefined()
  })

  test('public allows 40 calls of one method and 100 in all per 10 s, then refuses (a batch whole)', () => {
    const { callsPerWindow, callsPerMethodPerWindow } = RPC_PROVIDERS.public.limits
    const perMethod = sandboxRpcProfile('public')
    const answers = Array.from({ length: callsPerMethodPerWindow + 1 }, () => perMethod.overLimit(['getAccountInfo']))
    expect(answers.filter(Boolean)).toHaveLength(1)
    expect(answers.at(-1)).toBe(true)

    const total = sandboxRpcProfile('public')
    const methods = Array.from({ length: callsPerWindow - 1 }, (_, index) => `method${index % 30}`)
    expect(total.overLimit(methods)).toBe(false)
    // Two more calls do not fit: the batch is refused whole and counts for nothing, one still fits.
    expect(total.overLimit(['a', 'b'])).toBe(true)
    expect(total.overLimit(['a'])).toBe(false)
  })
})
