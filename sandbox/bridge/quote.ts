/**
 * The sandbox's LI.FI stand-in: `GET /v1/quote` for USDC on the sandbox chain bridged to native USDC on
 * Base, Ethereum, Arbitrum, Optimism or Polygon, in LI.FI's answer shape (a recorded real answer:
 * test/fixtures/recorded/lifi/). Read-only like the real quote: nothing moves. The route is the stand-in's
 * own model, said in its tool name — a burn-and-mint transfer (as Circle's CCTP): LI.FI's fixed fee of
 * 0.25% (the recorded answer's "LIFI Fixed Fee"), a destination-gas "Transaction Fee" in USDC per chain,
 * the sender's Solana network fee as gas, and a duration per chain. Refusals as LI.FI words them:
 * 400 with code 1011 for bad parameters, 404 with code 1002 when no route carries the transfer.
 */
import { PriceHistory } from '../market/prices.ts'
import { NATIVE_MINT } from '../world/swap.ts'
import type { World } from '../world/world.ts'

const SOLANA = 1151111081099710
/** The home chains: LI.FI key, native USDC, destination gas (USDC) and duration (s) of the stand-in's route. */
const CHAINS: Record<number, { key: string; name: string; usdc: string; gasUsdc: number; durationS: number }> = {
  8453: {
    key: 'BAS',
    name: 'Base',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    gasUsdc: 0.01,
    durationS: 1_140,
  },
  1: {
    key: 'ETH',
    name: 'Ethereum',
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    gasUsdc: 1.2,
    durationS: 1_140,
  },
  42161: {
    key: 'ARB',
    name: 'Arbitrum',
    usdc: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    gasUsdc: 0.02,
    durationS: 1_140,
  },
  10: {
    key: 'OPT',
    name: 'Optimism',
    usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
    gasUsdc: 0.01,
    durationS: 1_140,
  },
  137: {
    key: 'POL',
    name: 'Polygon',
    usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    gasUsdc: 0.01,
    durationS: 480,
  },
}
const LIFI_FEE = 0.0025
/** The sender's network fee on the sandbox chain (lamports): one signature and a priority fee. */
const SOLANA_FEE_LAMPORTS = 105_000n
/** Below this (USDC) the route's fees leave nothing: LI.FI answers no quote. */
const MIN_USDC = 1

type Answer = { status: number; body: unknown }

const invalid = (message: string): Answer => ({ status: 400, body: { message, code: 1011 } })
const noQuote = (): Answer => ({
  status: 404,
  body: { message: 'No available quotes for the requested transfer', code: 1002 },
})

function chainOf(raw: string | null): number | undefined {
  if (raw === null) return undefined
  if (raw === 'SOL' || raw === String(SOLANA)) return SOLANA
  const byKey = Object.entries(CHAINS).find(([, chain]) => chain.key === raw)
  if (byKey) return Number(byKey[0])
  return CHAINS[Number(raw)] ? Number(raw) : undefined
}

/** Answers `GET /v1/quote?fromChain&toChain&fromToken&toToken&fromAmount&fromAddress[&toAddress]`. */
export function bridgeQuote(world: World, query: URLSearchParams): Answer {
  for (const name of ['fromChain', 'toChain', 'fromToken', 'toToken', 'fromAmount', 'fromAddress'])
    if (!query.get(name)) return invalid(`must have required property '${name}'`)
  const from = chainOf(query.get('fromChain'))
  const to = chainOf(query.get('toChain'))
  if (from === undefined) return invalid('/fromChain must be equal to one of the allowed values')
  if (to === undefined) return invalid('/toChain must be equal to one of the allowed values')
  const amountText = query.get('fromAmount')!
  if (!/^\d+$/.test(amountText)) return invalid('/fromAmount must match pattern "^[0-9]+$"')
  // The stand-in carries one corridor: USDC from the sandbox chain to native USDC on a home chain.
  const home = CHAINS[to]
  if (from !== SOLANA || !home) return noQuote()
  if (query.get('fromToken') !== world.usdcMint || query.get('toToken')?.toLowerCase() !== home.usdc.toLowerCase())
    return noQuote()
  const fromAmount = BigInt(amountText)
  const usdc = Number(fromAmount) / 1e6
  if (usdc < MIN_USDC) return noQuote()
  const feeAtomic = BigInt(Math.round(usdc * LIFI_FEE * 1e6))
  const gasAtomic = BigInt(Math.round(home.gasUsdc * 1e6))
  const toAmount = fromAmount - feeAtomic - gasAtomic
  if (toAmount <= 0n) return noQuote()
  const solUsd = new PriceHistory(world).usdPriceAt(NATIVE_MINT, world.chain.unixS) ?? 0
  const sourceUsdc = token(world.usdcMint, SOLANA, 'USDC', 6, '1')
  const homeUsdc = token(home.usdc, to, 'USDC', 6, '1')
  const sol = token('11111111111111111111111111111111', SOLANA, 'SOL', 9, String(solUsd))
  const usd = (value: number) => value.toFixed(4)
  return {
    status: 200,
    body: {
      type: 'lifi',
      id: `sandbox-${world.chain.unixS}-${to}-${amountText}`,
      tool: 'sandboxcctp',
      toolDetails: { key: 'sandboxcctp', name: 'Burn and mint (sandbox stand-in)', logoURI: '' },
      action: {
        fromToken: sourceUsdc,
        fromAmount: amountText,
        toToken: homeUsdc,
        fromChainId: SOLANA,
        toChainId: to,
        slippage: 0.005,
        fromAddress: query.get('fromAddress'),
        toAddress: query.get('toAddress') ?? query.get('fromAddress'),
      },
      estimate: {
        tool: 'sandboxcctp',
        fromAmount: amountText,
        toAmount: toAmount.toString(),
        toAmountMin: toAmount.toString(),
        feeCosts: [
          {
            name: 'LIFI Fixed Fee',
            description: 'Fixed LIFI fee, independent of any other fee',
            token: sourceUsdc,
            amount: feeAtomic.toString(),
            amountUSD: usd(Number(feeAtomic) / 1e6),
            percentage: String(LIFI_FEE),
            included: true,
          },
          {
            name: 'Transaction Fee',
            description:
              'Transaction Fee is used to cover the gas cost for sending your transfer on the destination chain.',
            token: sourceUsdc,
            amount: gasAtomic.toString(),
            amountUSD: usd(home.gasUsdc),
            percentage: '0.0000',
            included: true,
          },
        ],
        gasCosts: [
          {
            type: 'SEND',
            amount: SOLANA_FEE_LAMPORTS.toString(),
            amountUSD: usd((Number(SOLANA_FEE_LAMPORTS) / 1e9) * solUsd),
            token: sol,
          },
        ],
        executionDuration: home.durationS,
        fromAmountUSD: usd(usdc),
        toAmountUSD: usd(Number(toAmount) / 1e6),
      },
      includedSteps: [{ id: 'sandbox-cross', type: 'cross', tool: 'sandboxcctp' }],
      integrator: query.get('integrator') ?? 'lifi-api',
    },
  }
}

function token(address: string, chainId: number, symbol: string, decimals: number, priceUSD: string) {
  return {
    address,
    chainId,
    symbol,
    decimals,
    name: symbol === 'USDC' ? 'USD Coin' : symbol,
    coinKey: symbol,
    logoURI: '',
    priceUSD,
  }
}

/** The stand-in over HTTP: `/v1/quote` only, as JSON. */
export function handleBridgeRequest(world: World, request: Request): Response {
  const url = new URL(request.url)
  const answer =
    url.pathname !== '/v1/quote'
      ? { status: 404, body: { message: `No route for ${url.pathname}`, code: 1000 } }
      : request.method !== 'GET'
        ? { status: 405, body: { message: `Method ${request.method} is not allowed`, code: 1000 } }
        : bridgeQuote(world, url.searchParams)
  return Response.json(answer.body, { status: answer.status })
}
