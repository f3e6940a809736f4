import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A mint account in `solana account --output json` form (supply 42, 6 decimals, no authorities), as
 * the sandbox replays from SANDBOX_ACCOUNTS_DIR: a real token that no pool trades.
 */
export const REPLAYED_MINT = {
  pubkey: 'Rep1ayedMint1111111111111111111111111111111',
  account: {
    lamports: 1461600,
    data: [
      Buffer.concat([Buffer.alloc(36), Buffer.from([42, 0, 0, 0, 0, 0, 0, 0, 6, 1]), Buffer.alloc(36)]).toString(
        'base64',
      ),
      'base64',
    ],
    owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    executable: false,
    // biome-ignore lint/correctness/noPrecisionLoss: u64::MAX, as `solana account --output json` writes it
    rentEpoch: 18446744073709551615,
    space: 82,
  },
}

/** A fresh accounts directory holding the replayed mint (for `ephemeralSandboxOptions({ accountsDir })`). */
export function replayedMintDir(dir = join(mkdtempSync(join(tmpdir(), 'solsentry-accounts-')), 'accounts')): string {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'replayed.json'), JSON.stringify(REPLAYED_MINT))
  return dir
}
