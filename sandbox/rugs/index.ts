import type { World } from '../world/world.ts'
import { freezeHolder, mintMore, setMintAuthority } from './authorities.ts'
import { RugRefusal, type RugOutcome } from './chain-view.ts'
import { developerDump, failSellRoute, pullLiquidity, unlockLp } from './liquidity.ts'
import { renameMetadata } from './metadata.ts'
import {
  ABSENT_HOOK_PROGRAM,
  permanentDelegateTransfer,
  raiseTransferFee,
  setDefaultAccountState,
  setPaused,
  setTransferHook,
} from './token-2022.ts'

export { RugRefusal, type RugOutcome } from './chain-view.ts'

/** A rug control's request: the event, the token, and the event's own options. */
export interface RugRequest {
  event: string
  mint: string
  [option: string]: unknown
}

interface RugControl {
  /** What it does, in a sentence (the HTTP refusal of an unknown event and `npm run rug` list these). */
  does: string
  /** Its options with their defaults, as `name=default`. */
  options: string[]
  run(world: World, mint: string, options: Options): Promise<RugOutcome>
}

/**
 * Every rug control by event name, in the order issue 34 lists the events a position guard watches:
 * each runs as transactions on the sandbox chain signed by the token's own keys.
 */
export const RUG_CONTROLS = {
  'pull-liquidity': {
    does: "removes a share of the token's main pool for the wallet holding its LP, burning that share of the LP",
    options: ['percent=90'],
    run: (world, mint, options) => pullLiquidity(world, mint, options.percent('percent', 90)),
  },
  'developer-dump': {
    does: "sells a share of the developer's holding into the token's main pool",
    options: ['percent=50'],
    run: (world, mint, options) => developerDump(world, mint, options.percent('percent', 50)),
  },
  'mint-more': {
    does: 'mints more supply with the mint authority',
    options: ['amount=10% of the supply (raw units)', 'to=the mint authority'],
    run: (world, mint, options) => mintMore(world, mint, options.amount('amount'), options.address('to')),
  },
  'set-mint-authority': {
    does: 'hands the mint authority to another address, or revokes it',
    options: ['new_authority=none (revoke)'],
    run: (world, mint, options) => setMintAuthority(world, mint, options.address('new_authority') ?? null),
  },
  freeze: {
    does: "freezes a holder's token account with the freeze authority",
    options: ['holder=the largest holder besides the developer and pools (wallet or token account)'],
    run: (world, mint, options) => freezeHolder(world, mint, options.address('holder')),
  },
  'raise-transfer-fee': {
    does: 'raises the Token-2022 transfer fee with the fee authority',
    options: ['bps=2500', 'maximum_fee=no cap (raw units)'],
    run: (world, mint, options) =>
      raiseTransferFee(world, mint, options.bps('bps', 2_500), options.amount('maximum_fee')),
  },
  'set-transfer-hook': {
    does: 'points the Token-2022 transfer hook at another program (by default one not deployed: transfers fail)',
    options: [`program=${ABSENT_HOOK_PROGRAM}`],
    run: (world, mint, options) => setTransferHook(world, mint, options.address('program') ?? ABSENT_HOOK_PROGRAM),
  },
  'permanent-delegate-transfer': {
    does: "moves a share of a holder's tokens to the developer with the Token-2022 permanent delegate",
    options: ['percent=100', 'holder=the largest holder besides the developer and pools'],
    run: (world, mint, options) =>
      permanentDelegateTransfer(world, mint, options.percent('percent', 100), options.address('holder')),
  },
  'set-default-account-state': {
    does: 'changes the state new Token-2022 accounts start in, with the freeze authority',
    options: ['state=frozen'],
    run: (world, mint, options) => setDefaultAccountState(world, mint, options.state('state')),
  },
  pause: {
    does: 'pauses every transfer, mint and burn of a Token-2022 mint with the Pausable extension',
    options: [],
    run: (world, mint) => setPaused(world, mint, true),
  },
  resume: {
    does: 'resumes a paused Token-2022 mint',
    options: [],
    run: (world, mint) => setPaused(world, mint, false),
  },
  rename: {
    does: "renames the token's metadata (Token-2022 extension or Metaplex), by default to impersonate USDC",
    options: ['name=USD Coin', 'symbol=USDC'],
    run: (world, mint, options) =>
      renameMetadata(world, mint, options.text('name', 'USD Coin', 32), options.text('symbol', 'USDC', 10)),
  },
  'unlock-lp': {
    does: "releases the LP locked in the token's Jupiter Lock escrow to its recipient",
    options: [],
    run: (world, mint) => unlockLp(world, mint),
  },
  'fail-sell-route': {
    does: "blocks every sell: freezes the main pool's token vault (or pauses the mint), so the aggregator finds no route",
    options: [],
    run: (world, mint) => failSellRoute(world, mint),
  },
} satisfies Record<string, RugControl>

export type RugEvent = keyof typeof RUG_CONTROLS
export const RUG_EVENTS = Object.keys(RUG_CONTROLS) as RugEvent[]

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** The event's options, read with the refusal each wrong one gets. */
class Options {
  constructor(private readonly request: Record<string, unknown>) {}

  #get(name: string): unknown {
    return this.request[name]
  }

  percent(name: string, fallback: number): number {
    const value = this.#get(name) ?? fallback
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100)
      throw new RugRefusal('INVALID_PARAMS', `${name} must be a number above 0 and at most 100`)
    return value
  }

  bps(name: string, fallback: number): number {
    const value = this.#get(name) ?? fallback
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 10_000)
      throw new RugRefusal('INVALID_PARAMS', `${name} must be an integer from 0 to 10000 (basis points)`)
    return value
  }

  /** Raw token units, as a JSON integer or a decimal string (past 2^53). */
  amount(name: string): bigint | undefined {
    const value = this.#get(name)
    if (value === undefined) return undefined
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
    if (typeof text !== 'string' || !/^\d{1,20}$/.test(text) || BigInt(text) > 0xffff_ffff_ffff_ffffn)
      throw new RugRefusal('INVALID_PARAMS', `${name} must be a whole number of raw units (a u64)`)
    return BigInt(text)
  }

  address(name: string): string | undefined {
    const value = this.#get(name)
    if (value === undefined) return undefined
    if (typeof value !== 'string' || !BASE58_ADDRESS.test(value))
      throw new RugRefusal('INVALID_PARAMS', `${name} must be a base58 address`)
    return value
  }

  state(name: string): 'initialized' | 'frozen' {
    const value = this.#get(name) ?? 'frozen'
    if (value !== 'initialized' && value !== 'frozen')
      throw new RugRefusal('INVALID_PARAMS', `${name} must be "initialized" or "frozen"`)
    return value
  }

  text(name: string, fallback: string, maxLength: number): string {
    const value = this.#get(name) ?? fallback
    if (typeof value !== 'string' || value.length === 0 || value.length > maxLength)
      throw new RugRefusal('INVALID_PARAMS', `${name} must be a string of 1 to ${maxLength} characters`)
    return value
  }
}

/** Runs one rug control; a wrong request or a token without the lever is a RugRefusal. */
export async function runRug(world: World, request: unknown): Promise<RugOutcome & { event: RugEvent; mint: string }> {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    throw new RugRefusal('INVALID_PARAMS', 'the request must be a JSON object { event, mint, ...options }')
  const { event, mint } = request as Record<string, unknown>
  if (typeof event !== 'string' || !Object.hasOwn(RUG_CONTROLS, event))
    throw new RugRefusal('UNKNOWN_EVENT', `unknown event ${JSON.stringify(event)}: one of ${RUG_EVENTS.join(', ')}`)
  if (typeof mint !== 'string' || !BASE58_ADDRESS.test(mint))
    throw new RugRefusal('INVALID_PARAMS', 'mint must be the base58 address of a sandbox token')
  const control: RugControl = RUG_CONTROLS[event as RugEvent]
  const outcome = await control.run(world, mint, new Options(request as Record<string, unknown>))
  return { event: event as RugEvent, mint, ...outcome }
}

/** The rug controls bound to a world: `RunningSandbox.rugs`. */
export type RugControls = { [E in RugEvent]: (mint: string, options?: Record<string, unknown>) => Promise<RugOutcome> }

export function rugControls(world: World): RugControls {
  return Object.fromEntries(
    RUG_EVENTS.map((event) => [event, (mint: string, options = {}) => runRug(world, { ...options, event, mint })]),
  ) as unknown as RugControls
}

/** The HTTP status of each refusal. */
const STATUS: Record<RugRefusal['code'], number> = {
  UNKNOWN_EVENT: 400,
  INVALID_PARAMS: 400,
  UNKNOWN_MINT: 404,
  NOT_POSSIBLE: 409,
}

/** The path of the rug control on the sandbox RPC's HTTP server. */
export const RUG_CONTROL_PATH = '/sandbox/rug'

/**
 * `POST /sandbox/rug` with `{ event, mint, ...options }`: runs the control and answers what it did
 * (`{ event, mint, signature, slot, before, after }`), or a JSON error `{ error: { code, message } }`.
 * `GET /sandbox/rug` lists the events.
 */
export async function handleRugRequest(world: World, request: Request): Promise<Response> {
  if (request.method === 'GET')
    return Response.json({
      events: RUG_EVENTS.map((event) => ({
        event,
        does: RUG_CONTROLS[event].does,
        options: RUG_CONTROLS[event].options,
      })),
    })
  if (request.method !== 'POST')
    return Response.json(
      { error: { code: 'METHOD_NOT_ALLOWED', message: 'POST { event, mint, ...options }' } },
      { status: 405 },
    )
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return Response.json({ error: { code: 'INVALID_JSON', message: 'the body must be JSON' } }, { status: 400 })
  }
  try {
    const outcome = await runRug(world, body)
    return new Response(rugJson(outcome), { headers: { 'content-type': 'application/json' } })
  } catch (error) {
    if (error instanceof RugRefusal)
      return Response.json(
        {
          error: {
            code: error.code,
            message: error.message,
            ...(error.code === 'UNKNOWN_EVENT' ? { events: RUG_EVENTS } : {}),
          },
        },
        { status: STATUS[error.code] },
      )
    return Response.json(
      { error: { code: 'TRANSACTION_FAILED', message: `the chain refused it: ${(error as Error).message}` } },
      { status: 409 },
    )
  }
}

/** An outcome as JSON: the slot as a number, other big integers as decimal strings. */
export function rugJson(outcome: RugOutcome & { event: string; mint: string }): string {
  return JSON.stringify({ ...outcome, slot: Number(outcome.slot) }, (_, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  )
}
