/**
 * `GET /swap/v2/build` (Jupiter Swap API v2): a quote and the raw instructions of its swap, which the
 * caller assembles into a transaction of its own. The shape is the one Jupiter documents
 * (jup-ag/docs openapi-spec/swap/v2/swap.yaml, GetBuild; test/fixtures/recorded/jupiter/build-v2-*):
 * the quote's terms, the instructions (compute price, setup, the swap, cleanup, other), the lookup
 * tables as table → addresses, the blockhash as bytes. ExactIn only; the swapping wallet is `taker`.
 */
import { AccountRole, type Instruction } from '@solana/kit'
import { base58Decode } from '../chain/base58.ts'
import { trusted as address } from '../world/addresses.ts'
import { swapInstructions } from '../world/swap.ts'
import type { World } from '../world/world.ts'
import { badQueryParameter, ok, refuse, type Outcome } from './errors.ts'
import { parametersOf, parsePubkey, parseQueryInteger } from './params.ts'
import { findRoute, inV2Shape, type QuoteTerms, quoteFromQuery, type V2RoutePlanStep } from './quote.ts'

/** `maxAccounts`' documented range (default 64): the stand-in's routes use far fewer. */
export const MAX_ACCOUNTS = 64
/**
 * The compute unit price the stand-in's compute-budget instruction names: the sandbox has no fee
 * market (as its v1 swaps pay no priority fee), so zero — the instruction is there as Jupiter sends it.
 */
export const SANDBOX_COMPUTE_UNIT_PRICE = 0n
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'
/** SPL Token's TransferChecked instruction discriminator. */
const TRANSFER_CHECKED = 12

/** An instruction in the answer's shape: base58 keys, base64 data. */
export interface BuildInstruction {
  programId: string
  accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[]
  data: string
}

/** The answer of `GET /swap/v2/build`, in Jupiter's documented shape. */
export interface BuildResponse extends QuoteTerms {
  /** A fraction ("0.001" is 0.1 %). */
  priceImpactPct: string
  routePlan: V2RoutePlanStep[]
  /** The compute unit price only: the caller sets the limit (by simulating). */
  computeBudgetInstructions: BuildInstruction[]
  setupInstructions: BuildInstruction[]
  swapInstruction: BuildInstruction
  cleanupInstruction: BuildInstruction | null
  otherInstructions: BuildInstruction[]
  tipInstruction: BuildInstruction | null
  /** Lookup tables by address, with the addresses each holds: each pool's of the route (World.lookupTableOf). */
  addressesByLookupTableAddress: Record<string, string[]> | null
  blockhashWithMetadata: {
    blockhash: number[]
    lastValidBlockHeight: number
    fetchedAt: { secs_since_epoch: number; nanos_since_epoch: number }
  }
}

/**
 * Answers `GET /swap/v2/build` from its query string: prices the route on the pools as they stand
 * (as the v1 quote does), then lists the swap's instructions for the taker, who alone signs them.
 */
export async function buildFromQuery(world: World, query: URLSearchParams): Promise<Outcome<BuildResponse>> {
  const takerText = query.get('taker')
  if (takerText === null) return refuse(400, 'Query parameter taker is required')
  const taker = parsePubkey(takerText)
  if (!taker.ok) return badQueryParameter('taker', taker.reason)
  const maxText = query.get('maxAccounts')
  if (maxText !== null) {
    const parsed = parseQueryInteger(maxText)
    if (!parsed.ok) return badQueryParameter('maxAccounts', parsed.reason)
    if (parsed.value < 1n || parsed.value > BigInt(MAX_ACCOUNTS))
      return refuse(400, `maxAccounts must be 1 to ${MAX_ACCOUNTS}`)
  }
  // The quote's own parameters only: /build has no swapMode (ExactIn only) nor onlyDirectRoutes.
  const quoteQuery = parametersOf(query, ['inputMint', 'outputMint', 'amount', 'slippageBps'])
  const quoted = quoteFromQuery(world, quoteQuery)
  if (!quoted.ok) return quoted
  const quote = quoted.value
  const hops = findRoute(world.pools, quote.inputMint, quote.outputMint, BigInt(quote.inAmount), {
    onlyDirectRoutes: false,
  })!

  const instructions: Instruction[] = []
  const tables: Record<string, string[]> = {}
  for (const hop of hops) {
    const { table, addresses } = await world.lookupTableOf(hop.pool)
    tables[table] = addresses
    const payout = hop.inputMint === hop.pool.baseMint ? 'quote' : 'base'
    const [vault, program] =
      payout === 'base'
        ? [hop.pool.baseVault, hop.pool.baseTokenProgram]
        : [hop.pool.quoteVault, hop.pool.quoteTokenProgram]
    await world.admitPayoutSigner(vault, program, taker.value)
    instructions.push(
      ...(await swapInstructions({
        pool: hop.pool,
        user: address(taker.value),
        inputMint: hop.inputMint,
        amountIn: hop.quote.amountIn,
        amountOut: hop.quote.amountOut,
        operator: world.operator,
        payoutSigner: address(taker.value),
      })),
    )
  }
  // Jupiter's partition: what comes before the swap is setup, the last payout (the route's last
  // TransferChecked, out of a vault) is the swap, then cleanup (closing wrapped SOL).
  const swapIndex = lastIndexWhere(instructions, (instruction) => instruction.data?.[0] === TRANSFER_CHECKED)
  const after = instructions.slice(swapIndex + 1).map(toJson)
  const lifetime = world.chain.latestBlockhash()
  const now = Date.now()
  return ok({
    ...inV2Shape(quote),
    priceImpactPct: quote.priceImpactPct,
    computeBudgetInstructions: [toJson(setComputeUnitPrice(SANDBOX_COMPUTE_UNIT_PRICE))],
    setupInstructions: instructions.slice(0, swapIndex).map(toJson),
    swapInstruction: toJson(instructions[swapIndex]!),
    cleanupInstruction: after[0] ?? null,
    otherInstructions: after.slice(1),
    tipInstruction: null,
    addressesByLookupTableAddress: tables,
    blockhashWithMetadata: {
      blockhash: [...base58Decode(lifetime.blockhash)],
      lastValidBlockHeight: Number(lifetime.lastValidBlockHeight),
      fetchedAt: { secs_since_epoch: Math.floor(now / 1000), nanos_since_epoch: (now % 1000) * 1_000_000 },
    },
  })
}

/** ComputeBudget's SetComputeUnitPrice (discriminator 3, then the price in micro-lamports, u64 LE). */
function setComputeUnitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programAddress: address(COMPUTE_BUDGET_PROGRAM), accounts: [], data }
}

function lastIndexWhere<T>(items: readonly T[], matches: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (matches(items[index]!)) return index
  return -1
}

function toJson(instruction: Instruction): BuildInstruction {
  return {
    programId: instruction.programAddress,
    accounts: (instruction.accounts ?? []).map((account) => ({
      pubkey: account.address,
      isSigner: account.role === AccountRole.READONLY_SIGNER || account.role === AccountRole.WRITABLE_SIGNER,
      isWritable: account.role === AccountRole.WRITABLE || account.role === AccountRole.WRITABLE_SIGNER,
    })),
    data: Buffer.from(instruction.data ?? new Uint8Array()).toString('base64'),
  }
}
