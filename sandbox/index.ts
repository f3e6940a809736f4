import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { getCreateAssociatedTokenIdempotentInstruction, getMintToCheckedInstruction } from '@solana-program/token'
import { handleBridgeRequest } from './bridge/quote.ts'
import { handleModelRequest, SANDBOX_LLM_KEY, SANDBOX_MODEL } from './model/server.ts'
import { ECOSYSTEM } from './news/posts.ts'
import { handleNewsRequest, SANDBOX_FEEDS, SANDBOX_X_TOKEN } from './news/server.ts'
import { LaunchTicker } from './ticker.ts'
import { handleAggregatorRequest } from './aggregator/server.ts'
import { SANDBOX_USDC_DOMAIN, startEvmChain, type EvmChain } from './evm/index.ts'
import { createSandboxFacilitator, handleFacilitatorRequest, SANDBOX_SOLANA_NETWORK } from './facilitator/index.ts'
import { loadAccountFiles } from './accounts-file.ts'
import { base58Encode } from './chain/base58.ts'
import { buildWorld, type BuiltScenario } from './build.ts'
import { cliKeypairJson } from './keys.ts'
import { handleMarketRequest } from './market/server.ts'
import { FaultPlan } from './faults.ts'
import { serveStandIn } from './http-server.ts'
import type { SandboxOptions } from './options.ts'
import { accountParser } from './rpc/parsers.ts'
import { FACILITATOR_RPC_PATH, startRpcServer } from './rpc/server.ts'
import { handleRugRequest, RUG_CONTROL_PATH, rugControls, type RugControls } from './rugs/index.ts'
import type { IssuerRegistryFile } from '../src/onchain/issuers.ts'
import { type SandboxRpcProfile, sandboxRpcProfile } from './rpc/profiles.ts'
import { trusted } from './world/addresses.ts'
import { solToLamports, type World } from './world/world.ts'

/** What the demo buyer holds at boot, to try paid calls and trades at once. */
const BUYER_SOL = 100
const BUYER_USDC = 1_000
/** The genesis hash the sandbox reports: fixed, so clients can recognise the sandbox cluster. */
const GENESIS_HASH = base58Encode(createHash('sha256').update('solsentry-sandbox-genesis').digest())

export interface SandboxWorldFile {
  generated_at: string
  urls: {
    rpc: string
    ws: string
    dexscreener: string
    jupiter: string
    lifi: string
    /** The news desks' RSS feeds and the X recent-search stand-in. */
    news: string
    /** The stand-in model server (OpenAI-compatible, deterministic; not a language model). */
    model: string
    facilitator: string
    anvil: string
  }
  usdc_mint: string
  /** What a paid call is offered on in the sandbox, and who is paid. */
  x402: {
    solana: { network: string; asset: string; pay_to: string; fee_payer: string }
    base: { network: string; asset: string; asset_domain: string; pay_to: string; facilitator: string }
  }
  faucet: { sol: string; usdc: string; eth: string; evm_usdc: string; dust: string }
  buyer: { address: string; keypair_path: string; sol: number; usdc: number }
  /** The demo buyer on the EVM rail: a funded anvil account (sandbox only; never use this key elsewhere). */
  evm_buyer: { address: string; private_key: string; usdc: number }
  /** The test USDC's deployer, the one account that may mint it (sandbox only). */
  evm_usdc_issuer: { address: string; private_key: string }
  accounts_loaded: string[]
  scenarios: BuiltScenario[]
  /**
   * The service on this world, once `npm start` runs it (written then): where `npm run pay`, `npm run
   * trade` and the CLI find it, whatever PORT it took.
   */
  service_url?: string
}

export interface RunningSandbox {
  world: World
  /** Faults to inject and the requests each server received (tests and SANDBOX_FAULTS). */
  faults: FaultPlan
  /** The anvil chain with the test USDC (the Base-like payment rail). */
  evm: EvmChain
  file: SandboxWorldFile
  worldFilePath: string
  bootMs: number
  /** The live launchpad (started by `npm start` every SANDBOX_TICK_MS; tests step it). */
  ticker: LaunchTicker
  /** How the RPC behaves as a provider, with what it refused (SANDBOX_RPC_PROFILE). */
  rpcProfile: SandboxRpcProfile
  /**
   * The rug controls (sandbox/rugs/): each event a position guard watches for, run as real transactions
   * signed by the token's own keys; also `POST {urls.rpc}/sandbox/rug` and `npm run rug`.
   */
  rugs: RugControls
  /** The service's URL settings that point it at this sandbox (what `npm start` passes it). */
  serviceSettings: Record<
    | 'SOLANA_RPC_URL'
    | 'SOLANA_WS_URL'
    | 'DEXSCREENER_URL'
    | 'JUPITER_URL'
    | 'LIFI_URL'
    | 'NEWS_FEEDS'
    | 'X_API_URL'
    | 'X_BEARER_TOKEN'
    | 'LLM_URL'
    | 'LLM_API_KEY'
    | 'LLM_MODEL'
    | 'ECOSYSTEM_ACCOUNTS'
    | 'FACILITATOR_URL'
    | 'ISSUER_REGISTRY'
    | 'EXCHANGE_WALLETS'
    | 'PAY_TO_SOLANA'
    | 'SOLANA_PAYMENT_NETWORK'
    | 'SOLANA_PAYMENT_ASSET'
    | 'PAY_TO_BASE'
    | 'BASE_PAYMENT_NETWORK'
    | 'BASE_PAYMENT_ASSET'
    | 'BASE_PAYMENT_ASSET_DOMAIN'
    | 'DEMO_WALLET_KEYPAIR'
    | 'WEB_SOLANA_RPC_URL'
    | 'BASE_RPC_URL',
    string
  > &
    Partial<Record<'SOLANA_RPC_PROVIDER', string>>
  stop(): Promise<void>
}

/**
 * Boots the offline world: builds the chain and every scenario, loads account files, starts the
 * Solana JSON-RPC (HTTP + WebSocket), DexScreener and Jupiter stand-ins, the anvil chain with its
 * test USDC and the x402 facilitator for both, funds the demo buyer on both chains, and writes
 * `world.json` describing all of it. The Solana chain then follows wall time.
 */
export async function startSandbox(options: SandboxOptions, faults = new FaultPlan()): Promise<RunningSandbox> {
  const started = performance.now()
  const now = Math.floor(Date.now() / 1000)
  // anvil boots in its own process while the Solana world is built.
  const evmStarting = startEvmChain(options.hostname, options.anvilPort, BigInt(BUYER_USDC) * 1_000_000n)
  const built = await buildWorld(now).catch(async (error) => {
    await evmStarting.then(
      (evm) => evm.stop(),
      () => {},
    )
    throw error
  })
  const evm = await evmStarting
  const { world, scenarios } = built
  const accountsLoaded = options.accountsDir ? loadAccountFiles(world.chain, options.accountsDir) : []

  const issuer = await world.signer('usdc-issuer')
  const airdropUsdc = async (to: string, amount: bigint) => {
    const ata = await world.ata(world.usdcMint, to)
    return world.run(issuer, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: issuer,
        ata,
        owner: trusted(to),
        mint: trusted(world.usdcMint),
      }),
      getMintToCheckedInstruction({
        mint: trusted(world.usdcMint),
        token: ata,
        mintAuthority: issuer,
        amount,
        decimals: 6,
      }),
    ])
  }
  const rpcProfile = sandboxRpcProfile(options.rpcProfile)
  const rpc = startRpcServer(
    {
      chain: world.chain,
      parse: accountParser(world.chain),
      airdrop: (to, amount) => world.faucet.airdrop(to, amount),
      airdropUsdc,
      dust: (to, count) => world.faucet.dust(to, count),
      genesisHash: GENESIS_HASH,
      profile: rpcProfile,
    },
    {
      hostname: options.hostname,
      port: options.rpcPort,
      wsPort: options.wsPort,
      control: { path: RUG_CONTROL_PATH, handle: (request) => handleRugRequest(world, request) },
    },
    faults,
  )
  // The HTTP stand-ins, each behind the fault plan.
  const serve = (name: Parameters<typeof serveStandIn>[0], handle: Parameters<typeof serveStandIn>[2], port: number) =>
    serveStandIn(name, world, handle, { hostname: options.hostname, port }, faults)
  const market = serve('dexscreener', handleMarketRequest, options.marketPort)
  const aggregator = serve('jupiter', handleAggregatorRequest, options.aggregatorPort)
  const bridge = serve('lifi', handleBridgeRequest, options.bridgePort)
  const news = serve('news', handleNewsRequest, options.newsPort)
  const model = serve('model', handleModelRequest, options.modelPort)

  // x402: the facilitator pays the network fees of settlements; the service is paid into a treasury
  // wallet whose USDC account exists from the start (exact/SVM transfers need the payTo's account).
  const feePayer = await world.signer('x402-facilitator')
  await world.faucet.airdrop(feePayer.address, solToLamports(10))
  const treasury = await world.signer('service-treasury')
  await airdropUsdc(treasury.address, 0n)
  const x402 = createSandboxFacilitator(
    feePayer,
    `${rpc.url}${FACILITATOR_RPC_PATH}`,
    { chain: evm.chain, network: evm.network as `${string}:${string}`, privateKey: evm.facilitatorKey },
    faults,
  )
  const facilitator = serve(
    'facilitator',
    (_, request) => handleFacilitatorRequest(x402, request, faults),
    options.facilitatorPort,
  )

  const buyer = await world.signer('demo-buyer')
  await world.faucet.airdrop(buyer.address, solToLamports(BUYER_SOL))
  await airdropUsdc(buyer.address, BigInt(BUYER_USDC) * 1_000_000n)
  mkdirSync(options.dataDir, { recursive: true })
  const keypairPath = resolve(join(options.dataDir, 'buyer.json'))
  writeFileSync(keypairPath, await cliKeypairJson('demo-buyer'), { mode: 0o600 })

  world.chain.followWallClock()
  const ticker = new LaunchTicker(world)
  ticker.start(options.tickMs)
  const file: SandboxWorldFile = {
    generated_at: new Date().toISOString(),
    urls: {
      rpc: rpc.url,
      ws: rpc.wsUrl,
      dexscreener: market.url,
      jupiter: aggregator.url,
      lifi: bridge.url,
      news: news.url,
      model: `${model.url}/v1`,
      facilitator: facilitator.url,
      anvil: evm.url,
    },
    usdc_mint: world.usdcMint,
    x402: {
      solana: {
        network: SANDBOX_SOLANA_NETWORK,
        asset: world.usdcMint,
        pay_to: treasury.address,
        fee_payer: feePayer.address,
      },
      base: {
        network: evm.network,
        asset: evm.usdc,
        asset_domain: SANDBOX_USDC_DOMAIN,
        pay_to: evm.treasury,
        facilitator: evm.facilitator,
      },
    },
    faucet: {
      sol: `JSON-RPC requestAirdrop on ${rpc.url}`,
      usdc: `JSON-RPC requestUsdcAirdrop [address, amount in atomic units] on ${rpc.url}`,
      dust: `JSON-RPC requestDustFlood [address, count up to 5000] on ${rpc.url}: that many dust transfers to the address, burying its own transactions`,
      eth: `JSON-RPC anvil_setBalance [address, wei as hex] on ${evm.url}`,
      evm_usdc: `mint(address, uint256) on ${evm.usdc}, sent by evm_usdc_issuer`,
    },
    buyer: { address: buyer.address, keypair_path: keypairPath, sol: BUYER_SOL, usdc: BUYER_USDC },
    evm_buyer: { address: evm.buyer.address, private_key: evm.buyer.privateKey, usdc: BUYER_USDC },
    evm_usdc_issuer: { address: evm.issuer.address, private_key: evm.issuer.privateKey },
    accounts_loaded: accountsLoaded,
    scenarios,
  }
  const worldFilePath = resolve(join(options.dataDir, 'world.json'))
  writeFileSync(worldFilePath, `${JSON.stringify(file, null, 2)}\n`)
  // The sandbox's issuer-controlled assets, for the service's ISSUER_REGISTRY: its USDC and its issuer.
  const issuersPath = resolve(join(options.dataDir, 'issuers.json'))
  writeFileSync(issuersPath, `${JSON.stringify(sandboxIssuers(world.usdcMint, issuer.address), null, 2)}\n`)
  // The faucet stands in for an exchange's withdrawals (it funds every scenario wallet): named as one.
  const exchangesPath = resolve(join(options.dataDir, 'exchanges.json'))
  const faucet = (await world.signer('faucet')).address
  writeFileSync(
    exchangesPath,
    `${JSON.stringify(
      {
        version: '2026-11-25',
        entries: [
          {
            address: faucet,
            exchange: 'Sandbox faucet',
            label: 'the sandbox faucet, standing in for exchange withdrawals',
            source: 'sandbox/index.ts',
          },
        ],
      },
      null,
      2,
    )}\n`,
  )
  // The sandbox ecosystem's own social accounts, for the service's ECOSYSTEM_ACCOUNTS.
  const ecosystemPath = resolve(join(options.dataDir, 'ecosystem.json'))
  writeFileSync(
    ecosystemPath,
    `${JSON.stringify(
      {
        version: '2026-11-25',
        entries: ECOSYSTEM.map((account) => ({
          handle: account.username,
          project: account.name,
          source: 'sandbox/news/posts.ts',
        })),
      },
      null,
      2,
    )}\n`,
  )
  return {
    world,
    faults,
    evm,
    file,
    worldFilePath,
    bootMs: Math.round(performance.now() - started),
    rpcProfile,
    rugs: rugControls(world),
    ticker,
    serviceSettings: {
      SOLANA_RPC_URL: file.urls.rpc,
      SOLANA_WS_URL: file.urls.ws,
      // The service is told which provider it talks to, as an operator would name theirs.
      ...(options.rpcProfile === 'open' ? {} : { SOLANA_RPC_PROVIDER: options.rpcProfile }),
      DEXSCREENER_URL: file.urls.dexscreener,
      JUPITER_URL: file.urls.jupiter,
      LIFI_URL: file.urls.lifi,
      NEWS_FEEDS: SANDBOX_FEEDS.map((desk) => `${file.urls.news}/feeds/${desk}.xml`).join(','),
      X_API_URL: file.urls.news,
      X_BEARER_TOKEN: SANDBOX_X_TOKEN,
      LLM_URL: file.urls.model,
      LLM_API_KEY: SANDBOX_LLM_KEY,
      LLM_MODEL: SANDBOX_MODEL,
      ECOSYSTEM_ACCOUNTS: ecosystemPath,
      FACILITATOR_URL: file.urls.facilitator,
      ISSUER_REGISTRY: issuersPath,
      EXCHANGE_WALLETS: exchangesPath,
      PAY_TO_SOLANA: treasury.address,
      SOLANA_PAYMENT_NETWORK: SANDBOX_SOLANA_NETWORK,
      SOLANA_PAYMENT_ASSET: world.usdcMint,
      PAY_TO_BASE: evm.treasury,
      BASE_PAYMENT_NETWORK: evm.network,
      BASE_PAYMENT_ASSET: evm.usdc,
      BASE_PAYMENT_ASSET_DOMAIN: SANDBOX_USDC_DOMAIN,
      BASE_RPC_URL: evm.url,
      // The web page's demo wallet: the sandbox's demo buyer, so anyone can try a paid call offline.
      DEMO_WALLET_KEYPAIR: file.buyer.keypair_path,
      WEB_SOLANA_RPC_URL: file.urls.rpc,
    },
    async stop() {
      ticker.stop()
      world.chain.stop()
      await Promise.all([
        rpc.stop(),
        market.stop(),
        aggregator.stop(),
        bridge.stop(),
        news.stop(),
        model.stop(),
        facilitator.stop(),
        evm.stop(),
      ])
    },
  }
}

/** The sandbox's issuer registry file: its USDC, with the issuer's key as both authorities. */
function sandboxIssuers(usdcMint: string, issuer: string): IssuerRegistryFile {
  return {
    version: '2026-11-24',
    entries: [
      {
        mint: usdcMint,
        symbol: 'USDC',
        name: 'USD Coin',
        issuer: 'Sandbox USDC issuer',
        kind: 'fiat_stablecoin',
        mintAuthority: issuer,
        freezeAuthority: issuer,
        sources: [
          {
            ref: 'sandbox/scenarios/base-assets.ts',
            states: 'the sandbox creates this mint with the usdc-issuer wallet as both authorities',
            retrieved: '2026-11-24',
          },
        ],
      },
    ],
  }
}
