/**
 * What the sandbox's demo clients (`npm run pay`, `npm run trade`) share: reading world.json and the
 * command line, and an official x402 v2 client paying as the demo buyer on either rail.
 */
import { readFileSync } from 'node:fs'
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit'
import { x402Client } from '@x402/core/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment } from '@x402/fetch'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { privateKeyToAccount } from 'viem/accounts'
import type { SandboxWorldFile } from './index.ts'

/** `--name value` (or `--name=value`) options, removed from `args`, with fallbacks. */
export function takeOption(args: string[], name: string, fallback: string): string {
  const inline = args.findIndex((arg) => arg.startsWith(`--${name}=`))
  if (inline >= 0) return args.splice(inline, 1)[0]!.slice(name.length + 3)
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? (args.splice(index, 2)[1] ?? fallback) : fallback
}

/**
 * The service to call: `--service` (or `--url`), else SOLSENTRY_URL, else the one `npm start` wrote in
 * the world file (whatever PORT it took), else PORT on this machine, else 8402.
 */
export function serviceOf(args: string[], world: SandboxWorldFile): string {
  const flag = takeOption(args, 'service', '') || takeOption(args, 'url', '')
  const url = flag || process.env.SOLSENTRY_URL || world.service_url || `http://127.0.0.1:${process.env.PORT || 8402}`
  return url.replace(/\/$/, '')
}

/**
 * Runs a demo client: a failure is one line saying what to do, never a stack trace — nothing answering
 * at `service` (the service not started, another port) above all.
 */
export async function runDemo(name: string, service: () => string, main: () => Promise<number>): Promise<never> {
  try {
    process.exit(await main())
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    const text = typeof message === 'string' ? message : String(error)
    if (/ConnectionRefused|ECONNREFUSED|ENOTFOUND|Unable to connect|FailedToOpenSocket/i.test(`${code} ${text}`))
      console.error(
        `${name}: SERVICE_UNREACHABLE: nothing answers at ${service()} (${text}): start the sandbox and the service (npm start; PORT chooses its port), or give its URL: --service <url> or SOLSENTRY_URL=<url>`,
      )
    else console.error(`${name}: ${text}`)
    process.exit(1)
  }
}

/**
 * What an answer's payment did, in a line: the receipt when one came back (paid), else the service's
 * error (code and message) and that nothing was paid — a 400 or a 402 charges nothing.
 */
export function paymentLine(name: string, response: Response, body: unknown, paid: string): string {
  const header = response.headers.get('payment-response')
  const receipt = header ? (JSON.parse(Buffer.from(header, 'base64').toString()) as { success?: boolean }) : undefined
  if (response.ok && receipt?.success)
    return `HTTP ${response.status}; ${paid}; receipt ${Buffer.from(header!, 'base64').toString()}`
  if (response.ok) return `HTTP ${response.status}; free: nothing was paid`
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown }
  const said = typeof code === 'string' ? `${code}: ${typeof message === 'string' ? message : ''}` : response.statusText
  return `${name}: ${said} (HTTP ${response.status}); ${receipt?.success ? `yet ${paid}` : 'nothing was paid'}`
}

/** The world file the running sandbox wrote; exits with a hint when there is none. */
export function readWorld(args: string[]): SandboxWorldFile {
  const path = takeOption(args, 'world', `${process.env.DATA_DIR || './data'}/sandbox/world.json`)
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SandboxWorldFile
  } catch {
    console.error(`cannot read the sandbox world file ${path}: start the sandbox first (npm start)`)
    process.exit(2)
  }
}

/** The demo buyer's Solana keypair (the CLI keypair file world.json names). */
export function demoBuyer(world: SandboxWorldFile): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(
    Uint8Array.from(JSON.parse(readFileSync(world.buyer.keypair_path, 'utf8')) as number[]),
  )
}

/**
 * The official v2 client paying as the demo buyer: sandbox USDC on the Solana rail, or the test USDC
 * on anvil (EIP-3009) with `rail` `base` (signed by `evmPrivateKey`, the EVM demo buyer's by default).
 * The sandbox assets are not among the client's known ones, so this one is allowed, up to 1 USDC a call.
 */
export async function demoPayer(
  world: SandboxWorldFile,
  rail: 'solana' | 'base',
  evmPrivateKey = world.evm_buyer.private_key as `0x${string}`,
): Promise<{ client: x402Client; payer: string; network: string }> {
  const offer = world.x402[rail]
  const network = offer.network as `${string}:${string}`
  const client = new x402Client()
  let payer: string
  if (rail === 'base') {
    const account = privateKeyToAccount(evmPrivateKey)
    payer = account.address
    client.register(network, new ExactEvmScheme(account))
  } else {
    const buyer = await demoBuyer(world)
    payer = buyer.address
    client.register(network, new ExactSvmScheme(buyer, { rpcUrl: world.urls.rpc }))
  }
  client.setSpendControls({ allowedAssets: [{ network, asset: offer.asset, maxAmountPerPayment: '1000000' }] })
  return { client, payer, network }
}

/**
 * `fetch` paying 402s with the demo payer's `client` on `rail`. A service that takes no payment on that
 * rail (a seller on one chain) ends the run with one line saying which rail it does take, instead of the
 * client's "no network/scheme registered".
 */
export function payingFetch(
  client: x402Client,
  rail: 'solana' | 'base',
): (input: string, init: RequestInit) => Promise<Response> {
  let offered: string[] = []
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init)
    const header = response.headers.get('payment-required')
    if (header)
      offered = (
        (JSON.parse(Buffer.from(header, 'base64').toString()) as { accepts?: { network: string }[] }).accepts ?? []
      ).map((offer) => offer.network)
    return response
  }
  const paying = wrapFetchWithPayment(recording as typeof fetch, client)
  return async (input, init) => {
    try {
      return await paying(input, init)
    } catch (error) {
      const rails = offered.map((network) => (network.startsWith('solana:') ? 'solana' : 'base'))
      if (offered.length > 0 && !rails.includes(rail)) {
        console.error(
          `the service takes no payment on the ${rail} rail; it offers ${offered.join(', ')}: pay with --rail ${rails[0]}`,
        )
        process.exit(1)
      }
      throw error
    }
  }
}
