/**
 * The sandbox's live launchpad: every few seconds a step, deterministic from its seed — a new pump.fun
 * coin (create-and-buy; every third one bundled: four wallets buy in its first block), or a trade on a
 * live curve. Every fourth coin is a runner: buyers keep filling its curve until it completes
 * (graduates). Three smart wallets buy every runner as it launches and sell out once it is 60% filled:
 * after three runners they have the record POST /scan/smart-money looks for. Real transactions on the sandbox chain; the curve trades carry the program's events in
 * their logs (sandbox/world/launchpad-events.ts), which the RPC serves to logsSubscribe.
 */
import type { Pool } from './world/pool-book.ts'
import { trade } from './scenarios/kit.ts'
import { pumpLaunch } from './scenarios/pump.ts'
import { Random } from './scenarios/timeline.ts'
import { PUMP_RESERVED_TOKENS, PUMP_TOTAL_SUPPLY } from './world/venues.ts'
import type { World } from './world/world.ts'

const NAMES = ['Rocket Pug', 'Quiet Owl', 'Lava Frog', 'Neon Yak', 'Paper Koi', 'Turbo Snail', 'Moss Crab', 'Solar Ant']
/** Tokens a curve sells before it completes (793.1M). */
const PUMP_REAL_TOKENS = PUMP_TOTAL_SUPPLY - PUMP_RESERVED_TOKENS
/** One step in this many creates a coin. */
const CREATE_EVERY = 4
const BUNDLE_EVERY = 3
const RUNNER_EVERY = 4
const BUNDLERS = 4
/** The smart wallets, what each buys of a runner at launch, and the progress they sell out at. */
export const SMART_WALLETS = ['ticker:smart-0', 'ticker:smart-1', 'ticker:smart-2'] as const
const SMART_BUY_SOL = 1
const SMART_EXIT_LEFT_SHARE = 0.4

export interface TickerCoin {
  mint: string
  symbol: string
  pool: Pool
  runner: boolean
  bundled: boolean
  /** Runners: whether the smart wallets have sold out. */
  smartExited: boolean
}

export type TickAction =
  | { kind: 'create'; coin: TickerCoin }
  | { kind: 'trade'; mint: string; side: 'buy' | 'sell'; sol: number }
  | { kind: 'idle' }

export class LaunchTicker {
  readonly coins: TickerCoin[] = []
  readonly #random: Random
  #steps = 0
  #timer: ReturnType<typeof setInterval> | undefined
  #busy: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly world: World,
    seed = 'launch-ticker',
  ) {
    this.#random = new Random(seed)
  }

  /**
   * One step (steps run one at a time). `advanceS` moves the chain's clock forward first (tests step
   * faster than time passes; live, the chain follows the wall clock).
   */
  step(advanceS = 0): Promise<TickAction> {
    const next = this.#busy.then(() => {
      if (advanceS > 0) this.world.chain.advanceTo(this.world.chain.unixS + advanceS)
      return this.#step()
    })
    this.#busy = next.catch(() => undefined)
    return next
  }

  /** Steps every `intervalMs` until stopped; a failed step is logged and the next one runs. */
  start(intervalMs: number): void {
    if (this.#timer || intervalMs <= 0) return
    this.#timer = setInterval(() => {
      this.step().catch((error) => console.error('sandbox ticker:', (error as Error).message))
    }, intervalMs)
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = undefined
  }

  /** The curve's sellable tokens left (0 once complete). */
  left(coin: TickerCoin): bigint {
    const base = this.world.pools.realReserves(coin.pool).base
    return base > PUMP_RESERVED_TOKENS ? base - PUMP_RESERVED_TOKENS : 0n
  }

  async #step(): Promise<TickAction> {
    const n = this.#steps++
    const exiting = this.coins.find(
      (coin) =>
        coin.runner && !coin.smartExited && Number(this.left(coin)) <= Number(PUMP_REAL_TOKENS) * SMART_EXIT_LEFT_SHARE,
    )
    if (exiting) {
      exiting.smartExited = true
      for (const name of SMART_WALLETS)
        await trade(this.world, await this.world.signer(name), exiting.pool, 'sell', 1_000)
      return { kind: 'trade', mint: exiting.mint, side: 'sell', sol: 0 }
    }
    const live = this.coins.filter((coin) => this.left(coin) > 0n)
    if (n % CREATE_EVERY === 0 || live.length === 0) return { kind: 'create', coin: await this.#create() }
    // Runners draw more of the trades, and buy big.
    const runners = live.filter((coin) => coin.runner)
    const coin = runners.length > 0 && this.#random.next() < 0.5 ? this.#random.pick(runners) : this.#random.pick(live)
    const wallet = await this.world.wallet(`ticker:trader-${Math.floor(this.#random.between(0, 30))}`, 0)
    const side = coin.runner || this.#random.next() < 0.7 ? 'buy' : 'sell'
    const sol = coin.runner ? this.#random.between(6, 12) : this.#random.between(0.1, 2)
    await trade(this.world, wallet, coin.pool, side, sol)
    return { kind: 'trade', mint: coin.mint, side, sol }
  }

  async #create(): Promise<TickerCoin> {
    const index = this.coins.length
    const name = `${NAMES[index % NAMES.length]} ${Math.floor(index / NAMES.length) + 1}`
    const symbol = `T${index}${name.slice(0, 3).toUpperCase()}`
    const dev = await this.world.wallet(`ticker:dev-${index}`, 10)
    const bundled = index % BUNDLE_EVERY === 2
    const pool = await pumpLaunch(this.world, `ticker-${index}`, name, symbol, dev, this.#random.between(0.3, 1.5))
    if (bundled)
      // The bundle lands in the block right after the create: four fresh wallets at once.
      await this.world.chain.sameBlock(async () => {
        for (let i = 0; i < BUNDLERS; i++)
          await trade(this.world, await this.world.wallet(`ticker:bundler-${index}-${i}`, 5), pool, 'buy', 2)
      })
    const runner = index % RUNNER_EVERY === 1
    if (runner)
      for (const name of SMART_WALLETS)
        await trade(this.world, await this.world.wallet(name, 0), pool, 'buy', SMART_BUY_SOL)
    const coin = { mint: pool.baseMint, symbol, pool, runner, bundled, smartExited: false }
    this.coins.push(coin)
    return coin
  }
}
