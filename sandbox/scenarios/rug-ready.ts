import { address } from '@solana/kit'
import {
  getInitializeDefaultAccountStateInstruction,
  getInitializePausableConfigInstruction,
  getInitializePermanentDelegateInstruction,
  getInitializeTransferFeeConfigInstruction,
  getInitializeTransferHookInstruction,
} from '../token/instructions.ts'
import type { Pool } from '../world/pool-book.ts'
import {
  mintAddress,
  NATIVE_MINT,
  scheduleHolders,
  scheduleTape,
  token2022WithMetadata,
  units,
  type Scenario,
} from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

const NAME = 'Lifeboat'
const SYMBOL = 'BOAT'
const URI = 'https://sandbox.solsentry.invalid/rug-ready.json'
const DECIMALS = 6
const SUPPLY = 1_000_000_000
/** The extensions a developer can later turn against holders; each starts harmless. */
const EXTENSIONS = [
  'transferFeeConfig',
  'transferHook',
  'permanentDelegate',
  'defaultAccountState',
  'pausableConfig',
] as const

/**
 * The position guard's target (issue 34): a Token-2022 token whose developer still holds every lever
 * the rug controls (sandbox/rugs/) pull — mint and freeze authority, the transfer-fee, transfer-hook,
 * pausable and metadata authorities, the permanent delegate, and all the LP of its PumpSwap pool —
 * with each lever at rest: a 0% fee, no hook program, accounts initialized by default, not paused.
 */
export const rugReady: Scenario = {
  name: 'rug-ready',
  title: 'Token-2022 token whose developer kept every lever',
  description:
    'A Token-2022 token with a live mint and freeze authority, a permanent delegate, a transfer fee (0% for now) and a transfer hook (none for now) whose authorities are kept, a pause switch and mutable metadata, all held by the developer, who also kept every LP token of its PumpSwap pool. Nothing has been pulled yet: every lever can be.',
  traits: [
    'token_2022',
    'mint_authority_live',
    'freeze_authority_live',
    'permanent_delegate',
    'transfer_fee_mutable',
    'transfer_hook',
    'pausable',
    'lp_unburned',
  ],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'rug-ready')
    let pool: Pool | undefined
    const created = now - 5 * DAY
    timeline.at(created, 'rug-ready launch', async () => {
      const dev = await world.wallet('rug-ready:dev', 400)
      const metadata = { name: NAME, symbol: SYMBOL, uri: URI }
      await world.createMint(
        {
          key: 'rug-ready',
          name: NAME,
          symbol: SYMBOL,
          decimals: DECIMALS,
          mintAuthority: dev,
          freezeAuthority: dev.address,
          token2022: token2022WithMetadata(EXTENSIONS, metadata, dev, (mint) => [
            getInitializeTransferFeeConfigInstruction({
              mint,
              transferFeeConfigAuthority: dev.address,
              withdrawWithheldAuthority: dev.address,
              transferFeeBasisPoints: 0,
              maximumFee: 0n,
            }),
            getInitializeTransferHookInstruction({ mint, authority: dev.address, programId: null }),
            getInitializePermanentDelegateInstruction({ mint, delegate: dev.address }),
            getInitializeDefaultAccountStateInstruction({ mint, state: 'initialized' }),
            getInitializePausableConfigInstruction({ mint, authority: dev.address }),
          ]),
        },
        dev,
      )
      await world.mintTo(mint, dev.address, units(SUPPLY, DECIMALS), dev)
      pool = await world.createPool({
        key: 'rug-ready:pumpswap',
        kind: 'pumpswap',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(400_000_000, DECIMALS),
        quoteAmount: units(250, 9),
        provider: dev,
        feeBps: 25,
        lp: 'keep',
      })
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'rug-ready:dev',
      prefix: 'rug-ready',
      count: 30,
      amount: (i) => 4_000_000 + i * 150_000,
      from: created + HOUR,
      to: created + 3 * DAY,
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 12 }, (_, i) => `rug-ready:trader-${i}`),
      traderSol: 15,
      from: now - 2 * DAY,
      to: now - 90,
      count: 30,
      sizeSol: [0.2, 3],
      buyShare: 0.55,
      label: 'rug-ready trade',
    })
    return { mint: address(mint) }
  },
}
