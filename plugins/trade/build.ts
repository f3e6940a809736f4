/**
 * A Swap API v2 `/build` answer assembled into the unsigned transaction a trade job keeps: Jupiter
 * returns instructions, the integrator compiles them (jup-ag/docs swap/build/index.mdx): a compute unit
 * limit from a simulation (120 % of the units used, at most 1.4M), the answer's compute-budget, setup,
 * swap, cleanup and other instructions in that order, then the job's memo; a v0 message paid by the
 * taker, its lookup tables the ones the answer maps (table → addresses, no RPC read needed), its
 * lifetime the answer's blockhash (bytes) and last valid block height.
 */
import {
  AccountRole,
  type AccountMeta,
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { MEMO_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import type { JupiterBuild, JupiterBuildInstruction } from '../../src/sources/jupiter.ts'

/** The runtime's most compute units a transaction may ask for. */
export const COMPUTE_UNIT_LIMIT_MAX = 1_400_000
/** Jupiter's guidance: the limit is the simulated units plus 20 % (swap state moves between simulation and landing). */
const COMPUTE_UNIT_MARGIN = 1.2
const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111')

/** The assembled transaction: base64 wire bytes (the taker's signature slot empty) and its expiry. */
export interface AssembledSwap {
  transaction: string
  lastValidBlockHeight: bigint
}

/**
 * Compiles `build` for `taker` with `unitLimit` compute units, the job's `memo` last (it makes each
 * job's transaction its own, as v1's tracking account did). Throws on an answer that cannot compile
 * (an address that is not one, a blockhash of the wrong size).
 */
export function assembleSwap(build: JupiterBuild, taker: string, memo: string, unitLimit: number): AssembledSwap {
  const instructions: Instruction[] = [
    setComputeUnitLimit(unitLimit),
    // The limit is ours: a limit in the answer (the docs say there is none) would be a duplicate the runtime refuses.
    ...build.computeBudgetInstructions.filter((instruction) => !isUnitLimit(instruction)).map(instructionOf),
    ...build.setupInstructions.map(instructionOf),
    instructionOf(build.swapInstruction),
    ...(build.cleanupInstruction ? [instructionOf(build.cleanupInstruction)] : []),
    ...build.otherInstructions.map(instructionOf),
    { programAddress: MEMO_PROGRAM_ADDRESS, accounts: [], data: new TextEncoder().encode(memo) },
  ]
  const tables = Object.fromEntries(
    Object.entries(build.addressesByLookupTableAddress ?? {}).map(([table, held]) => [
      address(table),
      held.map((entry) => address(entry)),
    ]),
  ) as Record<Address, Address[]>
  const { blockhash } = build.blockhashWithMetadata
  if (blockhash.length !== 32) throw new Error(`the blockhash has ${blockhash.length} bytes, not 32`)
  const lifetime = {
    blockhash: getBase58Decoder().decode(Uint8Array.from(blockhash)) as Blockhash,
    lastValidBlockHeight: BigInt(build.blockhashWithMetadata.lastValidBlockHeight),
  }
  const compiled = pipe(
    createTransactionMessage({ version: 0 }),
    (message) => appendTransactionMessageInstructions(instructions, message),
    (message) => setTransactionMessageFeePayer(address(taker), message),
    (message) => compressTransactionMessageUsingAddressLookupTables(message, tables),
    (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime, message),
    (message) => compileTransaction(message),
  )
  return { transaction: getBase64EncodedWireTransaction(compiled), lastValidBlockHeight: lifetime.lastValidBlockHeight }
}

/** The compute unit limit for a transaction that used `consumed` units in simulation (unknown: the most). */
export function unitLimitFor(consumed: bigint | null): number {
  if (consumed === null || consumed <= 0n) return COMPUTE_UNIT_LIMIT_MAX
  return Math.min(COMPUTE_UNIT_LIMIT_MAX, Math.ceil(Number(consumed) * COMPUTE_UNIT_MARGIN))
}

function instructionOf(instruction: JupiterBuildInstruction): Instruction {
  return {
    programAddress: address(instruction.programId),
    accounts: instruction.accounts.map(
      (account): AccountMeta => ({
        address: address(account.pubkey),
        role: account.isSigner
          ? account.isWritable
            ? AccountRole.WRITABLE_SIGNER
            : AccountRole.READONLY_SIGNER
          : account.isWritable
            ? AccountRole.WRITABLE
            : AccountRole.READONLY,
      }),
    ),
    data: Uint8Array.from(Buffer.from(instruction.data, 'base64')),
  }
}

function isUnitLimit(instruction: JupiterBuildInstruction): boolean {
  return instruction.programId === COMPUTE_BUDGET_PROGRAM && Buffer.from(instruction.data, 'base64')[0] === 2
}

/** ComputeBudget's SetComputeUnitLimit: discriminator 2, then the units (u32 LE). */
function setComputeUnitLimit(units: number): Instruction {
  const data = new Uint8Array(5)
  data[0] = 2
  new DataView(data.buffer).setUint32(1, units, true)
  return { programAddress: COMPUTE_BUDGET_PROGRAM, accounts: [], data }
}
