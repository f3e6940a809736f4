import {
  address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  type Address,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeAmmInfo } from '../src/onchain/raydium-amm-v4.ts'
import { decodeMetadata, findMetadataAddress } from '../src/onchain/metaplex-metadata.ts'
import { decodeBondingCurve, findBondingCurveAddress } from '../src/onchain/pump.ts'
import { decodePumpPool } from '../src/onchain/pump-amm.ts'
import {
  METEORA_DLMM_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  PUMP_PROGRAM_ADDRESS,
} from '../src/onchain/programs.ts'
import { startSandbox, type RunningSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import type { Pool } from '../sandbox/world/pool-book.ts'
import { REPLAYED_MINT, replayedMintDir } from './support/replayed-mint.ts'

const work = mkdtempSync(join(tmpdir(), 'solsentry-sandbox-'))
const accountsDir = join(work, 'accounts')
/** An account in the `solana account --output json` format: a classic Token mint (6 decimals, supply 42). */
const REPLAYED = REPLAYED_MINT

let sandbox: RunningSandbox
let rpc: Rpc<SolanaRpcApi>
/** Loosely typed expectations: kit's nominal types (Lamports, Address) do not matter to these checks. */
const check = (value: unknown) => expect<unknown>(value)

beforeAll(async () => {
  replayedMintDir(accountsDir)
  sandbox = await startSandbox(ephemeralSandboxOptions({ accountsDir, dataDir: join(work, 'data', 'sandbox') }))
  rpc = createSolanaRpc(sandbox.file.urls.rpc) as unknown as Rpc<SolanaRpcApi>
})

afterAll(async () => {
  await sandbox?.stop()
})

const mintOf = (name: string) => {
  const scenario = sandbox.file.scenarios.find((entry) => entry.name === name)
  if (!scenario) throw new Error(`no scenario ${name}`)
  return scenario.mint as Address
}
const poolsOf = (name: string): Pool[] => sandbox.world.pools.poolsOf(mintOf(name))

async function rawRpc(method: string, params: unknown[]) {
  const response = await fetch(sandbox.file.urls.rpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: any }).result
}

async function parsedMint(name: string) {
  return (await rawRpc('getAccountInfo', [mintOf(name), { encoding: 'jsonParsed' }])).value.data.parsed.info
}

async function accountData(address: string): Promise<Uint8Array> {
  const { value } = await rpc.getAccountInfo(address as Address, { encoding: 'base64' }).send()
  if (!value) throw new Error(`no account ${address}`)
  return new Uint8Array(Buffer.from(value.data[0], 'base64'))
}

/** Signatures touching `address`, oldest first, with their transactions. */
async function history(address: string) {
  const signatures = [...(await rpc.getSignaturesForAddress(address as Address).send())].reverse()
  return Promise.all(
    signatures.map(async (entry) => {
      const transaction = await rpc
        .getTransaction(entry.signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send()
      return { slot: entry.slot, feePayer: String(transaction!.transaction.message.accountKeys[0]) }
    }),
  )
}

describe('sandbox boot', () => {
  test('boots every scenario and writes world.json with the URLs, USDC mint and demo buyer', () => {
    expect(sandbox.file.scenarios.length).toBeGreaterThanOrEqual(12)
    const written = JSON.parse(readFileSync(sandbox.worldFilePath, 'utf8'))
    expect(written.scenarios.map((entry: { name: string }) => entry.name)).toEqual(
      sandbox.file.scenarios.map((entry) => entry.name),
    )
    expect(written.urls.rpc).toBe(sandbox.file.urls.rpc)
    expect(written.usdc_mint).toBe(mintOf('usdc-stablecoin'))
    for (const scenario of written.scenarios) {
      expect(scenario.description.length).toBeGreaterThan(20)
      expect(scenario.traits.length).toBeGreaterThan(0)
    }
    console.log(`sandbox boot: ${sandbox.bootMs} ms`)
  })

  test('the demo buyer keypair file is a Solana CLI keypair of the funded buyer', async () => {
    const bytes = new Uint8Array(JSON.parse(readFileSync(sandbox.file.buyer.keypair_path, 'utf8')))
    const signer = await createKeyPairSignerFromBytes(bytes)
    check(signer.address).toBe(sandbox.file.buyer.address)
    check((await rpc.getBalance(signer.address).send()).value >= 100_000_000_000n).toBe(true)
    const usdc = await rpc
      .getTokenAccountsByOwner(signer.address, { mint: mintOf('usdc-stablecoin') }, { encoding: 'base64' })
      .send()
    expect(usdc.value).toHaveLength(1)
  })

  test('world.json lists the anvil chain, its test USDC and a funded EVM buyer whose key controls the address', async () => {
    const written = JSON.parse(readFileSync(sandbox.worldFilePath, 'utf8'))
    expect(written.urls.anvil).toBe(sandbox.evm.url)
    expect(written.x402.base).toMatchObject({
      network: 'eip155:31337',
      asset: sandbox.evm.usdc,
      asset_domain: 'USD Coin,2',
      pay_to: sandbox.evm.treasury,
    })
    const chainId = await fetch(written.urls.anvil, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    expect(((await chainId.json()) as { result: string }).result).toBe('0x7a69')
    const { privateKeyToAccount } = await import('viem/accounts')
    expect(privateKeyToAccount(written.evm_buyer.private_key).address).toBe(written.evm_buyer.address)
    expect(await sandbox.evm.usdcBalance(written.evm_buyer.address)).toBe(1_000_000_000n)
    expect(sandbox.serviceSettings).toMatchObject({
      PAY_TO_BASE: sandbox.evm.treasury,
      BASE_PAYMENT_NETWORK: 'eip155:31337',
      BASE_PAYMENT_ASSET: sandbox.evm.usdc,
    })
  })

  test('a replayed account file reads back through the RPC', async () => {
    expect(sandbox.file.accounts_loaded).toEqual([REPLAYED.pubkey])
    const parsed = (await rawRpc('getAccountInfo', [REPLAYED.pubkey, { encoding: 'jsonParsed' }])).value
    expect(parsed.owner).toBe(REPLAYED.account.owner)
    expect(parsed.lamports).toBe(REPLAYED.account.lamports)
    expect(parsed.data.parsed).toMatchObject({
      type: 'mint',
      info: { supply: '42', decimals: 6, isInitialized: true, mintAuthority: null },
    })
  })

  test('the sandbox USDC faucet mints to any address', async () => {
    const someone = 'Someone111111111111111111111111111111111111'
    const signature = await rawRpc('requestUsdcAirdrop', [someone, 5_000_000])
    expect(typeof signature).toBe('string')
    const accounts = await rpc
      .getTokenAccountsByOwner(someone as Address, { mint: mintOf('usdc-stablecoin') }, { encoding: 'base64' })
      .send()
    const balance = await rpc.getTokenAccountBalance(accounts.value[0]!.pubkey).send()
    check(balance.value.amount).toBe('5000000')
  })
})

describe('scenario facts on the chain', () => {
  test('blue-chip: authorities revoked, 80+ holders, burned LP on a Raydium AMM v4 pool', async () => {
    expect(await parsedMint('blue-chip')).toMatchObject({ mintAuthority: null, freezeAuthority: null, decimals: 6 })
    const holders = await rpc
      .getProgramAccounts('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as Address, {
        encoding: 'base64',
        filters: [
          { dataSize: 165n },
          { memcmp: { offset: 0n, bytes: mintOf('blue-chip') as never, encoding: 'base58' } },
        ],
      })
      .send()
    expect(holders.length).toBeGreaterThanOrEqual(80)
    const [pool] = poolsOf('blue-chip')
    const info = decodeAmmInfo(await accountData(pool!.address))!
    expect(info.lpAmount).toBeGreaterThan(0n)
    check((await rpc.getTokenSupply(info.lpMint).send()).value.amount).toBe('0')
  })

  test('mint-authority-live and freeze-authority-live keep exactly that authority', async () => {
    const mintLive = await parsedMint('mint-authority-live')
    expect(mintLive.mintAuthority).not.toBeNull()
    expect(mintLive.freezeAuthority).toBeNull()
    const freezeLive = await parsedMint('freeze-authority-live')
    expect(freezeLive.mintAuthority).toBeNull()
    expect(freezeLive.freezeAuthority).not.toBeNull()
  })

  test("usdc-stablecoin: authorities live, registered in the sandbox's issuer registry, tagged as the real USDC", async () => {
    const usdc = await parsedMint('usdc-stablecoin')
    expect(usdc.mintAuthority).not.toBeNull()
    expect(usdc.freezeAuthority).not.toBeNull()
    const search = await fetch(`${sandbox.file.urls.jupiter}/tokens/v2/search?query=${mintOf('usdc-stablecoin')}`)
    const [token] = (await search.json()) as { tags: string[] }[]
    expect(token?.tags).toEqual(['community', 'strict', 'verified'])
    const registry = JSON.parse(readFileSync(sandbox.serviceSettings.ISSUER_REGISTRY, 'utf8'))
    expect(registry.entries).toEqual([
      expect.objectContaining({
        mint: mintOf('usdc-stablecoin'),
        mintAuthority: usdc.mintAuthority,
        freezeAuthority: usdc.freezeAuthority,
      }),
    ])
  })

  test('whale-concentrated: one wallet holds 70% of the supply', async () => {
    const largest = await rpc.getTokenLargestAccounts(mintOf('whale-concentrated')).send()
    const supply = BigInt((await rpc.getTokenSupply(mintOf('whale-concentrated')).send()).value.amount)
    expect((BigInt(largest.value[0]!.amount) * 100n) / supply).toBe(70n)
  })

  test('pump-bonding: an incomplete bonding curve at its PDA owned by the pump program, no AMM pool', async () => {
    const [curve] = await findBondingCurveAddress(mintOf('pump-bonding'))
    const { value } = await rpc.getAccountInfo(curve, { encoding: 'base64' }).send()
    check(value?.owner).toBe(PUMP_PROGRAM_ADDRESS)
    expect(decodeBondingCurve(await accountData(curve))).toMatchObject({ complete: false })
    expect(poolsOf('pump-bonding').map((pool) => pool.kind)).toEqual(['pump-curve'])
  })

  test('pump-graduated: the curve is complete and a PumpSwap pool holds the liquidity with its LP burned', async () => {
    const [curve] = await findBondingCurveAddress(mintOf('pump-graduated'))
    expect(decodeBondingCurve(await accountData(curve))).toMatchObject({ complete: true })
    const amm = poolsOf('pump-graduated').find((pool) => pool.kind === 'pumpswap')!
    const { value } = await rpc.getAccountInfo(amm.address as Address, { encoding: 'base64' }).send()
    check(value?.owner).toBe(PUMP_AMM_PROGRAM_ADDRESS)
    const pool = decodePumpPool(await accountData(amm.address))!
    expect(pool.lpSupply).toBeGreaterThan(0n)
    check((await rpc.getTokenSupply(pool.lpMint).send()).value.amount).toBe('0')
  })

  test('bundled-launch: six buys in the pool creation slot, from wallets the creator funded', async () => {
    const [pool] = poolsOf('bundled-launch')
    const events = await history(pool!.address)
    const creationSlot = events[0]!.slot
    const buyersInSlot = new Set(events.filter((event) => event.slot === creationSlot).map((event) => event.feePayer))
    const creator = (await history(mintOf('bundled-launch')))[0]!.feePayer
    buyersInSlot.delete(creator)
    expect(buyersInSlot.size).toBe(6)
    for (const buyer of buyersInSlot) {
      const [funding] = await history(buyer)
      expect(funding!.feePayer).toBe(creator)
    }
  })

  test('sniped-launch: ten or more distinct wallets buy within three slots of the pool opening', async () => {
    const [pool] = poolsOf('sniped-launch')
    const events = await history(pool!.address)
    const opened = events[0]!.slot
    const early = new Set(
      events.filter((event) => event.slot > opened && event.slot <= opened + 3n).map((event) => event.feePayer),
    )
    expect(early.size).toBeGreaterThanOrEqual(10)
  })

  test('wash-traded: four wallets with one funder make most of the trades', async () => {
    const [pool] = poolsOf('wash-traded')
    const trades = sandbox.world.pools.tradesOf(pool!.address)
    const byWallet = new Map<string, number>()
    for (const trade of trades) byWallet.set(trade.wallet, (byWallet.get(trade.wallet) ?? 0) + 1)
    const top = [...byWallet.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4)
    expect(top.reduce((sum, [, count]) => sum + count, 0)).toBe(90)
    const funders = new Set(await Promise.all(top.map(async ([wallet]) => (await history(wallet))[0]!.feePayer)))
    expect(funders.size).toBe(1)
  })

  test('serial-rugger: the developer created three earlier tokens whose liquidity it pulled', async () => {
    const creator = (await history(mintOf('serial-rugger')))[0]!.feePayer
    const earlier = sandbox.world.pools
      .all()
      .filter((pool) => pool.baseMint !== mintOf('serial-rugger'))
      .filter((pool) => sandbox.world.tokens.get(pool.baseMint)?.symbol.startsWith('SAFE'))
    expect(earlier).toHaveLength(3)
    for (const pool of earlier) {
      // 98% of both reserves left the pool in one withdrawal by the developer.
      expect(sandbox.world.pools.realReserves(pool).quote).toBeLessThan(2_000_000_000n)
      const mintHistory = await history(pool.baseMint)
      expect(mintHistory[0]!.feePayer).toBe(creator)
    }
  })

  test('clmm-pool and dlmm-pool trade only on concentrated-liquidity venues, with no LP mint', async () => {
    const [clmm] = poolsOf('clmm-pool')
    const [dlmm] = poolsOf('dlmm-pool')
    expect((await rpc.getAccountInfo(clmm!.address as Address, { encoding: 'base64' }).send()).value?.owner).toBe(
      ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
    )
    expect((await rpc.getAccountInfo(dlmm!.address as Address, { encoding: 'base64' }).send()).value?.owner).toBe(
      METEORA_DLMM_PROGRAM_ADDRESS,
    )
    expect([clmm!.lpMint, dlmm!.lpMint]).toEqual([undefined, undefined])
  })

  test('hostile-token-2022: every hostile extension is on the mint, as the RPC parses it', async () => {
    const mint = (await rawRpc('getAccountInfo', [mintOf('hostile-token-2022'), { encoding: 'jsonParsed' }])).value.data
    expect(mint.program).toBe('spl-token-2022')
    const extensions = Object.fromEntries(
      (mint.parsed.info.extensions as { extension: string; state?: any }[]).map((entry) => [
        entry.extension,
        entry.state,
      ]),
    )
    expect(extensions.permanentDelegate.delegate).toBeString()
    expect(extensions.transferFeeConfig.newerTransferFee.transferFeeBasisPoints).toBe(1000)
    expect(extensions.transferHook.programId).toBe('HooKAbsentProgram11111111111111111111111111')
    expect(extensions.defaultAccountState.accountState).toBe('frozen')
    expect(extensions.mintCloseAuthority.closeAuthority).toBeString()
    expect(extensions.tokenMetadata.symbol).toBe('TRAP')
  })

  test('rug-ready: every lever live and at rest, the developer holding all the LP of its PumpSwap pool', async () => {
    const mint = (await rawRpc('getAccountInfo', [mintOf('rug-ready'), { encoding: 'jsonParsed' }])).value.data
    expect(mint.program).toBe('spl-token-2022')
    const dev = mint.parsed.info.mintAuthority as string
    expect(mint.parsed.info.freezeAuthority).toBe(dev)
    const extensions = Object.fromEntries(
      (mint.parsed.info.extensions as { extension: string; state?: any }[]).map((entry) => [
        entry.extension,
        entry.state,
      ]),
    )
    expect(extensions.transferFeeConfig.transferFeeConfigAuthority).toBe(dev)
    expect(extensions.transferFeeConfig.newerTransferFee.transferFeeBasisPoints).toBe(0)
    expect(extensions.transferHook).toEqual({ authority: dev, programId: null })
    expect(extensions.permanentDelegate.delegate).toBe(dev)
    expect(extensions.defaultAccountState.accountState).toBe('initialized')
    expect(extensions.pausableConfig).toEqual({ authority: dev, paused: false })
    expect(extensions.tokenMetadata).toMatchObject({ updateAuthority: dev, symbol: 'BOAT' })
    const pool = poolsOf('rug-ready')[0]!
    expect(pool.kind).toBe('pumpswap')
    const lp = await rpc.getTokenLargestAccounts(address(pool.lpMint!)).send()
    const supply = (await rpc.getTokenSupply(address(pool.lpMint!)).send()).value.amount
    const top = (await rawRpc('getAccountInfo', [lp.value[0]!.address, { encoding: 'jsonParsed' }])).value.data
    expect(top.parsed.info).toMatchObject({ owner: dev, tokenAmount: { amount: supply } })
  })

  test("fake-stablecoin: the sandbox USDC's symbol and name on another mint, freeze authority live, its own pool, unverified", async () => {
    const metadataOf = async (name: string) => {
      const [pda] = await findMetadataAddress(mintOf(name))
      return decodeMetadata(await accountData(pda))!.data
    }
    const [fake, real] = await Promise.all([metadataOf('fake-stablecoin'), metadataOf('usdc-stablecoin')])
    expect({ name: fake.name, symbol: fake.symbol }).toEqual({ name: real.name, symbol: real.symbol })
    expect(mintOf('fake-stablecoin')).not.toBe(mintOf('usdc-stablecoin'))
    const mint = await parsedMint('fake-stablecoin')
    expect(mint.freezeAuthority).not.toBeNull()
    expect(mint.mintAuthority).toBeNull()
    const [pool] = poolsOf('fake-stablecoin')
    expect(pool).toMatchObject({ baseMint: mintOf('fake-stablecoin'), kind: 'raydium-amm-v4' })
    const search = await fetch(`${sandbox.file.urls.jupiter}/tokens/v2/search?query=usdc`)
    const found = (await search.json()) as { id: string; isVerified: boolean }[]
    // The token list finds both by the ticker first, the verified one first; the copy is not verified.
    expect(found.slice(0, 2).map((token) => [token.id, token.isVerified])).toEqual([
      [mintOf('usdc-stablecoin'), true],
      [mintOf('fake-stablecoin'), false],
    ])
    const written = JSON.parse(readFileSync(sandbox.worldFilePath, 'utf8'))
    const scenario = written.scenarios.find((entry: { name: string }) => entry.name === 'fake-stablecoin')
    expect(scenario.traits).toContain('impersonation')
  })

  test('dead-token: its last trade is twelve days old and its pool holds dust', async () => {
    const [pool] = poolsOf('dead-token')
    const [latest] = await rpc.getSignaturesForAddress(pool!.address as Address, { limit: 1 }).send()
    const ageDays = (Date.now() / 1000 - Number(latest!.blockTime)) / 86_400
    expect(ageDays).toBeGreaterThan(11.9)
    expect(sandbox.world.pools.realReserves(pool!).quote).toBeLessThan(500_000_000n)
  })
})

describe('market and aggregator agree with the chain', () => {
  test('DexScreener h24 counts equal the pool trades of the last 24 hours', async () => {
    const [pool] = poolsOf('blue-chip')
    const response = await fetch(`${sandbox.file.urls.dexscreener}/tokens/v1/solana/${mintOf('blue-chip')}`)
    const [pair] = (await response.json()) as { pairAddress: string; txns: { h24: { buys: number; sells: number } } }[]
    const since = sandbox.world.chain.unixS - 86_400
    const trades = sandbox.world.pools.tradesOf(pool!.address).filter((trade) => trade.unixS > since)
    expect(pair?.pairAddress).toBe(pool!.address)
    expect(pair!.txns.h24.buys + pair!.txns.h24.sells).toBe(trades.length)
  })

  test('a Jupiter quote for SOL→blue-chip routes through its pool', async () => {
    const quote = await fetch(
      `${sandbox.file.urls.jupiter}/swap/v1/quote?inputMint=So11111111111111111111111111111111111111112&outputMint=${mintOf('blue-chip')}&amount=1000000000&slippageBps=50`,
    )
    const body = (await quote.json()) as { outAmount: string; routePlan: { swapInfo: { ammKey: string } }[] }
    expect(body.routePlan[0]?.swapInfo.ammKey).toBe(poolsOf('blue-chip')[0]!.address)
    expect(BigInt(body.outAmount)).toBeGreaterThan(0n)
  })
})
