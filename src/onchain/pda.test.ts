import { describe, expect, test } from 'bun:test'
import { address } from '@solana/kit'
import { findAssociatedTokenPda } from '@solana-program/token'
import { findAssociatedTokenAddress } from './pda.ts'
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
