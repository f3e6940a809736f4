import { describe, expect, test } from 'bun:test'
import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit'
import { findAssociatedTokenPda } from '@solana-program/token'
import { addressSeed, derivePda, findAssociatedTokenAddress } from './pda.ts'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './programs.ts'

const owner = address('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')
const mint = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')

describe('findAssociatedTokenAddress', () => {
  test.each([
    ['SPL Token', TOKEN_PROGRAM_ADDRESS],
    ['Token-2022', TOKEN_2022_PROGRAM_ADDRESS],
  ])('matches @solana-program/token under %s', async (_name, tokenProgram) => {
    const expected = await findAssociatedTokenPda({ owner, mint, tokenProgram })
    expect(await findAssociatedTokenAddress(owner, mint, tokenProgram)).toEqual(expected)
  })

  test('defaults to SPL Token and differs under Token-2022', async () => {
    const [legacy] = await findAssociatedTokenAddress(owner, mint)
    const [token2022] = await findAssociatedTokenAddress(owner, mint, TOKEN_2022_PROGRAM_ADDRESS)
    expect(legacy).toBe((await findAssociatedTokenAddress(owner, mint, TOKEN_PROGRAM_ADDRESS))[0])
    expect(token2022).not.toBe(legacy)
  })
})

describe('derivePda', () => {
  const program = address('metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s')
  const kit = (seeds: (string | Uint8Array)[]) => getProgramDerivedAddress({ programAddress: program, seeds })
  const bytes = getAddressEncoder().encode(mint) as Uint8Array

  test('derives what @solana/kit derives, whatever form the seeds take', async () => {
    expect(await derivePda(program, ['metadata', addressSeed(program), addressSeed(mint)])).toEqual(
      await kit(['metadata', getAddressEncoder().encode(program) as Uint8Array, bytes]),
    )
    expect(await derivePda(program, [bytes, 'edition'])).toEqual(await kit([bytes, 'edition']))
    expect(await derivePda(program, [Uint8Array.of(1, 0)])).toEqual(await kit([Uint8Array.of(1, 0)]))
  })

  test('is kept: the same seeds give the same derivation without deriving again; other seeds differ', async () => {
    const first = derivePda(program, ['metadata', addressSeed(mint)])
    expect(derivePda(program, ['metadata', addressSeed(mint)])).toBe(first)
    // The same bytes as an address seed or as bytes are told apart by form, and still agree.
    expect(await derivePda(program, ['metadata', bytes])).toEqual(await first)
    expect((await derivePda(program, ['metadata', addressSeed(owner)]))[0]).not.toBe((await first)[0])
    // Text and its UTF-8 bytes are kept apart and derive alike.
    expect(await derivePda(program, ['ab'])).toEqual(await derivePda(program, [Uint8Array.of(97, 98)]))
  })
})
