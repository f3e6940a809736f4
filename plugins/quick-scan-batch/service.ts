/**
 * Batch quick scans, HTTP-free: what a request buys (its order: the distinct mints, those refused before
 * the payment, a wallet's holdings within its cap), counted once per request before the challenge and
 * read again by the handler; then each mint priced is scanned as `POST /scan/quick` scans it, under the
 * batch's deadline, and answered as that route answers it (docs/catalogue.md, "Batch scans").
 */
import type { Address } from '@solana/kit'
import type { ServiceContext } from '../../src/context.ts'
import { readAccountKind } from '../../src/facts/account-kind.ts'
import { refusalOf } from '../../src/facts/account-refusal.ts'
import { beforeDeadline } from '../../src/kernel/deadline.ts'
import { ApiError } from '../../src/kernel/errors.ts'
import { atomicUsdcToUsd, usdToAtomicUsdc } from '../../src/kernel/manifest.ts'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { QUICK_SCAN_DEADLINE_MS, QUICK_SCAN_POLICY } from '../../src/pipeline/policies.ts'
import { scanToken } from '../../src/pipeline/scan-token.ts'
import { CallMeter } from '../../src/sources/upstream.ts'
import { quickScanAnswer } from '../quick-scan/service.ts'
import { BATCH_UNIT_USD, type BatchAnswer, type BatchRequest, MAX_BATCH_MINTS } from './schemas.ts'

/**
 * How long the order's reads may take (the mints' accounts, a wallet's token accounts), in ms: the
 * single route's account check's bound (src/http/account-check.ts ACCOUNT_READ_MS). A mint whose
 * account could not be read in time is priced and scanned, as the single route goes on without knowing.
 */
const ORDER_READ_MS = 1_500

/**
 * Mints a batch scans per RPC call a second its provider allows: a quick scan makes about a dozen RPC
 * calls (several of them batched), so on a keyed provider's lowest plan (10 calls a second) five mints
 * answer as five single scans would within the quick scan's deadline, and ten already do not (measured:
 * `npm run bench -- batch --mints 10`, docs/catalogue.md "Batch scans"). A dedicated node paces nothing:
 * the manifest's 50.
 */
const MINTS_PER_RPC_CALL_PER_SECOND = 0.5

/**
 * The most mints one batch scans on this service: 50, or fewer on a provider that paces its calls, so
 * that every mint paid for is scanned as the single route scans it rather than starved by the others.
 */
export function batchCapacity(ctx: Pick<ServiceContext, 'sources'>): number {
  const limits = ctx.sources.solana?.provider.limits
  if (!limits || !Number.isFinite(limits.callsPerWindow)) return MAX_BATCH_MINTS
  const perSecond = (limits.callsPerWindow * 1_000) / limits.windowMs
  return Math.max(1, Math.min(MAX_BATCH_MINTS, Math.floor(perSecond * MINTS_PER_RPC_CALL_PER_SECOND)))
}

/** A refused item: the single route's error for that mint. */
interface Refused {
  code: string
  message: string
}

/** What a request buys, decided before its challenge and read again by its handler. */
export interface Order {
  /** The distinct mints asked for, in the order given (a wallet's: its holdings within the cap). */
  asked: string[]
  /** The mints the chain refused (no account, not a mint): answered as item errors, never charged. */
  refused: Map<string, Refused>
  /** The mints charged for and scanned: `asked` less `refused`. */
  priced: string[]
  duplicates: number
  wallet?: { wallet_address: string; max_usd: number; holdings: number; left_out: string[] }
}

/** Orders by validated body: the payment's count and the handler read the same one (one read each). */
const orders = new WeakMap<object, Promise<Order>>()

/**
 * The order of a validated request (memoised on its body): refuses a request that names neither mints
 * nor a wallet, or both (400), a wallet that is no wallet (422) and a wallet whose holdings cannot be
 * read (503), before any challenge.
 */
export function orderOf(ctx: ServiceContext, body: BatchRequest): Promise<Order> {
  let order = orders.get(body)
  if (!order) {
    order = readOrder(ctx, body)
    orders.set(body, order)
  }
  return order
}

/** How many mints a request is charged for: the route's count (its manifest's price per mint). */
export async function mintsCharged(body: BatchRequest, ctx: ServiceContext): Promise<number> {
  return (await orderOf(ctx, body)).priced.length
}

async function readOrder(ctx: ServiceContext, body: BatchRequest): Promise<Order> {
  const { token_addresses: mints, wallet_address: wallet, max_usd: maxUsd } = body
  if ((mints === undefined) === (wallet === undefined))
    throw new ApiError('INVALID_REQUEST', {
      message:
        'send either token_addresses (1 to 50 mints) or wallet_address with max_usd (every token the wallet holds, up to max_usd)',
    })
  if (mints !== undefined && maxUsd !== undefined)
    throw new ApiError('INVALID_REQUEST', {
      message: `max_usd goes with wallet_address: token_addresses are charged ${BATCH_UNIT_USD} USD per distinct mint`,
    })
  if (wallet !== undefined && maxUsd === undefined)
    throw new ApiError('INVALID_REQUEST', {
      message: `wallet_address needs max_usd: the most to spend (${BATCH_UNIT_USD} USD per token scanned)`,
    })
  const deadlineAt = Date.now() + ORDER_READ_MS
  const capacity = batchCapacity(ctx)
  if (mints !== undefined) {
    const asked = [...new Set(mints)]
    if (asked.length > capacity)
      throw new ApiError('INVALID_REQUEST', {
        message: `this service's Solana RPC (${ctx.sources.solana?.provider.label}) scans at most ${capacity} mints per batch within the quick scan's deadline: send ${capacity} or fewer and the rest in another batch; nothing was charged`,
        details: { max_mints: capacity },
      })
    return { ...(await refuseNonMints(ctx, asked, deadlineAt)), asked, duplicates: mints.length - asked.length }
  }
  const holdings = await holdingsOf(ctx, wallet!, deadlineAt)
  const affordable = unitsWithin(maxUsd!)
  const asked = holdings.slice(0, Math.min(affordable, capacity))
  return {
    asked,
    refused: new Map(),
    priced: asked,
    duplicates: 0,
    wallet: {
      wallet_address: wallet!,
      max_usd: maxUsd!,
      holdings: holdings.length,
      left_out: holdings.slice(asked.length),
    },
  }
}

/** How many mints `maxUsd` pays for at the batch's unit price, exactly (in atomic USDC). */
export function unitsWithin(maxUsd: number): number {
  const cap = BigInt(Math.floor(maxUsd * 1_000_000 + 1e-6))
  return Number(cap / BigInt(usdToAtomicUsdc(BATCH_UNIT_USD)))
}

/**
 * The mints of `asked` the chain says are no token (no account, a wallet, a token account, a program):
 * refused as the single route refuses them. One coalesced, cached read per mint (the scan's mint fact
 * reuses it); a mint the RPC could not say about in time is priced.
 */
async function refuseNonMints(
  ctx: ServiceContext,
  asked: string[],
  deadlineAt: number,
): Promise<Pick<Order, 'refused' | 'priced'>> {
  const solana = ctx.sources.solana
  const kinds = solana ? await Promise.all(asked.map((mint) => readAccountKind(solana, mint, deadlineAt))) : []
  const refused = new Map<string, Refused>()
  for (const [index, mint] of asked.entries()) {
    const kind = kinds[index]
    const refusal = kind && refusalOf('token_mint', 'token_addresses', mint, kind)
    if (refusal) refused.set(mint, { code: refusal.code, message: refusal.message })
  }
  return { refused, priced: asked.filter((mint) => !refused.has(mint)) }
}

/**
 * The distinct mints `wallet` holds a non-zero balance of, SPL Token and Token-2022, NFTs aside (one unit
 * of a mint of no decimals), by mint address (a stable order: the cap leaves out the same ones each time). The address must be a wallet (422
 * NOT_A_WALLET otherwise); holdings that cannot be read in time refuse the call (503), never charged.
 */
async function holdingsOf(ctx: ServiceContext, wallet: string, deadlineAt: number): Promise<string[]> {
  const solana = ctx.sources.solana
  if (!solana)
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message:
        'this service reads no Solana RPC (SOLANA_RPC_URL is not set), so a wallet’s holdings cannot be read: send token_addresses',
    })
  const kind = await readAccountKind(solana, wallet, deadlineAt)
  const refusal = kind && refusalOf('wallet', 'wallet_address', wallet, kind)
  if (refusal) throw refusal
  const meter = new CallMeter()
  try {
    const rpc = solana.rpc(meter)
    const read = (programId: Address) =>
      rpc
        .getTokenAccountsByOwner(wallet as Address, { programId }, { encoding: 'jsonParsed', commitment: 'confirmed' })
        .send()
    const answers = await beforeDeadline(
      Promise.all([read(TOKEN_PROGRAM_ADDRESS), read(TOKEN_2022_PROGRAM_ADDRESS)]),
      deadlineAt,
    )
    const held = new Set<string>()
    for (const { value } of answers)
      for (const { account } of value) {
        const info = (
          account.data as {
            parsed?: { info?: { mint?: string; tokenAmount?: { amount?: string; decimals?: number } } }
          }
        ).parsed?.info
        const amount = info?.tokenAmount?.amount ?? '0'
        // One indivisible unit is an NFT's signature: a collectible, not a position to grade.
        const nft = info?.tokenAmount?.decimals === 0 && amount === '1'
        if (info?.mint && /^[1-9]\d*$/.test(amount) && !nft) held.add(info.mint)
      }
    return [...held].sort()
  } catch (error) {
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message: `the token accounts of ${wallet} could not be read from the Solana RPC: nothing was charged; retry shortly`,
      cause: error,
    })
  } finally {
    meter.close()
  }
}

type QuickAnswer = ReturnType<typeof quickScanAnswer>

/** Quick answers being computed, per service: two batches naming one mint share its scan. */
const inFlight = new WeakMap<ServiceContext, Map<string, Promise<QuickAnswer>>>()

/**
 * The `/scan/quick` answer of `mint`, its facts stopping at `deadlineAt`: the single route's scan
 * (scanToken, the quick scan's policy) and answer (quickScanAnswer). A scan of the same mint already
 * running for another batch is joined; the sources' own caching and coalescing share the reads of one
 * running for the single route.
 */
function quickAnswerOf(ctx: ServiceContext, mint: string, deadlineAt: number): Promise<QuickAnswer> {
  const running = inFlight.get(ctx) ?? new Map<string, Promise<QuickAnswer>>()
  inFlight.set(ctx, running)
  const joined = running.get(mint)
  if (joined) return joined
  const scan = scanToken(ctx, mint, QUICK_SCAN_POLICY, deadlineAt)
    .then((result) => quickScanAnswer(mint, result))
    .finally(() => running.delete(mint))
  running.set(mint, scan)
  return scan
}

/**
 * The batch's answer: each mint priced scanned at once, each scan's facts stopping as the single
 * route's do (QUICK_SCAN_DEADLINE_MS after it starts) and at the batch's `deadlineAt` at the latest;
 * the refused mints as item errors. A batch none of whose priced mints could be scanned throws (503),
 * so its payment is released: nothing is settled for a call that answered nothing.
 */
export async function batchAnswer(
  ctx: ServiceContext,
  body: BatchRequest,
  deadlineAt: number,
): Promise<Omit<BatchAnswer, 'schema_version'>> {
  const order = await orderOf(ctx, body)
  const factsBy = Math.min(Date.now() + QUICK_SCAN_DEADLINE_MS, deadlineAt)
  const scans = await Promise.allSettled(order.priced.map((mint) => quickAnswerOf(ctx, mint, factsBy)))
  const scanned = new Map(order.priced.map((mint, index) => [mint, scans[index]!]))
  const results = order.asked.map((mint): BatchAnswer['results'][number] => {
    const refused = order.refused.get(mint)
    if (refused) return { token_address: mint, ok: false, error: { ...refused, charged: false } }
    const scan = scanned.get(mint)!
    if (scan.status === 'fulfilled') return { token_address: mint, ok: true, scan: scan.value }
    ctx.logger.warn({ err: scan.reason, mint }, 'batch item scan failed')
    return {
      token_address: mint,
      ok: false,
      error: { code: 'INTERNAL', message: 'the scan of this mint failed inside the service', charged: true },
    }
  })
  const answered = results.filter((item) => item.ok).length
  if (order.priced.length > 0 && answered === 0)
    throw new ApiError('UPSTREAM_UNAVAILABLE', {
      message: `none of the ${order.priced.length} mints could be scanned: nothing was charged; retry shortly`,
    })
  const unit = usdToAtomicUsdc(BATCH_UNIT_USD)
  return {
    results,
    requested: order.asked.length,
    answered,
    duplicates_ignored: order.duplicates,
    charged: {
      units: order.priced.length,
      unit_price_usd: BATCH_UNIT_USD,
      total_usd: atomicUsdcToUsd(BigInt(unit) * BigInt(order.priced.length)),
    },
    ...(order.wallet
      ? {
          wallet: {
            wallet_address: order.wallet.wallet_address,
            max_usd: order.wallet.max_usd,
            holdings: order.wallet.holdings,
            scanned: order.asked,
            left_out: order.wallet.left_out,
          },
        }
      : {}),
  }
}
