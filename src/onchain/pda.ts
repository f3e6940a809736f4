import { getAddressEncoder, getProgramDerivedAddress, type Address, type ProgramDerivedAddress } from '@solana/kit'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from './programs.ts'

/**
 * The associated token account of `owner` for `mint`: seeds `[owner, tokenProgram, mint]` under the
 * Associated Token program. `tokenProgram` matters: the same owner and mint give a different account
 * under Token-2022 (pump.fun `create_v2` coins are Token-2022 mints).
 */
export async function findAssociatedTokenAddress(
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<ProgramDerivedAddress> {
  const encoder = getAddressEncoder()
  return getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
    seeds: [encoder.encode(owner), encoder.encode(tokenProgram), encoder.encode(mint)],
  })
}
