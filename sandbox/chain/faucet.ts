import { getTransferSolInstruction } from '@solana-program/system'
import { address, lamports, type KeyPairSigner } from '@solana/kit'
import type { Chain } from './chain.ts'
import { execute } from './transactions.ts'

const SYSTEM_PROGRAM = '11111111111111111111111111111111'

/** The faucet's genesis allocation: enough SOL for any amount of testing. */
export const FAUCET_LAMPORTS = 1_000_000_000n * 1_000_000_000n

/** Sends SOL from a funded sandbox keypair in real transactions, so airdrops appear in history. */
export class Faucet {
  constructor(
    private readonly chain: Chain,
    private readonly signer: KeyPairSigner,
  ) {
    // A genesis allocation, as a validator's faucet account has.
    chain.setAccount({
      address: signer.address,
      lamports: lamports(FAUCET_LAMPORTS),
      data: new Uint8Array(),
      programAddress: address(SYSTEM_PROGRAM),
      executable: false,
    })
  }

  get address(): string {
    return this.signer.address
  }

  /** Transfers `amount` lamports to `to`; resolves to the transaction signature. */
  async airdrop(to: string, amount: bigint): Promise<string> {
    const instruction = getTransferSolInstruction({
      source: this.signer,
      destination: address(to),
      amount: lamports(amount),
    })
    return (await execute(this.chain, this.signer, [instruction])).signature
  }

  /**
   * `count` separate dust transfers to `to` (1, 2, 3… lamports, so no two are the same transaction),
   * each a transaction in its history: what anyone can do to a wallet to bury its own transactions
   * under newer ones. Resolves to their signatures, oldest first.
   */
  async dust(to: string, count: number): Promise<string[]> {
    const signatures: string[] = []
    for (let i = 1; i <= count; i++) signatures.push(await this.airdrop(to, BigInt(i)))
    return signatures
  }
}
