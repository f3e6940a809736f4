import { describe, expect, test } from 'bun:test'
import { manifest } from '../plugins/wallet-intel/manifest.ts'
import { startSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { scannerService } from './support/scanner-service.ts'
import { scanRequest, waivedService } from './support/service.ts'

// POST /wallet/intel on the sandbox's scenario wallets with a known record (world.json `wallets`), each
// answer checked against the trades the sandbox's pool book read from its chain (vault balance changes:
// another path than the service's, which reads the wallet's own balances over the RPC).
const { sandbox, app, validate, freshApp } = await scannerService()
const walletOf = (role: string) =>
  sandbox.file.scenarios.flatMap((scenario) => scenario.wallets).find((w) => w.role === role)!

async function intel(wallet: string, service = app) {
  const started = Date.now()
  const response = await service.handle(scanRequest('/wallet/intel', { wallet_address: wallet }))
  const body = (await response.json()) as any
  return {
    status: response.status,
    body,
    ms: Date.now() - started,
    errors: validate('POST', '/wallet/intel', response.status, body),
  }
}

/** The wallet's SOL result over its closed round trips, from the pool book. */
function poolBookResultSol(wallet: string): number {
  const trades = sandbox.world.pools
    .all()
    .flatMap((pool) => sandbox.world.pools.tradesOf(pool.address))
    .filter((trade) => trade.wallet === wallet)
  return trades.reduce((sum, trade) => sum + (trade.side === 'sell' ? 1 : -1) * (Number(trade.quoteAmount) / 1e9), 0)
}

/** Network fees and the rent of the token account its first buy opened: what the wallet paid beyond the pool. */
const FEES_AND_RENT_SOL = 0.01

describe('POST /wallet/intel', () => {
  test('the profitable trader: its record from its whole history, its result as the pool book says', async () => {
    const trader = walletOf('profitable-trader')
    const { status, body, errors } = await intel(trader.address)
    expect(status).toBe(200)
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      data_quality: 'FULL',
      coverage: { history_complete: true },
      total_trades: 6,
      buys: 3,
      sells: 3,
      closed_positions: 3,
      open_positions: 0,
      verdict: 'PROFITABLE_TRADER',
      copy_trade_worthiness: { label: 'HIGH' },
      funding_origin: { exchange: 'Sandbox faucet', amount_sol: 4 },
    })
    const resultSol = body.realized_pnl_usd / body.coverage.sol_usd
    expect(Math.abs(resultSol - poolBookResultSol(trader.address))).toBeLessThan(FEES_AND_RENT_SOL)
    expect(body.win_rate_pct).toBe(100)
  })

  test('the sniper bot: bought in the launch’s first slots, SNIPER whatever its result', async () => {
    const sniper = walletOf('sniper-bot')
    const { body } = await intel(sniper.address)
    expect(body).toMatchObject({
      behaviour_style: 'sniper',
      launches_assessed: 1,
      launches_sniped: 1,
      verdict: 'SNIPER',
    })
    const resultSol = body.realized_pnl_usd / body.coverage.sol_usd
    expect(Math.abs(resultSol - poolBookResultSol(sniper.address))).toBeLessThan(FEES_AND_RENT_SOL)
  })

  test('the rugger: four tokens created, the liquidity of three pulled, RUGGER and AVOID', async () => {
    const { body } = await intel(walletOf('rugger').address)
    expect(body).toMatchObject({
      tokens_created: 4,
      rugs: 3,
      verdict: 'RUGGER',
      copy_trade_worthiness: { label: 'AVOID', score: 0 },
    })
  })

  test('a wallet with no history: nothing measured, UNPROVEN, nothing invented', async () => {
    const { body, errors } = await intel('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')
    expect(errors).toEqual([])
    expect(body).toMatchObject({
      total_trades: 0,
      win_rate_pct: null,
      funding_origin: { funder: null, exchange: null },
      verdict: 'UNPROVEN',
      coverage: { transactions_read: 0 },
    })
  })

  test('the RPC down: LIMITED within the deadline, the history listed missing', async () => {
    sandbox.faults.set('rpc', 'getSignaturesForAddress', { kind: 'down' })
    const { status, body, ms } = await intel(walletOf('profitable-trader').address, freshApp())
    expect(status).toBe(200)
    expect(body).toMatchObject({ data_quality: 'LIMITED', total_trades: 0 })
    expect(body.missing_fields).toContain('history')
    expect(ms).toBeLessThan(manifest.routes.intel.deadlineMs + 1_000)
  })

  test('bad input: not a Solana address', async () => {
    expect((await intel('0x1234')).body).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
  })
})

describe('POST /wallet/intel on the public RPC profile (15 transactions per wallet)', () => {
  test('a longer history than it may read: the figures say they cover the last 15, no first funder is guessed', async () => {
    const publicSandbox = await startSandbox(ephemeralSandboxOptions({ rpcProfile: 'public' }))
    try {
      const service = waivedService(publicSandbox.serviceSettings)
      const rugger = publicSandbox.file.scenarios
        .flatMap((scenario) => scenario.wallets)
        .find((w) => w.role === 'rugger')!
      const response = await service.handle(scanRequest('/wallet/intel', { wallet_address: rugger.address }))
      const body = (await response.json()) as any
      expect(body.coverage).toMatchObject({ transactions_read: 15, history_complete: false })
      expect(body.funding_origin).toEqual({ funder: null, amount_sol: null, at: null, exchange: null })
      expect(publicSandbox.rpcProfile.throttled).toBe(0)
    } finally {
      await publicSandbox.stop()
    }
  }, 60_000)
})
