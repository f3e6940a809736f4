import { getTransferSolInstruction } from '@solana-program/system'
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getSyncNativeInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token'
import {
  AccountRole,
  getAddressEncoder,
  getProgramDerivedAddress,
  lamports,
  type AccountMeta,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit'
import { WRAPPED_SOL_MINT_ADDRESS } from '../../src/onchain/programs.ts'
import { associatedTokenAddress, trusted as address } from './addresses.ts'
import type { Pool, PoolBook, Quote } from './pool-book.ts'

/** The wrapped-SOL mint: SOL-quoted pools hold wSOL, and swaps wrap and unwrap it for the user. */
export const NATIVE_MINT: string = WRAPPED_SOL_MINT_ADDRESS

export interface SwapPlan {
  pool: Pool
  /** The wallet that trades; it signs for its own side. */
  user: TransactionSigner | Address
  inputMint: string
  amountIn: bigint
  /** What the pool pays out (the quote's amountOut, or less). */
  amountOut: bigint
  /** The sandbox pool operator, first of every vault's signer set; it signs for the pool's side. */
  operator: TransactionSigner
  /**
   * Who signs for the pool's payout instead of the operator: a taker the vault's signer set admits
   * (World.admitPayoutSigner), so the swap needs the taker's signature alone (Swap API v2 `/build`).
   */
  payoutSigner?: Address
  /** An integrator's tracking key (Jupiter's `trackingAccount`), riding along read-only like the pool. */
  trackingAccount?: string
}

/**
 * The instructions of a swap as the sandbox venues execute it: the user's input moves into the input
 * vault and the output vault pays the user, both as real SPL transfers (the vault's delegate, its signer
 * set, signs for the pool through one of its members, since the venue's program cannot run offline). The pool account rides along read-only so
 * the swap appears in its history. SOL is wrapped before and unwrapped after, as aggregators do.
 */
export async function swapInstructions(plan: SwapPlan): Promise<Instruction[]> {
  const { pool, inputMint, amountIn, amountOut, operator } = plan
  const owner = typeof plan.user === 'string' ? plan.user : plan.user.address
  const userSigner = typeof plan.user === 'string' ? undefined : plan.user
  const selling = inputMint === pool.baseMint
  const input = side(pool, selling ? 'base' : 'quote')
  const output = side(pool, selling ? 'quote' : 'base')
  const userInput = await associatedTokenAddress(input.mint, owner, input.program)
  const userOutput = await associatedTokenAddress(output.mint, owner, output.program)
  const payer = userSigner ?? ({ address: owner } as TransactionSigner)
  const authority = userSigner ?? owner
  const instructions: Instruction[] = []

  if (input.mint === NATIVE_MINT)
    instructions.push(
      createAta(payer, userInput, owner, input),
      getTransferSolInstruction({ source: payer, destination: userInput, amount: lamports(amountIn) }),
      getSyncNativeInstruction({ account: userInput }),
    )
  instructions.push(
    createAta(payer, userOutput, owner, output),
    getTransferCheckedInstruction(
      {
        source: userInput,
        mint: address(input.mint),
        destination: address(input.vault),
        authority,
        amount: amountIn,
        decimals: input.decimals,
      },
      { programAddress: address(input.program) },
    ),
    withReadonlyAccounts(
      await payoutTransfer(
        { vault: output.vault, mint: output.mint, program: output.program, decimals: output.decimals },
        userOutput,
        amountOut,
        plan.payoutSigner ?? operator,
      ),
      [
        pool.address,
        // A launchpad curve's trade names its program, as the real one's does: logsSubscribe and the
        // program's signature history find it (the world adds the program's events to its logs).
        ...(pool.kind === 'pump-curve' ? [pool.programId] : []),
        ...(plan.trackingAccount ? [plan.trackingAccount] : []),
      ],
    ),
  )
  if (input.mint === NATIVE_MINT) instructions.push(closeAccount(userInput, owner, authority, input.program))
  if (output.mint === NATIVE_MINT) instructions.push(closeAccount(userOutput, owner, authority, output.program))
  return instructions
}

/**
 * A vault's signer set: a 1-of-n SPL multisig, owned by the vault's token program and the vault's
 * delegate, whose first member is the operator. It stands in for the venue program's own authority:
 * on mainnet the program pays out of the vault by itself, within the swap the user alone signs.
 */
export async function vaultSignersOf(vault: string, program: string): Promise<Address> {
  const [signers] = await getProgramDerivedAddress({
    programAddress: address(program),
    seeds: ['sandbox-vault-signers', getAddressEncoder().encode(address(vault))],
  })
  return signers
}

/** The pool's payout out of `vault`: its signer set is the authority, `signer` the member who signs. */
export async function payoutTransfer(
  vault: { vault: string; mint: string; program: string; decimals: number },
  destination: Address,
  amount: bigint,
  signer: TransactionSigner | Address,
): Promise<Instruction> {
  const transfer = getTransferCheckedInstruction(
    {
      source: address(vault.vault),
      mint: address(vault.mint),
      destination,
      authority: await vaultSignersOf(vault.vault, vault.program),
      amount,
      decimals: vault.decimals,
    },
    { programAddress: address(vault.program) },
  )
  const member: AccountMeta =
    typeof signer === 'string'
      ? { address: signer, role: AccountRole.READONLY_SIGNER }
      : ({ address: signer.address, role: AccountRole.READONLY_SIGNER, signer } as AccountMeta)
  return { ...transfer, accounts: [...transfer.accounts, member] }
}

/** Picks the pool that gives the most output for a direct swap between two mints, with its quote. */
export function bestRoute(
  book: PoolBook,
  inputMint: string,
  outputMint: string,
  amountIn: bigint,
): { pool: Pool; quote: Quote } | undefined {
  let best: { pool: Pool; quote: Quote } | undefined
  for (const pool of book.poolsOf(inputMint)) {
    const other = pool.baseMint === inputMint ? pool.quoteMint : pool.baseMint
    if (other !== outputMint || !book.canSwap(pool)) continue
    const quote = book.quote(pool, inputMint, amountIn)
    if (quote.amountOut > 0n && (!best || quote.amountOut > best.quote.amountOut)) best = { pool, quote }
  }
  return best
}

function side(pool: Pool, which: 'base' | 'quote') {
  return which === 'base'
    ? { mint: pool.baseMint, vault: pool.baseVault, decimals: pool.baseDecimals, program: pool.baseTokenProgram }
    : { mint: pool.quoteMint, vault: pool.quoteVault, decimals: pool.quoteDecimals, program: pool.quoteTokenProgram }
}

function createAta(
  payer: TransactionSigner,
  ata: Address,
  owner: Address,
  token: { mint: string; program: string },
): Instruction {
  return getCreateAssociatedTokenIdempotentInstruction({
    payer,
    ata,
    owner,
    mint: address(token.mint),
    tokenProgram: address(token.program),
  })
}

function closeAccount(
  account: Address,
  owner: Address,
  authority: TransactionSigner | Address,
  program: string,
): Instruction {
  return getCloseAccountInstruction(
    { account, destination: owner, owner: authority },
    { programAddress: address(program) },
  )
}

/** Appends accounts (read-only, not signers: the pool, a tracking key); the token program ignores them. */
export function withReadonlyAccounts(instruction: Instruction, accounts: readonly string[]): Instruction {
  const extra = accounts.map((account) => ({ address: address(account), role: AccountRole.READONLY }))
  return { ...instruction, accounts: [...(instruction.accounts ?? []), ...extra] }
}
