import { describe, expect, test } from 'bun:test'
import { getBase58Decoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import documented from '../../test/fixtures/recorded/jupiter/build-v2-docs-schema-sol-usdc.json'
import type { JupiterBuild } from '../../src/sources/jupiter.ts'
import { assembleSwap, COMPUTE_UNIT_LIMIT_MAX, unitLimitFor } from './build.ts'

// Jupiter's documented /build answer (its schema filled in, source and date in the fixture) assembled
// as the quote assembles it: the v0 message the taker pays and alone signs.
const build = documented.answer as unknown as JupiterBuild
const taker = 'GkwFnmMDvn3HGMpJpWBg8tgJxr3NxNvg3AXxvXVPbRGJ'
const decode = (b64: string) => {
  const transaction = getTransactionDecoder().decode(Buffer.from(b64, 'base64'))
  return { transaction, message: getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) }
}

describe('assembleSwap', () => {
  const { transaction, lastValidBlockHeight } = assembleSwap(build, taker, 'solsentry:job', 240_000)
  const { transaction: tx, message } = decode(transaction)
  if (message.version !== 0) throw new Error('a v0 message is expected')

  test('a v0 message paid by the taker, whose signature alone is asked (its slot empty)', () => {
    expect(message.staticAccounts[0]).toBe(taker as never)
    expect(Object.entries(tx.signatures)).toEqual([[taker, null]])
  })

  test("the answer's blockhash (bytes) and last valid block height are the transaction's lifetime", () => {
    expect(message.lifetimeToken).toBe(
      getBase58Decoder().decode(Uint8Array.from(build.blockhashWithMetadata.blockhash)) as never,
    )
    expect(lastValidBlockHeight).toBe(279_000_150n)
  })

  test('the lookup table the answer maps is used: its addresses leave the static list', () => {
    const [table, held] = Object.entries(build.addressesByLookupTableAddress!)[0]!
    expect(message.addressTableLookups?.map((lookup) => lookup.lookupTableAddress)).toEqual([table as never])
    // Accounts no signer needs and the table holds are looked up, not listed (programs invoked stay static).
    expect(message.staticAccounts).not.toContain('5BKxfWMbmYBAEWvyPZS9esPducUba9GqyMjtLCfbaqyF' as never)
    expect(held).toContain('5BKxfWMbmYBAEWvyPZS9esPducUba9GqyMjtLCfbaqyF')
  })

  test('in order: our unit limit, the compute price, setup, swap, cleanup, then the memo', () => {
    const programs = message.instructions.map((instruction) => message.staticAccounts[instruction.programAddressIndex])
    expect(programs).toEqual([
      'ComputeBudget111111111111111111111111111111',
      'ComputeBudget111111111111111111111111111111',
      'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
      '11111111111111111111111111111111',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
      'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
    ] as never)
    const limit = Buffer.from(message.instructions[0]!.data!)
    expect([limit[0], limit.readUInt32LE(1)]).toEqual([2, 240_000])
    expect(Buffer.from(message.instructions.at(-1)!.data!).toString()).toBe('solsentry:job')
  })

  test('a unit limit in the answer is dropped (the docs say none comes; two would be refused by the runtime)', () => {
    const withLimit = {
      ...build,
      computeBudgetInstructions: [
        ...build.computeBudgetInstructions,
        { programId: 'ComputeBudget111111111111111111111111111111', accounts: [], data: 'AsBcFQA=' },
      ],
    }
    const { message: again } = decode(assembleSwap(withLimit, taker, 'm', 300_000).transaction)
    if (again.version !== 0) throw new Error('a v0 message is expected')
    const limits = again.instructions.filter(
      (instruction) =>
        instruction.data?.[0] === 2 && instruction.programAddressIndex === again.instructions[0]!.programAddressIndex,
    )
    expect(limits).toHaveLength(1)
  })

  test('an answer that does not compile throws (the quote refuses it as SWAP_BUILD_INVALID)', () => {
    expect(() =>
      assembleSwap(
        { ...build, blockhashWithMetadata: { blockhash: [1, 2, 3], lastValidBlockHeight: 1 } },
        taker,
        'm',
        1,
      ),
    ).toThrow()
    expect(() =>
      assembleSwap(
        { ...build, swapInstruction: { ...build.swapInstruction, programId: 'not-an-address' } },
        taker,
        'm',
        1,
      ),
    ).toThrow()
  })
})

test.each([
  [null, COMPUTE_UNIT_LIMIT_MAX],
  [0n, COMPUTE_UNIT_LIMIT_MAX],
  [100_000n, 120_000],
  [99_999n, 119_999],
  [1_300_000n, COMPUTE_UNIT_LIMIT_MAX],
] as const)('unitLimitFor(%p) = %p: the simulated units plus a fifth, at most 1.4M', (consumed, limit) => {
  expect(unitLimitFor(consumed)).toBe(limit)
})
