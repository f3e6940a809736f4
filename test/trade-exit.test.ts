import { describe, expect, test } from 'bun:test'
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { wrapFetchWithPayment } from '@x402/fetch'
import { demoPayer } from '../sandbox/demo-client.ts'
import { mainPool } from '../sandbox/rugs/chain-view.ts'
import { NATIVE_MINT } from '../sandbox/world/swap.ts'
import { exitFor, type AlertExit } from '../plugins/trade/service.ts'
import { liveService } from './support/live.ts'
import { SWAP_API_SETTINGS } from './support/swap-api.ts'
import { chainBalances, signLocally } from './support/wallet.ts'

// An exit ready to sign (issue 34 §4; docs/trade.md): built for a holder by the trade's service, signed
// locally with the holder's key as a wallet would, executed through POST /trade/execute with its fee paid
// by the official x402 client on the EVM rail (so the holder's Solana balances move only by the swap).
// On the service's swap API (v2's /build) unless JUPITER_SWAP_API=v1 runs the file on v1: it passes on both.
const { sandbox, ctx, running, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000', ...SWAP_API_SETTINGS })
const payingFetch = wrapFetchWithPayment(fetch, (await demoPayer(sandbox.file, 'base')).client)
const USDC = sandbox.file.x402.solana.asset
/** The service's fee wallet on the EVM rail: what an execute charges. */
const feesTaken = () => sandbox.evm.usdcBalance(sandbox.file.x402.base.pay_to as `0x${string}`)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const { tokensOf } = chainBalances(sandbox.file.urls.rpc)

/** A fresh holder of `mint`: a wallet with SOL that bought `sol` of the token on its main pool, on chain. */
async function holderOf(mint: string, sol = 1): Promise<KeyPairSigner> {
  const wallet = await generateKeyPairSigner()
  await sandbox.world.faucet.airdrop(wallet.address, 5_000_000_000n)
  await sandbox.world.swap(wallet, mainPool(sandbox.world, mint), NATIVE_MINT, BigInt(sol * 1_000_000_000))
  expect(await tokensOf(wallet.address, mint)).toBeGreaterThan(0n)
  return wallet
}

function execute(body: unknown) {
  return payingFetch(`${running.url}/trade/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

function ready(exit: AlertExit): Extract<AlertExit, { status: 'READY' }> {
  if (exit.status !== 'READY') throw new Error(`no exit: ${exit.status} ${exit.code}: ${exit.reason}`)
  return exit
}

/** Builds the holder's exit, signs it, executes it; the balances before and after, read on chain. */
async function exitAndExecute(mint: string, holder: KeyPairSigner) {
  const before = { token: await tokensOf(holder.address, mint), usdc: await tokensOf(holder.address, USDC) }
  const exit = ready(await exitFor(ctx, { mint, user_public_key: holder.address, slippage_bps: 300 }))
  const executed = await execute({
    job_id: exit.job_id,
    signed_transaction_b64: await signLocally(exit.transaction, holder),
  })
  const answer = (await executed.json()) as Json
  const after = { token: await tokensOf(holder.address, mint), usdc: await tokensOf(holder.address, USDC) }
  return { exit, status: executed.status, answer, before, after }
}

describe('an exit ready to sign, executed through /trade/execute', () => {
  test('blue-chip: the whole holding sold to USDC, signed by the holder, CONFIRMED; the token left, the USDC arrived, the fee charged once', async () => {
    const mint = mintOf('blue-chip')
    const holder = await holderOf(mint)
    const feesBefore = await feesTaken()
    const { exit, status, answer, before, after } = await exitAndExecute(mint, holder)
    expect(exit).toMatchObject({
      status: 'READY',
      quote: { input_mint: mint, output_mint: USDC, in_amount: before.token.toString() },
      exit_rating: 'CLEAN',
    })
    expect(exit.valid_until.last_valid_block_height).toBeGreaterThan(0)
    expect(Date.parse(exit.valid_until.estimated_at!)).toBeGreaterThan(Date.now())
    expect(status).toBe(200)
    expect(answer).toMatchObject({ job_id: exit.job_id, status: 'CONFIRMED' })
    expect(after.token).toBe(0n)
    expect(after.usdc - before.usdc).toBeGreaterThanOrEqual(BigInt(exit.quote.min_out_amount))
    // The same fee as any trade, charged on confirmation (docs/trade.md).
    expect((await feesTaken()) - feesBefore).toBe(150_000n)
    const job = (await (await fetch(`${running.url}/trade/status/${exit.job_id}`)).json()) as Json
    expect(job).toMatchObject({
      status: 'CONFIRMED',
      request: { input_mint: mint, output_mint: USDC, user_public_key: holder.address },
      risk_gate: { reasons: [{ code: 'EXIT' }] },
      fee: { status: 'settled', amount: '150000' },
    })
  })

  test("rug-ready after raise-transfer-fee: the exit still builds (the gate aside), the holder's tokens leave, USDC arrives", async () => {
    const mint = mintOf('rug-ready')
    const holder = await holderOf(mint)
    await sandbox.rugs['raise-transfer-fee'](mint, { bps: 2_500 })
    const { exit, status, answer, before, after } = await exitAndExecute(mint, holder)
    expect(exit.quote.in_amount).toBe(before.token.toString())
    // Token-2022 applies a raised fee two epochs on: the exit sold now still pays the old one (rated as it costs now).
    expect(exit.exit_rating).toBe('CLEAN')
    expect(status).toBe(200)
    expect(answer).toMatchObject({ status: 'CONFIRMED' })
    expect(after.token).toBe(0n)
    expect(after.usdc).toBeGreaterThan(before.usdc)
  })

  test('a sale the trade refuses for its price impact (the liquidity pulled): the exit still builds, the impact reported', async () => {
    const mint = mintOf('bundled-launch')
    const holder = await holderOf(mint, 3)
    await sandbox.rugs['pull-liquidity'](mint, { percent: 95 })
    const amount = (await tokensOf(holder.address, mint)).toString()
    const traded = await fetch(`${running.url}/trade/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input_mint: mint, output_mint: USDC, amount_in: amount, user_public_key: holder.address }),
    })
    expect(traded.status).toBe(422)
    expect(await traded.json()).toMatchObject({ status: 'REJECTED_PRICE_IMPACT' })
    const exit = ready(await exitFor(ctx, { mint, user_public_key: holder.address }))
    expect(exit.quote.in_amount).toBe(amount)
    expect(exit.quote.price_impact_pct).toBeGreaterThan(15)
    expect(exit.exit_rating).toBe('PUNITIVE')
  })
})

describe('an exit that cannot be built says why, never throws', () => {
  test('a holder with nothing left: NOTHING_HELD, no job', async () => {
    const wallet = await generateKeyPairSigner()
    const exit = await exitFor(ctx, { mint: mintOf('blue-chip'), user_public_key: wallet.address })
    expect(exit).toMatchObject({ status: 'NOTHING_HELD', code: 'NOTHING_HELD', job_id: null, exit_rating: null })
  })

  test('a paused mint: BLOCKED by PAUSED, no transaction that could only fail, no job; resumed, the exit builds again', async () => {
    const mint = mintOf('rug-ready')
    const holder = await holderOf(mint)
    await sandbox.rugs.pause(mint)
    const exit = await exitFor(ctx, { mint, user_public_key: holder.address })
    expect(exit).toMatchObject({ status: 'BLOCKED', code: 'PAUSED', job_id: null, exit_rating: 'BLOCKED' })
    await sandbox.rugs.resume(mint)
    expect((await exitFor(ctx, { mint, user_public_key: holder.address })).status).toBe('READY')
  })

  test('a holder whose account the freeze authority froze: FROZEN, rated BLOCKED, no job', async () => {
    const mint = mintOf('rug-ready')
    const holder = await holderOf(mint)
    await sandbox.rugs.freeze(mint, { holder: holder.address })
    const exit = await exitFor(ctx, { mint, user_public_key: holder.address })
    expect(exit).toMatchObject({ status: 'FROZEN', code: 'FROZEN', job_id: null, exit_rating: 'BLOCKED' })
  })

  test('after fail-sell-route: NO_ROUTE, rated BLOCKED, with the rejected job', async () => {
    const mint = mintOf('rug-ready')
    const holder = await holderOf(mint)
    await sandbox.rugs['fail-sell-route'](mint)
    const exit = await exitFor(ctx, { mint, user_public_key: holder.address })
    expect(exit).toMatchObject({ status: 'NO_ROUTE', code: 'NO_ROUTE', exit_rating: 'BLOCKED' })
    const job = (await (await fetch(`${running.url}/trade/status/${(exit as Json).job_id}`)).json()) as Json
    expect(job).toMatchObject({ status: 'REJECTED_NO_ROUTE', rejection: { code: 'NO_ROUTE' } })
  })

  test('an exit executed after its blockhash expired: FAILED BLOCKHASH_EXPIRED, refundable, no fee', async () => {
    const mint = mintOf('blue-chip')
    const holder = await holderOf(mint)
    const exit = ready(await exitFor(ctx, { mint, user_public_key: holder.address }))
    const signed = await signLocally(exit.transaction, holder)
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    const feesBefore = await feesTaken()
    const executed = await execute({ job_id: exit.job_id, signed_transaction_b64: signed })
    expect(executed.status).toBe(422)
    expect(await executed.json()).toMatchObject({
      status: 'FAILED',
      rejection: { code: 'BLOCKHASH_EXPIRED', refundable: true },
    })
    expect(await feesTaken()).toBe(feesBefore)
    expect(await tokensOf(holder.address, mint)).toBe(BigInt(exit.quote.in_amount))
  })
})
