import { describe, expect, test } from 'bun:test'
import { diffSnapshots } from './snapshot-diff.ts'
import { type SubjectSnapshot, snapshotFromJson, snapshotToJson } from './subject-snapshot.ts'
import { DEFAULT_THRESHOLDS, resolveThresholds } from './thresholds.ts'
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { transactionEvents } from './transaction-evidence.ts'
import { DETECTED_KINDS, eventIdOf, type EventKind } from './watch-events.ts'

const NOW = 1_800_000_000
const POOL = 'Pool1111111111111111111111111111111111111111'
const LOCK = 'Lock1111111111111111111111111111111111111111'
const DEV_ACCOUNT = 'DevAcct111111111111111111111111111111111111'

/** A calm token: authorities revoked, one pool with its LP half locked, a developer holding 10%. */
function base(overrides: Partial<SubjectSnapshot> = {}): SubjectSnapshot {
  return {
    mint: 'Mint111111111111111111111111111111111111111',
    slot: 100,
    readAt: NOW * 1000,
    token: {
      supply: 1_000_000_000n,
      mintAuthority: null,
      freezeAuthority: null,
      transferFee: null,
      transferHook: null,
      permanentDelegate: null,
      defaultAccountState: null,
      paused: null,
    },
    metadata: { name: 'Calm Token', symbol: 'CALM', uri: 'https://calm.example/meta.json' },
    impersonates: null,
    pools: [
      {
        address: POOL,
        venue: 'Raydium CPMM',
        quoteMint: 'So11111111111111111111111111111111111111112',
        tokenReserve: 500_000_000n,
        quoteReserve: 100_000_000_000n,
        lp: { mint: 'LpMint11111111111111111111111111111111111111', supply: 1_000_000n },
        locks: [
          {
            account: LOCK,
            owner: 'Escrow1111111111111111111111111111111111111',
            kind: 'locker',
            program: 'jupiter_lock',
            permanent: false,
            unlocksAt: NOW + 30 * 86_400,
            amount: 500_000n,
          },
        ],
      },
    ],
    insiders: [
      {
        wallet: 'Dev1111111111111111111111111111111111111111',
        role: 'developer',
        account: DEV_ACCOUNT,
        amount: 100_000_000n,
      },
    ],
    ...overrides,
  }
}

/** `after` as `before` changed by `change` (a deep copy, so the two never share state). */
function changed(change: (after: SubjectSnapshot) => void, from = base()): SubjectSnapshot {
  const copy = structuredClone(from)
  copy.slot = from.slot + 1
  change(copy)
  return copy
}

const kinds = (before: SubjectSnapshot, after: SubjectSnapshot, context = { now: NOW }): [string, string][] =>
  diffSnapshots(before, after, DEFAULT_THRESHOLDS, context).map((event) => [event.kind, event.severity])

describe('the diff of two snapshots: one case per event kind', () => {
  const cases: [string, (after: SubjectSnapshot) => void, [EventKind, string][]][] = [
    ['nothing changed', () => {}, []],
    [
      'supply up: mint used',
      (after) => {
        after.token.supply = 1_200_000_000n
      },
      [['mint_used', 'critical']],
    ],
    [
      'a mint authority appears',
      (after) => {
        after.token.mintAuthority = 'New1111111111111111111111111111111111111111'
      },
      [['mint_authority_changed', 'high']],
    ],
    [
      'a freeze authority appears',
      (after) => {
        after.token.freezeAuthority = 'New1111111111111111111111111111111111111111'
      },
      [['freeze_authority_changed', 'high']],
    ],
    [
      'a transfer fee of 2% is raised to 5%',
      (after) => {
        after.token.transferFee = { basisPoints: 200, newerBasisPoints: 500, maximumFee: 10n }
      },
      [['transfer_fee_raised', 'high']],
    ],
    [
      'a transfer fee raised to 25%: critical',
      (after) => {
        after.token.transferFee = { basisPoints: 2_500, newerBasisPoints: 2_500, maximumFee: 10n }
      },
      [['transfer_fee_raised', 'critical']],
    ],
    [
      'a transfer hook set',
      (after) => {
        after.token.transferHook = 'Hook111111111111111111111111111111111111111'
      },
      [['transfer_hook_changed', 'critical']],
    ],
    [
      'accounts now start frozen',
      (after) => {
        after.token.defaultAccountState = 'frozen'
      },
      [['default_state_changed', 'high']],
    ],
    [
      'paused',
      (after) => {
        after.token.paused = true
      },
      [['paused', 'critical']],
    ],
    [
      'renamed',
      (after) => {
        after.metadata = { name: 'Calm Token v2', symbol: 'CALM2', uri: 'https://calm.example/2.json' }
      },
      [['metadata_renamed', 'medium']],
    ],
    [
      'renamed into a registered asset',
      (after) => {
        after.metadata = { name: 'USD Coin', symbol: 'USDC', uri: '' }
        after.impersonates = { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', name: 'USD Coin' }
      },
      [['metadata_renamed', 'critical']],
    ],
    [
      'both reserves down 40%: liquidity removed',
      (after) => {
        after.pools[0]!.tokenReserve = 300_000_000n
        after.pools[0]!.quoteReserve = 60_000_000_000n
      },
      [['liquidity_removed', 'high']],
    ],
    [
      'both reserves down 90%: critical',
      (after) => {
        after.pools[0]!.tokenReserve = 50_000_000n
        after.pools[0]!.quoteReserve = 10_000_000_000n
      },
      [['liquidity_removed', 'critical']],
    ],
    [
      'a large sale (tokens in, quote out) is not a removal',
      (after) => {
        after.pools[0]!.tokenReserve = 1_000_000_000n
        after.pools[0]!.quoteReserve = 50_000_000_000n
      },
      [],
    ],
    [
      'LP leaves its lock',
      (after) => {
        after.pools[0]!.locks[0]!.amount = 0n
      },
      [['lp_moved', 'critical']],
    ],
    [
      'the developer sells 60%',
      (after) => {
        after.insiders[0]!.amount = 40_000_000n
      },
      [['insider_selling', 'critical']],
    ],
    [
      'a top holder sells 25%',
      (after) => {
        after.insiders[0]!.role = 'top_holder'
        after.insiders[0]!.amount = 75_000_000n
      },
      [['insider_selling', 'high']],
    ],
    [
      'a top holder sells 10% (below the 20% default)',
      (after) => {
        after.insiders[0]!.role = 'top_holder'
        after.insiders[0]!.amount = 90_000_000n
      },
      [],
    ],
  ]
  for (const [name, change, expected] of cases)
    test(name, () => {
      const before = base()
      if (name === 'a top holder sells 25%' || name.startsWith('a top holder sells 10%'))
        before.insiders[0]!.role = 'top_holder'
      if (name.startsWith('a transfer fee of 2%'))
        before.token.transferFee = { basisPoints: 200, newerBasisPoints: 200, maximumFee: 10n }
      expect(kinds(before, changed(change, before))).toEqual(expected)
    })

  test('an authority revoked and a hook removed are good news: low', () => {
    const before = base()
    before.token.mintAuthority = 'Old1111111111111111111111111111111111111111'
    before.token.transferHook = 'Hook111111111111111111111111111111111111111'
    const after = changed((snapshot) => {
      snapshot.token.mintAuthority = null
      snapshot.token.transferHook = null
    }, before)
    expect(kinds(before, after)).toEqual([
      ['mint_authority_changed', 'low'],
      ['transfer_hook_changed', 'low'],
    ])
  })

  test('the lock expiring within 24 hours, then expired (time-based, no transaction)', () => {
    const before = base()
    before.pools[0]!.locks[0]!.unlocksAt = NOW + 3_600 * 5
    const expiring = diffSnapshots(before, before, DEFAULT_THRESHOLDS, { now: NOW })
    expect(expiring.map((event) => [event.kind, event.after.hours_left])).toEqual([['lp_lock_expiring', 5]])
    // A watch asking for 2 hours' notice is not told yet.
    const two = resolveThresholds({ lock_expiring_hours: 2 })
    expect(two.ok && diffSnapshots(before, before, two.thresholds, { now: NOW })).toEqual([])
    const later = diffSnapshots(before, before, DEFAULT_THRESHOLDS, { now: NOW + 3_600 * 6 })
    expect(later.map((event) => [event.kind, event.severity])).toEqual([['lp_unlocked', 'critical']])
    // Seen twice (the next tick), it is the same event: one id.
    const again = diffSnapshots(before, before, DEFAULT_THRESHOLDS, { now: NOW + 3_600 * 7 })
    expect(eventIdOf('w', again[0]!, null, 200)).toBe(eventIdOf('w', later[0]!, null, 100))
  })

  test('a removal split over transactions fires once, when the window’s total crosses the threshold', () => {
    const start = base()
    const step = (from: SubjectSnapshot, quote: bigint, token: bigint) =>
      changed((after) => {
        after.pools[0]!.quoteReserve = quote
        after.pools[0]!.tokenReserve = token
      }, from)
    const first = step(start, 85_000_000_000n, 425_000_000n) // −15%
    const second = step(first, 68_000_000_000n, 340_000_000n) // −20% of the rest: −32% in all
    const third = step(second, 60_000_000_000n, 300_000_000n) // −40% in all
    const context = { now: NOW, windowStart: start }
    expect(kinds(start, first, context)).toEqual([])
    const crossing = diffSnapshots(first, second, DEFAULT_THRESHOLDS, context)
    expect(crossing.map((event) => [event.kind, event.after.removed_pct, event.windowFrom])).toEqual([
      ['liquidity_removed', 32, 100],
    ])
    // Past the threshold already: the next step of the same window says nothing more.
    expect(kinds(second, third, context)).toEqual([])
  })

  test('an insider selling in slices is told once, when the window’s total crosses the threshold', () => {
    const start = base()
    start.insiders[0]!.role = 'top_holder'
    const sell = (from: SubjectSnapshot, amount: bigint) =>
      changed((after) => {
        after.insiders[0]!.amount = amount
      }, from)
    const first = sell(start, 90_000_000n) // −10%
    const second = sell(first, 78_000_000n) // −22% in all
    const third = sell(second, 70_000_000n) // −10% of the rest, −30% in all: past the threshold already
    const context = { now: NOW, windowStart: start }
    expect(kinds(start, first, context)).toEqual([])
    const crossing = diffSnapshots(first, second, DEFAULT_THRESHOLDS, context)
    expect(crossing.map((event) => [event.kind, event.severity, event.after.sold_pct, event.windowFrom])).toEqual([
      ['insider_selling', 'high', 22, 100],
    ])
    expect(kinds(second, third, context)).toEqual([])
  })

  test('per-watch thresholds: a 10% removal is told to a watch that asks from 5%', () => {
    const before = base()
    const after = changed((snapshot) => {
      snapshot.pools[0]!.quoteReserve = 90_000_000_000n
      snapshot.pools[0]!.tokenReserve = 450_000_000n
    })
    expect(kinds(before, after)).toEqual([])
    const tight = resolveThresholds({ liquidity_removed_pct: 5 })
    expect(tight.ok && diffSnapshots(before, after, tight.thresholds, { now: NOW }).map((event) => event.kind)).toEqual(
      ['liquidity_removed'],
    )
  })

  test('thresholds out of bounds or unknown are refused with the reason', () => {
    expect(resolveThresholds({ liquidity_removed_pct: 1 })).toEqual({
      ok: false,
      reason: 'liquidity_removed_pct must be a number from 5 to 95 (percent)',
    })
    expect(resolveThresholds({ nonsense: 3 })).toMatchObject({ ok: false })
    expect(resolveThresholds({})).toEqual({ ok: true, thresholds: DEFAULT_THRESHOLDS })
  })

  test('every event carries a sentence and its before/after; ids differ by transaction', () => {
    const before = base()
    const after = changed((snapshot) => {
      snapshot.token.supply = 2_000_000_000n
    })
    const [event] = diffSnapshots(before, after, DEFAULT_THRESHOLDS, { now: NOW })
    expect(event).toMatchObject({
      before: { supply: '1000000000' },
      after: { supply: '2000000000', minted: '1000000000', grown_pct: 100 },
    })
    expect(event!.sentence).toContain('supply grew by 100%')
    expect(eventIdOf('w', event!, 'sigA', 101)).not.toBe(eventIdOf('w', event!, 'sigB', 101))
    expect(eventIdOf('w', event!, 'sigA', 101)).toBe(eventIdOf('w', event!, 'sigA', 101))
  })

  test('the kinds the diff detects are each covered above, but those that come from transactions or probes', () => {
    // freeze_used and permanent_delegate_used are read from the transaction (transaction-evidence.ts);
    // sell_route_failing and grade_fell from the engine's probes (the aggregator, the quick scan).
    const elsewhere = ['freeze_used', 'permanent_delegate_used', 'sell_route_failing', 'grade_fell']
    const fromSnapshots = DETECTED_KINDS.filter((kind) => !elsewhere.includes(kind))
    expect(fromSnapshots.length).toBe(13)
  })
})

describe('events read from the transaction', () => {
  const DELEGATE = 'Dele1111111111111111111111111111111111111111'
  const MINT = 'Mint111111111111111111111111111111111111111'
  const freeze = (account: string, mint = MINT, program: string = TOKEN_PROGRAM_ADDRESS) => ({
    program,
    accounts: [account, mint, 'Auth111111111111111111111111111111111111111'],
    data: new Uint8Array([10]),
  })
  test('a freeze of two accounts of the mint; a transfer, or a freeze of another mint, says nothing', () => {
    const instructions = [
      freeze('HolderA111111111111111111111111111111111111'),
      freeze('HolderB111111111111111111111111111111111111'),
    ]
    expect(
      transactionEvents({ instructions, tokenAccounts: new Map(), decimals: null }, MINT, null).map((event) => [
        event.kind,
        event.after.accounts_frozen,
      ]),
    ).toEqual([['freeze_used', 2]])
    const transfer = { ...freeze('HolderA111111111111111111111111111111111111'), data: new Uint8Array([12]) }
    const elsewhere = freeze('HolderA111111111111111111111111111111111111', 'Other111111111111111111111111111111111111')
    const notToken = freeze(
      'HolderA111111111111111111111111111111111111',
      MINT,
      'Prog1111111111111111111111111111111111111111',
    )
    expect(
      transactionEvents(
        { instructions: [transfer, elsewhere, notToken], tokenAccounts: new Map(), decimals: null },
        MINT,
        null,
      ),
    ).toEqual([])
  })
  test('the permanent delegate as the authority of a transfer or burn out of a holder’s account; its own pool withdrawal, or a holder’s own sale, is not it', () => {
    const VICTIM = 'Victim11111111111111111111111111111111111111'
    const VICTIM_ACCOUNT = 'VictimAcc111111111111111111111111111111111'
    const POOL_VAULT = 'PoolVault11111111111111111111111111111111111'
    const POOL_AUTHORITY = 'PoolAuth1111111111111111111111111111111111111'
    const tokenAccounts = new Map([
      [VICTIM_ACCOUNT, VICTIM],
      [POOL_VAULT, POOL_AUTHORITY],
      ['DelegateAcc11111111111111111111111111111111', DELEGATE],
    ])
    const amount = (value: bigint) => {
      const bytes = new Uint8Array(8)
      new DataView(bytes.buffer).setBigUint64(0, value, true)
      return bytes
    }
    // TransferChecked: source, mint, destination, authority; amount then decimals.
    const transferChecked = (source: string, authority: string, value: bigint) => ({
      program: TOKEN_2022_PROGRAM_ADDRESS,
      accounts: [source, MINT, 'DelegateAcc11111111111111111111111111111111', authority],
      data: new Uint8Array([12, ...amount(value), 6]),
    })
    // BurnChecked: account, mint, authority.
    const burnChecked = (account: string, authority: string, value: bigint) => ({
      program: TOKEN_2022_PROGRAM_ADDRESS,
      accounts: [account, MINT, authority],
      data: new Uint8Array([15, ...amount(value), 6]),
    })
    const seized = transactionEvents(
      {
        instructions: [
          transferChecked(VICTIM_ACCOUNT, DELEGATE, 1_500_000n),
          burnChecked(VICTIM_ACCOUNT, DELEGATE, 500_000n),
        ],
        tokenAccounts,
        decimals: 6,
      },
      MINT,
      DELEGATE,
    )
    expect(seized.map((event) => [event.kind, event.after.owner, event.after.taken])).toEqual([
      ['permanent_delegate_used', VICTIM, '2000000'],
    ])
    expect(seized[0]!.sentence).toContain('moved and burned 2 tokens out of a holder’s account')
    // The developer (also the delegate) withdrawing its pool: the vault pays out under the pool's authority.
    expect(
      transactionEvents(
        { instructions: [transferChecked(POOL_VAULT, POOL_AUTHORITY, 9_000_000n)], tokenAccounts, decimals: 6 },
        MINT,
        DELEGATE,
      ),
    ).toEqual([])
    // The holder's own sale, and the delegate moving its own tokens.
    expect(
      transactionEvents(
        {
          instructions: [
            transferChecked(VICTIM_ACCOUNT, VICTIM, 1n),
            transferChecked('DelegateAcc11111111111111111111111111111111', DELEGATE, 1n),
          ],
          tokenAccounts,
          decimals: 6,
        },
        MINT,
        DELEGATE,
      ),
    ).toEqual([])
  })
})

test('a snapshot kept in the store reads back the same, its amounts bigints again (a name that looks like one stays text)', () => {
  const snapshot = base({ metadata: { name: '{"$n":"5"}', symbol: '5', uri: '' } })
  const text = snapshotToJson(snapshot)
  expect(snapshotFromJson(text)).toEqual(snapshot)
  expect(typeof snapshotFromJson(text).pools[0]!.locks[0]!.amount).toBe('bigint')
})
