import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { address, createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit'
import { startSandbox, type RunningSandbox } from '../index.ts'
import { ephemeralSandboxOptions } from '../options.ts'
import { runToEnd } from '../../test/support/run.ts'
import { RUG_CONTROL_PATH } from './index.ts'

// The rug controls (issue 34's sandbox groundwork): each event runs as transactions on the sandbox chain
// signed by the scenario's own keys, and what the chain, the market and the aggregator show changes.

let sandbox: RunningSandbox
let rpc: Rpc<SolanaRpcApi>
const mintOf = (name: string) => sandbox.file.scenarios.find((scenario) => scenario.name === name)!.mint

beforeAll(async () => {
  sandbox = await startSandbox(ephemeralSandboxOptions())
  rpc = createSolanaRpc(sandbox.file.urls.rpc)
})
afterAll(() => sandbox.stop())

type Parsed = { parsed: { info: Record<string, unknown> & { extensions?: { extension: string; state: unknown }[] } } }
async function parsedAccount(key: string): Promise<Parsed['parsed']['info']> {
  const { value } = await rpc.getAccountInfo(address(key), { encoding: 'jsonParsed' }).send()
  return (value!.data as unknown as Parsed).parsed.info
}
async function extensionState(mint: string, name: string) {
  return (await parsedAccount(mint)).extensions!.find((entry) => entry.extension === name)!.state
}
async function liquidityUsd(mint: string): Promise<number> {
  const response = await fetch(`${sandbox.file.urls.dexscreener}/token-pairs/v1/solana/${mint}`)
  const pairs = (await response.json()) as { liquidity?: { usd?: number } }[]
  return Math.max(...pairs.map((pair) => pair.liquidity?.usd ?? 0))
}
async function priceNative(mint: string): Promise<number> {
  const response = await fetch(`${sandbox.file.urls.dexscreener}/token-pairs/v1/solana/${mint}`)
  const pairs = (await response.json()) as { priceNative: string }[]
  return Number(pairs[0]!.priceNative)
}
async function sellQuote(mint: string, amount: bigint) {
  const query = new URLSearchParams({ inputMint: mint, outputMint: sandbox.file.usdc_mint, amount: String(amount) })
  const response = await fetch(`${sandbox.file.urls.jupiter}/swap/v1/quote?${query}`)
  return { status: response.status, body: (await response.json()) as { errorCode?: string; outAmount?: string } }
}
async function postRug(body: unknown) {
  const response = await fetch(`${sandbox.file.urls.rpc}${RUG_CONTROL_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe('rug controls on rug-ready, the developer holding every lever', () => {
  test('pull-liquidity removes the share asked for: the reserves and the market liquidity fall', async () => {
    const mint = mintOf('rug-ready')
    const liquidityBefore = await liquidityUsd(mint)
    const outcome = await sandbox.rugs['pull-liquidity'](mint, { percent: 80 })
    const stored = sandbox.world.chain.getTransaction(outcome.signature)!
    expect(stored.slot).toBe(outcome.slot)
    expect(stored.meta.err).toBeNull()
    const before = BigInt(outcome.before.quote_reserve as string)
    const after = BigInt(outcome.after.quote_reserve as string)
    expect(after).toBe(before - (before * 80n) / 100n)
    expect(BigInt(outcome.after.lp_held as string)).toBeLessThan(BigInt(outcome.before.lp_held as string))
    expect(await liquidityUsd(mint)).toBeLessThan(liquidityBefore * 0.25)
    // A withdrawal names its pool, as a venue's does: the pool's history (and a logsSubscribe
    // {mentions: [pool]}, which reads the same account keys) sees it.
    const history = await rpc.getSignaturesForAddress(address(outcome.before.pool as string), { limit: 5 }).send()
    expect(history.map((entry) => entry.signature)).toContain(outcome.signature as never)
  })

  test("developer-dump sells half the developer's holding through the pool: a trade the pool book reads", async () => {
    const mint = mintOf('rug-ready')
    const priceBefore = await priceNative(mint)
    const outcome = await sandbox.rugs['developer-dump'](mint, { percent: 50 })
    expect(await priceNative(mint)).toBeLessThan(priceBefore / 2)
    const held = BigInt(outcome.before.holding as string)
    expect(BigInt(outcome.after.holding as string)).toBe(held - held / 2n)
    expect(BigInt(outcome.after.base_reserve as string)).toBeGreaterThan(BigInt(outcome.before.base_reserve as string))
    const trade = sandbox.world.pools.tradesOf(outcome.after.pool as string).at(-1)!
    expect(trade).toMatchObject({ signature: outcome.signature, side: 'sell', wallet: outcome.before.developer })
  })

  test("permanent-delegate-transfer moves a holder's tokens with the delegate's signature alone", async () => {
    const mint = mintOf('rug-ready')
    const outcome = await sandbox.rugs['permanent-delegate-transfer'](mint)
    expect(BigInt(outcome.before.amount as string)).toBeGreaterThan(0n)
    const info = await parsedAccount(outcome.after.account as string)
    expect((info.tokenAmount as { amount: string }).amount).toBe('0')
    const signers = sandbox.world.chain.getTransaction(outcome.signature)!.accountKeys[0]
    expect(signers).not.toBe(outcome.before.owner)
  })

  test("freeze freezes a holder's account", async () => {
    const mint = mintOf('rug-ready')
    const outcome = await sandbox.rugs.freeze(mint)
    expect(outcome.before.state).toBe('initialized')
    expect((await parsedAccount(outcome.after.account as string)).state).toBe('frozen')
  })

  test('mint-more raises the supply, then set-mint-authority revokes the authority', async () => {
    const mint = mintOf('rug-ready')
    const supplyBefore = (await rpc.getTokenSupply(address(mint)).send()).value.amount
    const minted = await sandbox.rugs['mint-more'](mint, { amount: '5000000000000' })
    expect(BigInt((await rpc.getTokenSupply(address(mint)).send()).value.amount)).toBe(
      BigInt(supplyBefore) + 5_000_000_000_000n,
    )
    expect(minted.after.supply).toBe(String(BigInt(supplyBefore) + 5_000_000_000_000n))
    const revoked = await sandbox.rugs['set-mint-authority'](mint)
    expect(revoked.before.mint_authority).not.toBeNull()
    expect((await parsedAccount(mint)).mintAuthority).toBeNull()
  })

  test('raise-transfer-fee and set-default-account-state change the mint as jsonParsed shows it', async () => {
    const mint = mintOf('rug-ready')
    const raised = await sandbox.rugs['raise-transfer-fee'](mint, { bps: 3_000 })
    expect(raised.before.transfer_fee_bps).toBe(0)
    const fee = (await extensionState(mint, 'transferFeeConfig')) as {
      newerTransferFee: { transferFeeBasisPoints: number }
    }
    expect(fee.newerTransferFee.transferFeeBasisPoints).toBe(3_000)
    await sandbox.rugs['set-default-account-state'](mint)
    expect(await extensionState(mint, 'defaultAccountState')).toEqual({ accountState: 'frozen' })
  })

  test('rename rewrites the Token-2022 metadata to impersonate USDC, in real UpdateField instructions', async () => {
    const mint = mintOf('rug-ready')
    const outcome = await sandbox.rugs.rename(mint)
    expect(outcome.before).toMatchObject({ name: 'Lifeboat', symbol: 'BOAT' })
    expect(await extensionState(mint, 'tokenMetadata')).toMatchObject({ name: 'USD Coin', symbol: 'USDC' })
    expect(outcome.stateWritten).toBeUndefined()
  })

  test('pause stops every transfer (a sell of the developer fails on chain) until resume', async () => {
    const mint = mintOf('rug-ready')
    await sandbox.rugs.pause(mint)
    expect(await extensionState(mint, 'pausableConfig')).toMatchObject({ paused: true })
    await expect(sandbox.rugs['developer-dump'](mint, { percent: 1 })).rejects.toThrow()
    await sandbox.rugs.resume(mint)
    expect((await sandbox.rugs['developer-dump'](mint, { percent: 1 })).signature).toBeString()
  })

  test('set-transfer-hook points transfers at a program that is not there: the next sell fails', async () => {
    const mint = mintOf('rug-ready')
    const hook = await sandbox.rugs['set-transfer-hook'](mint)
    expect(hook.before.program_id).toBeNull()
    expect(((await extensionState(mint, 'transferHook')) as { programId: string }).programId).toBe(
      hook.after.program_id as string,
    )
    await expect(sandbox.rugs['developer-dump'](mint, { percent: 1 })).rejects.toThrow()
  })
})

describe('rug controls on the other scenarios', () => {
  test('fail-sell-route freezes the pool vault: the aggregator quoted the sell, now it finds no route', async () => {
    const mint = mintOf('freeze-authority-live')
    const before = await sellQuote(mint, 1_000_000_000n)
    expect(before.status).toBe(200)
    const outcome = await sandbox.rugs['fail-sell-route'](mint)
    expect(outcome.after.state).toBe('frozen')
    const after = await sellQuote(mint, 1_000_000_000n)
    expect(after.status).toBe(400)
    expect(after.body.errorCode).toBe('COULD_NOT_FIND_ANY_ROUTE')
  })

  test('rename of a classic token rewrites its Metaplex metadata (a documented state write) in a real transaction', async () => {
    const mint = mintOf('mint-authority-live')
    const outcome = await sandbox.rugs.rename(mint, { name: 'USD Coin', symbol: 'USDC' })
    expect(outcome.after).toMatchObject({ name: 'USD Coin', symbol: 'USDC' })
    expect(outcome.stateWritten).toContain('Metaplex')
    expect(sandbox.world.chain.getTransaction(outcome.signature)!.meta.err).toBeNull()
  })

  test('locked LP cannot be pulled until unlock-lp moves it out of the escrow', async () => {
    const mint = mintOf('locked-lp')
    await expect(sandbox.rugs['pull-liquidity'](mint)).rejects.toThrow(/locked in an escrow/)
    const unlocked = await sandbox.rugs['unlock-lp'](mint)
    expect(unlocked.after.locked).toBe('0')
    const pulled = await sandbox.rugs['pull-liquidity'](mint, { percent: 95 })
    expect(pulled.before.provider).toBe(unlocked.after.released_to)
  })

  test('burned LP cannot be pulled, a revoked authority cannot be used', async () => {
    await expect(sandbox.rugs['pull-liquidity'](mintOf('mint-authority-live'))).rejects.toThrow(/burned/)
    await expect(sandbox.rugs['mint-more'](mintOf('locked-lp'))).rejects.toThrow(/revoked/)
  })
})

describe('POST /sandbox/rug', () => {
  test('runs an event and answers what it did, the slot as a number', async () => {
    const mint = mintOf('serial-rugger')
    const { status, body } = await postRug({ event: 'developer-dump', mint, percent: 10 })
    expect(status).toBe(200)
    expect(body).toMatchObject({ event: 'developer-dump', mint })
    expect(typeof body.slot).toBe('number')
    expect(sandbox.world.chain.getTransaction(body.signature)!.slot).toBe(BigInt(body.slot))
  })

  test.each([
    [{ event: 'drain-everything', mint: 'x' }, 400, 'UNKNOWN_EVENT'],
    [{ event: 'pull-liquidity' }, 400, 'INVALID_PARAMS'],
    [{ event: 'pull-liquidity', mint: '11111111111111111111111111111111', percent: 150 }, 400, 'INVALID_PARAMS'],
    [{ event: 'pull-liquidity', mint: '11111111111111111111111111111111' }, 404, 'UNKNOWN_MINT'],
    [['pull-liquidity'], 400, 'INVALID_PARAMS'],
  ])('%j is refused with %d %s', async (request, status, code) => {
    const answer = await postRug(request)
    expect(answer.status).toBe(status)
    expect(answer.body.error.code).toBe(code)
    expect(typeof answer.body.error.message).toBe('string')
  })

  test('a body that is not JSON is refused with a JSON error; GET lists the events', async () => {
    const response = await fetch(`${sandbox.file.urls.rpc}${RUG_CONTROL_PATH}`, { method: 'POST', body: 'rug!' })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_JSON')
    const listed = (await (await fetch(`${sandbox.file.urls.rpc}${RUG_CONTROL_PATH}`)).json()) as {
      events: { event: string }[]
    }
    expect(listed.events.map((entry) => entry.event)).toContain('pull-liquidity')
  })
})

describe('npm run rug', () => {
  const cli = (...args: string[]) =>
    runToEnd(['bun', 'sandbox/rugs/cli.ts', ...args, '--world', sandbox.worldFilePath], process.env)

  test('fires an event on the running sandbox and prints its transaction, before and after', async () => {
    const mint = mintOf('whale-concentrated')
    const supply = sandbox.world.mintState(mint).supply
    const run = await cli('developer-dump', mint, '--percent', '5')
    expect(run.code).toBe(0)
    const signature = /transaction (\w+) in slot (\d+)/.exec(run.stdout)!
    expect(sandbox.world.chain.getTransaction(signature[1]!)!.slot).toBe(BigInt(signature[2]!))
    expect(run.stdout).toContain('before: {"developer"')
    expect(sandbox.world.mintState(mint).supply).toBe(supply)
  })

  test('an unknown event exits 1 with the refusal; list names the events', async () => {
    const refused = await cli('drain', mintOf('whale-concentrated'))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('UNKNOWN_EVENT')
    const listed = await cli('list')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('fail-sell-route')
  })
})
