import { type Address, getAddressEncoder, lamports } from '@solana/kit'
import { VESTING_ESCROW_DISCRIMINATOR, VESTING_ESCROW_SIZE } from '../../src/onchain/locks.ts'
import { JUPITER_LOCK_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { trusted } from '../world/addresses.ts'
import type { Pool } from '../world/pool-book.ts'
import {
  holding,
  launch,
  mintAddress,
  NATIVE_MINT,
  scheduleHolders,
  scheduleTape,
  units,
  type Scenario,
} from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

/** The lock runs until 180 days from the world's now: a cliff, released at once. */
export const LOCKED_LP_DAYS = 180

/**
 * A Jupiter Lock `VestingEscrow` account's bytes (296; layout in src/onchain/locks.ts): recipient,
 * token mint, creator, base, then the schedule — a cliff at `cliffTime` (unix seconds), no periods.
 */
function vestingEscrow(fields: { recipient: Address; tokenMint: Address; creator: Address; cliffTime: number }) {
  const data = new Uint8Array(VESTING_ESCROW_SIZE)
  const view = new DataView(data.buffer)
  const encoder = getAddressEncoder()
  data.set(VESTING_ESCROW_DISCRIMINATOR, 0)
  data.set(encoder.encode(fields.recipient), 8)
  data.set(encoder.encode(fields.tokenMint), 40)
  data.set(encoder.encode(fields.creator), 72)
  view.setBigUint64(144, BigInt(fields.cliffTime), true) // cliff_time
  view.setBigUint64(192, BigInt(fields.cliffTime), true) // vesting_start_time
  return data
}

export const lockedLp: Scenario = {
  name: 'locked-lp',
  title: 'LP locked in a lock program instead of burned',
  description:
    'The developer kept the LP of its Raydium AMM v4 pool but moved all of it into an escrow of the Jupiter Lock program, released 180 days from now: not burned (lp_status UNBURNED), but 100% locked.',
  traits: ['lp_locked', 'lp_unburned', 'mint_authority_revoked'],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'locked-lp')
    let pool: Pool | undefined
    const created = now - 8 * DAY
    timeline.at(created, 'locked-lp launch', async () => {
      const dev = await world.wallet('locked-lp:dev', 250)
      await launch(world, {
        key: 'locked-lp',
        name: 'Vaulted',
        symbol: 'VAULT',
        decimals: 6,
        supply: 400_000_000,
        dev,
        mintAuthority: 'revoke',
        freezeAuthority: 'none',
        metadata: { mutable: false },
      })
      pool = await world.createPool({
        key: 'locked-lp:raydium',
        kind: 'raydium-amm-v4',
        baseMint: mint,
        quoteMint: NATIVE_MINT,
        baseAmount: units(200_000_000, 6),
        quoteAmount: units(150, 9),
        provider: dev,
        feeBps: 25,
        lp: 'keep',
      })
      // The lock: an escrow account of the lock program (its state is written with setAccount: the
      // program cannot run offline) with the program's real layout, dated LOCKED_LP_DAYS from now,
      // receives every LP token.
      const escrow = await world.signer('locked-lp:escrow')
      const data = vestingEscrow({
        recipient: dev.address,
        tokenMint: trusted(pool.lpMint!),
        creator: dev.address,
        cliffTime: now + LOCKED_LP_DAYS * DAY,
      })
      world.chain.setAccount({
        address: escrow.address,
        lamports: lamports(world.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
        data,
        programAddress: JUPITER_LOCK_PROGRAM_ADDRESS,
        executable: false,
      })
      await world.transfer(pool.lpMint!, dev, escrow.address, await holding(world, pool.lpMint!, dev.address))
    })
    scheduleHolders(ctx, {
      mint: () => mint,
      source: 'locked-lp:dev',
      prefix: 'locked-lp',
      count: 25,
      amount: () => 4_000_000,
      from: created + HOUR,
      to: created + 3 * DAY,
    })
    scheduleTape(ctx, {
      pool: () => pool!,
      traders: Array.from({ length: 12 }, (_, i) => `locked-lp:trader-${i}`),
      traderSol: 10,
      from: now - 2 * DAY,
      to: now - 60,
      count: 30,
      sizeSol: [0.2, 3],
      buyShare: 0.5,
      label: 'locked-lp trade',
    })
    return { mint }
  },
}
