import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  AuthorityType,
  getBurnCheckedInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeAccount3Instruction,
  getInitializeMint2Instruction,
  getMintToCheckedInstruction,
  getSetAuthorityInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token'
import {
  getAddressEncoder,
  getProgramDerivedAddress,
  lamports,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type TransactionSigner,
} from '@solana/kit'
import { associatedTokenAddress, trusted as address } from './addresses.ts'
import { base58Decode, base58Encode } from '../chain/base58.ts'
import { Chain } from '../chain/chain.ts'
import { Faucet } from '../chain/faucet.ts'
import {
  isTokenAccountData,
  MINT_SIZE,
  readMint,
  readTokenAccount,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM,
} from '../chain/token-balances.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from '../../src/onchain/programs.ts'
import { buildPartiallySigned, execute } from '../chain/transactions.ts'
import { namedSigner } from '../keys.ts'
import { PoolBook, type Pool, type PoolKind, type Trade } from './pool-book.ts'
import { NATIVE_MINT, payoutTransfer, swapInstructions, vaultSignersOf, withReadonlyAccounts } from './swap.ts'
import { emitLaunchpadEvents, pumpCoinUri } from './launchpad-events.ts'
import { STATEFUL_VENUES } from './venues.ts'

/** Whole SOL (possibly fractional) in lamports. */
export function solToLamports(sol: number): bigint {
  return BigInt(Math.round(sol * 1e9))
}
/** Byte offsets in an SPL token account (base layout, shared by Token-2022). */
const DELEGATE_OPTION_OFFSET = 72
const DELEGATED_AMOUNT_OFFSET = 121
/** SPL Token's Multisig account: m, n, is_initialized, then 11 members of 32 bytes. */
const MULTISIG_SIZE = 355
const MULTISIG_SIGNERS_OFFSET = 3
const MULTISIG_MAX_SIGNERS = 11
const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'
/** An address lookup table's metadata before its addresses. */
const LOOKUP_TABLE_META_SIZE = 56

/** A token the world created, with what discovery and the token list say about it. */
export interface TokenRecord {
  mint: string
  name: string
  symbol: string
  decimals: number
  program: string
  /** Token-list tags (`verified`, `strict`, `community`, `lst`, `stocks`): what Jupiter's token list reports. */
  tags: string[]
  logoURI: string | null
}

export interface MintSpec {
  /** Key name: the mint's keypair is derived from it. */
  key: string
  name: string
  symbol: string
  decimals: number
  mintAuthority: TransactionSigner
  freezeAuthority?: Address | null
  /**
   * Token-2022 mints: the account size, the extension instructions that precede InitializeMint2, and
   * those that follow it in the same transaction (token metadata, which reallocates: fund `fundedSpace`).
   */
  token2022?: {
    space: number
    fundedSpace?: number
    extensions: (mint: Address) => Instruction[]
    after?: (mint: Address) => Instruction[]
  }
  tags?: string[]
  /**
   * Accounts a program creates alongside the mint in the same transaction (the Metaplex metadata PDA):
   * funded here with their rent, their data written by the caller (the program cannot run offline).
   */
  alongside?: { address: Address; lamports: bigint }[]
}

export interface PoolSpec {
  /** Key name: vault and pool keypairs derive from it. */
  key: string
  kind: PoolKind
  baseMint: string
  quoteMint: string
  /** Reserves deposited by the provider at creation. */
  baseAmount: bigint
  quoteAmount: bigint
  provider: KeyPairSigner
  feeBps: number
  /** What the provider does with the LP tokens of a traditional AMM. */
  lp?: 'burn' | 'keep'
  /** Virtual reserves added when pricing (a bonding curve). */
  virtualBase?: bigint
  virtualQuote?: bigint
  /** The wallet that launched the pool (a bonding curve records its creator). */
  creator?: string
  /** Base tokens in the vault that the pool never sells (a bonding curve's migration reserve). */
  reservedBase?: bigint
}

/** Writes a venue's pool account and says who owns its vaults; one per pool kind (see venues.ts). */
export type VenueWriter = (
  world: World,
  pool: Omit<Pool, 'address' | 'baseVault' | 'quoteVault'> & { key: string; creator?: string },
) => Promise<{
  address: string
  vaultOwner: string
  /** Vaults at fixed addresses (associated token accounts of the pool); otherwise keypair accounts are made. */
  vaults?: { base: string; quote: string }
  /** Writes the pool account once the vaults and LP mint exist. */
  write(pool: Pool, lpSupply: bigint): void
}>

/**
 * The sandbox world: the chain, its faucet and pool operator, the pools and the tokens, with the
 * builders scenarios use. Everything a builder does is a real transaction, except writing state
 * owned by programs that cannot run offline (pool and bonding-curve accounts, metadata, a vault's
 * delegate), which goes through setAccount.
 */
export class World {
  readonly tokens = new Map<string, TokenRecord>()
  readonly pools: PoolBook
  /** The sandbox's USDC mint (set when the world's base assets are created). */
  usdcMint = ''
  readonly #signers = new Map<string, Promise<KeyPairSigner>>()
  /** Pools whose account carries price state: rewritten after every trade. */
  readonly #statefulPools = new Map<string, { write(pool: Pool, lpSupply: bigint): void; lpSupply: bigint }>()
  /** Each pool's address lookup table, by pool address (lookupTableOf). */
  readonly #lookupTables = new Map<string, { table: string; addresses: string[] }>()

  private constructor(
    readonly chain: Chain,
    readonly faucet: Faucet,
    /** Delegate of every pool vault: signs the pool's side of each swap. */
    readonly operator: KeyPairSigner,
    readonly venues: Record<PoolKind, VenueWriter>,
  ) {
    this.pools = new PoolBook(chain)
    this.pools.onTrade((_trade, pool) => {
      const venue = this.#statefulPools.get(pool.address)
      venue?.write(pool, venue.lpSupply)
    })
    emitLaunchpadEvents(chain, this.pools, (mint) => {
      const token = this.tokens.get(mint)
      return { name: token?.name ?? '', symbol: token?.symbol ?? '', uri: pumpCoinUri(mint) }
    })
  }

  static async create(options: { genesisUnixS: number; venues: Record<PoolKind, VenueWriter> }): Promise<World> {
    const chain = new Chain({ genesisUnixS: options.genesisUnixS })
    const faucet = new Faucet(chain, await namedSigner('faucet'))
    const operator = await namedSigner('pool-operator')
    const world = new World(chain, faucet, operator, options.venues)
    world.tokens.set(NATIVE_MINT, {
      mint: NATIVE_MINT,
      name: 'Wrapped SOL',
      symbol: 'SOL',
      decimals: 9,
      program: TOKEN_PROGRAM,
      tags: ['verified'],
      logoURI: null,
    })
    await world.fund(operator.address, 10)
    return world
  }

  /** The deterministic keypair called `name` (cached). */
  signer(name: string): Promise<KeyPairSigner> {
    let signer = this.#signers.get(name)
    if (!signer) {
      signer = namedSigner(name)
      this.#signers.set(name, signer)
    }
    return signer
  }

  /**
   * The world's own key for `address`, if any name it derived so far has it (scenario keys are derived
   * while the world is built): how the rug controls sign as a scenario's developer or authority.
   */
  async signerOf(address: string): Promise<KeyPairSigner | undefined> {
    for (const signer of this.#signers.values()) {
      const resolved = await signer
      if (resolved.address === address) return resolved
    }
    return undefined
  }

  /** Sends `sol` SOL from the faucet in a real transfer. */
  async fund(to: string, sol: number): Promise<string> {
    return this.faucet.airdrop(to, solToLamports(sol))
  }

  /** A wallet derived from `name`, funded with `sol` SOL from `funder` (a signer) or the faucet. */
  async wallet(name: string, sol: number, funder?: KeyPairSigner): Promise<KeyPairSigner> {
    const wallet = await this.signer(name)
    if (sol > 0) {
      if (funder) await this.transferSol(funder, wallet.address, sol)
      else await this.fund(wallet.address, sol)
    }
    return wallet
  }

  async transferSol(from: KeyPairSigner, to: string, sol: number): Promise<string> {
    const { getTransferSolInstruction } = await import('@solana-program/system')
    const amount = lamports(solToLamports(sol))
    return (
      await execute(this.chain, from, [getTransferSolInstruction({ source: from, destination: address(to), amount })])
    ).signature
  }

  /** Creates and initialises a mint (Token, or Token-2022 with extensions) in one transaction. */
  async createMint(spec: MintSpec, payer: KeyPairSigner): Promise<Address> {
    const mint = await this.signer(`mint:${spec.key}`)
    const program = spec.token2022 ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM
    const space = spec.token2022?.space ?? MINT_SIZE
    const funded = spec.token2022?.fundedSpace ?? space
    await execute(this.chain, payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: mint,
        lamports: lamports(this.chain.svm.minimumBalanceForRentExemption(BigInt(funded))),
        space,
        programAddress: address(program),
      }),
      ...(spec.alongside ?? []).map((account) =>
        getTransferSolInstruction({ source: payer, destination: account.address, amount: lamports(account.lamports) }),
      ),
      ...(spec.token2022?.extensions(mint.address) ?? []),
      getInitializeMint2Instruction(
        {
          mint: mint.address,
          decimals: spec.decimals,
          mintAuthority: spec.mintAuthority.address,
          freezeAuthority: spec.freezeAuthority ?? null,
        },
        { programAddress: address(program) },
      ),
      ...(spec.token2022?.after?.(mint.address) ?? []),
    ])
    this.tokens.set(mint.address, {
      mint: mint.address,
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      program,
      tags: spec.tags ?? [],
      logoURI: null,
    })
    return mint.address
  }

  token(mint: string): TokenRecord {
    const token = this.tokens.get(mint)
    if (!token) throw new Error(`unknown sandbox token ${mint}`)
    return token
  }

  /** The associated token account of `owner` for `mint`. */
  async ata(mint: string, owner: string): Promise<Address> {
    return associatedTokenAddress(mint, owner, this.token(mint).program)
  }

  /** Mints `amount` (atomic) to `owner`'s associated account, creating it. */
  async mintTo(
    mint: string,
    owner: string,
    amount: bigint,
    authority: KeyPairSigner,
    payer = authority,
  ): Promise<Address> {
    const token = this.token(mint)
    const ata = await this.ata(mint, owner)
    await execute(this.chain, payer, [
      this.#createAta(payer, ata, owner, token),
      getMintToCheckedInstruction(
        { mint: address(mint), token: ata, mintAuthority: authority, amount, decimals: token.decimals },
        { programAddress: address(token.program) },
      ),
    ])
    return ata
  }

  /** Transfers `amount` (atomic) between associated accounts, creating the destination. */
  async transfer(mint: string, from: KeyPairSigner, to: string, amount: bigint, payer = from): Promise<string> {
    const token = this.token(mint)
    const destination = await this.ata(mint, to)
    const outcome = await execute(this.chain, payer, [
      this.#createAta(payer, destination, to, token),
      getTransferCheckedInstruction(
        {
          source: await this.ata(mint, from.address),
          mint: address(mint),
          destination,
          authority: from,
          amount,
          decimals: token.decimals,
        },
        { programAddress: address(token.program) },
      ),
    ])
    return outcome.signature
  }

  /** Burns `amount` from `owner`'s associated account. */
  async burn(mint: string, owner: KeyPairSigner, amount: bigint): Promise<string> {
    const token = this.token(mint)
    const account = await this.ata(mint, owner.address)
    const instruction = getBurnCheckedInstruction(
      { account, mint: address(mint), authority: owner, amount, decimals: token.decimals },
      { programAddress: address(token.program) },
    )
    return (await execute(this.chain, owner, [instruction])).signature
  }

  /** Sets or revokes (`null`) a mint's mint or freeze authority. */
  async setMintAuthority(
    mint: string,
    kind: 'mint' | 'freeze',
    current: KeyPairSigner,
    next: Address | null,
  ): Promise<string> {
    const instruction = getSetAuthorityInstruction(
      {
        owned: address(mint),
        owner: current,
        authorityType: kind === 'mint' ? AuthorityType.MintTokens : AuthorityType.FreezeAccount,
        newAuthority: next,
      },
      { programAddress: address(this.token(mint).program) },
    )
    return (await execute(this.chain, current, [instruction])).signature
  }

  /** Runs instructions signed by `payer` (and any signer inside them). */
  async run(payer: KeyPairSigner, instructions: Instruction[]): Promise<string> {
    return (await execute(this.chain, payer, instructions)).signature
  }

  /**
   * Creates a pool: vaults owned by the venue's authority with the operator as delegate, the
   * provider's deposit (which names the pool account, so the pool's history starts with it), the LP mint (traditional AMMs) and what the provider does with its LP
   * tokens, then the pool account in the venue's layout.
   */
  async createPool(spec: PoolSpec): Promise<Pool> {
    const base = this.token(spec.baseMint)
    const quote = this.token(spec.quoteMint)
    const kind = spec.kind
    const traditional = kind === 'raydium-amm-v4' || kind === 'pumpswap'
    const draft = {
      key: spec.key,
      kind,
      programId: '',
      dexId: '',
      labels: [] as string[],
      baseMint: spec.baseMint,
      quoteMint: spec.quoteMint,
      baseDecimals: base.decimals,
      quoteDecimals: quote.decimals,
      baseTokenProgram: base.program,
      quoteTokenProgram: quote.program,
      feeBps: spec.feeBps,
      createdAtUnixS: Math.floor(this.chain.unixS),
      virtualBase: spec.virtualBase ?? 0n,
      virtualQuote: spec.virtualQuote ?? 0n,
      creator: spec.creator,
      reservedBase: spec.reservedBase ?? 0n,
    }
    const venue = await this.venues[kind](this, draft)
    const payer = spec.provider
    const vaults = venue.vaults ?? {
      base: (await this.signer(`${spec.key}:base-vault`)).address,
      quote: (await this.signer(`${spec.key}:quote-vault`)).address,
    }
    // Token-2022 vaults are associated accounts: the ATA program sizes them for the mint's extensions.
    if (!venue.vaults && base.program !== TOKEN_PROGRAM) vaults.base = await this.ata(base.mint, venue.vaultOwner)
    if (!venue.vaults && quote.program !== TOKEN_PROGRAM) vaults.quote = await this.ata(quote.mint, venue.vaultOwner)
    for (const [side, vault] of [
      ['base', vaults.base],
      ['quote', vaults.quote],
    ] as const) {
      const token = side === 'base' ? base : quote
      if (venue.vaults || token.program !== TOKEN_PROGRAM) {
        await execute(this.chain, payer, [this.#createAta(payer, address(vault), venue.vaultOwner, token)])
      } else {
        const account = await this.signer(`${spec.key}:${side}-vault`)
        const space = TOKEN_ACCOUNT_SIZE
        await execute(this.chain, payer, [
          getCreateAccountInstruction({
            payer,
            newAccount: account,
            lamports: lamports(this.chain.svm.minimumBalanceForRentExemption(BigInt(space))),
            space,
            programAddress: address(token.program),
          }),
          getInitializeAccount3Instruction(
            { account: account.address, mint: address(token.mint), owner: address(venue.vaultOwner) },
            { programAddress: address(token.program) },
          ),
        ])
      }
      await this.#delegateVault(vault, token.program)
    }
    const pool: Pool = {
      ...draft,
      address: venue.address,
      baseVault: vaults.base,
      quoteVault: vaults.quote,
    }
    delete (pool as Partial<typeof draft>).key
    delete (pool as Partial<typeof draft>).creator
    this.pools.add(pool)

    // The deposit: real transfers from the provider into the vaults (SOL is wrapped first).
    await this.#deposit(spec.provider, pool, spec.baseAmount, spec.quoteAmount)
    let lpSupply = 0n
    if (traditional) {
      lpSupply = integerSqrt(spec.baseAmount * spec.quoteAmount)
      // The venue makes the LP mint (on mainnet its program does, inside the deposit), so the operator
      // creates it and mints the provider's LP, then hands the mint authority to the venue's authority.
      const lpMint = await this.createMint(
        {
          key: `${spec.key}:lp`,
          name: `${base.symbol}-${quote.symbol} LP`,
          symbol: 'LP',
          decimals: base.decimals,
          mintAuthority: this.operator,
        },
        this.operator,
      )
      pool.lpMint = lpMint
      await this.mintTo(lpMint, payer.address, lpSupply, this.operator)
      await this.setMintAuthority(lpMint, 'mint', this.operator, address(venue.vaultOwner))
      if (spec.lp === 'burn') await this.burn(lpMint, payer, lpSupply)
    }
    venue.write(pool, lpSupply)
    if (STATEFUL_VENUES.has(kind)) this.#statefulPools.set(pool.address, { write: venue.write, lpSupply })
    return pool
  }

  /**
   * Withdraws `fraction` of both reserves to `provider` (the operator moves the vaults, as the venue
   * program would on a withdrawal), burning the same fraction of the provider's LP tokens when it holds any.
   * Each payout names the pool (read-only), as a venue's withdrawal instruction does: a `logsSubscribe
   * {mentions: [pool]}` or the pool's signature history sees the withdrawal, as on mainnet.
   */
  async removeLiquidity(pool: Pool, provider: KeyPairSigner, fraction: number): Promise<string> {
    const reserves = this.pools.realReserves(pool)
    const scale = (amount: bigint) => (amount * BigInt(Math.round(fraction * 1_000_000))) / 1_000_000n
    const instructions: Instruction[] = []
    for (const [mint, vault, amount] of [
      [pool.baseMint, pool.baseVault, scale(reserves.base)],
      [pool.quoteMint, pool.quoteVault, scale(reserves.quote)],
    ] as const) {
      const token = this.token(mint)
      const destination = await this.ata(mint, provider.address)
      instructions.push(
        this.#createAta(provider, destination, provider.address, token),
        withReadonlyAccounts(
          await payoutTransfer(
            { vault, mint, program: token.program, decimals: token.decimals },
            destination,
            amount,
            this.operator,
          ),
          [pool.address],
        ),
      )
    }
    if (pool.lpMint) {
      const lp = this.chain.getAccount(await this.ata(pool.lpMint, provider.address))
      const held = lp ? readTokenAccount(lp.data).amount : 0n
      if (held > 0n)
        instructions.push(
          getBurnCheckedInstruction({
            account: await this.ata(pool.lpMint, provider.address),
            mint: address(pool.lpMint),
            authority: provider,
            amount: scale(held),
            decimals: this.token(pool.lpMint).decimals,
          }),
        )
    }
    return this.run(provider, instructions)
  }

  /**
   * Swaps `amountIn` of `inputMint` on `pool` for `user` at the pool's current price, signed by the
   * user and the operator; the trade is read back from the chain by the pool book.
   */
  async swap(user: KeyPairSigner, pool: Pool, inputMint: string, amountIn: bigint): Promise<Trade> {
    const quote = this.pools.quote(pool, inputMint, amountIn)
    if (quote.amountOut === 0n) throw new Error(`pool ${pool.address} cannot pay out for ${amountIn} of ${inputMint}`)
    const instructions = await swapInstructions({
      pool,
      user,
      inputMint,
      amountIn,
      amountOut: quote.amountOut,
      operator: this.operator,
    })
    const outcome = await execute(this.chain, user, instructions)
    const trade = this.pools.tradesOf(pool.address).at(-1)
    if (!trade || trade.signature !== outcome.signature)
      throw new Error(`swap ${outcome.signature} did not register as a trade`)
    return trade
  }

  /**
   * A swap transaction for `user` to sign: paid by the user, the pool's side already signed by the
   * operator, the user's signature slot empty (what an aggregator's swap endpoint returns).
   */
  async unsignedSwap(
    user: Address,
    pool: Pool,
    inputMint: string,
    amountIn: bigint,
    amountOut: bigint,
    trackingAccount?: string,
  ) {
    const instructions = await swapInstructions({
      pool,
      user,
      inputMint,
      amountIn,
      amountOut,
      operator: this.operator,
      trackingAccount,
    })
    return buildPartiallySigned(this.chain, user, instructions)
  }

  async #deposit(provider: KeyPairSigner, pool: Pool, baseAmount: bigint, quoteAmount: bigint): Promise<void> {
    const { getTransferSolInstruction } = await import('@solana-program/system')
    const { getSyncNativeInstruction } = await import('@solana-program/token')
    for (const [mint, vault, amount] of [
      [pool.baseMint, pool.baseVault, baseAmount],
      [pool.quoteMint, pool.quoteVault, quoteAmount],
    ] as const) {
      if (amount === 0n) continue
      const token = this.token(mint)
      const source = await this.ata(mint, provider.address)
      const sourceAccount = this.chain.getAccount(source)
      const wrapped = sourceAccount ? readTokenAccount(sourceAccount.data).amount : 0n
      if (mint === NATIVE_MINT && wrapped < amount) {
        // Wrapped SOL: lamports into the vault, then SyncNative credits them as tokens.
        await execute(this.chain, provider, [
          getTransferSolInstruction({ source: provider, destination: address(vault), amount: lamports(amount) }),
          withReadonlyAccounts(getSyncNativeInstruction({ account: address(vault) }), [pool.address]),
        ])
        continue
      }
      await execute(this.chain, provider, [
        withReadonlyAccounts(
          getTransferCheckedInstruction(
            {
              source,
              mint: address(mint),
              destination: address(vault),
              authority: provider,
              amount,
              decimals: token.decimals,
            },
            { programAddress: address(token.program) },
          ),
          [pool.address],
        ),
      ])
    }
  }

  /**
   * Makes the vault's signer set (vaultSignersOf: a 1-of-n multisig whose first member is the operator)
   * the vault's delegate for any amount. The vault's owner is the venue's program authority, which cannot
   * sign offline, so this token-account field, and the multisig, are written with setAccount.
   */
  async #delegateVault(vault: string, program: string): Promise<void> {
    const account = this.chain.getAccount(vault)
    if (!account || !isTokenAccountData(account.programAddress, account.data))
      throw new Error(`vault ${vault} is not a token account`)
    const signers = await vaultSignersOf(vault, program)
    this.#writeSignerSet(signers, program, [this.operator.address])
    const data = Uint8Array.from(account.data)
    const view = new DataView(data.buffer)
    view.setUint32(DELEGATE_OPTION_OFFSET, 1, true)
    data.set(base58Decode(signers), DELEGATE_OPTION_OFFSET + 4)
    view.setBigUint64(DELEGATED_AMOUNT_OFFSET, 0xffff_ffff_ffff_ffffn, true)
    this.chain.setAccount({ ...account, data })
  }

  /**
   * The pool's address lookup table (made on first use): the accounts every swap on the pool names and
   * no one signs for — the pool, its vaults and their signer sets, the mints and their programs — as
   * Jupiter's answers map theirs (`addressesByLookupTableAddress`). The Address Lookup Table program's
   * account is written with setAccount (creating one needs a recent slot the offline chain's SlotHashes
   * does not hold), active, with no authority left to extend or close it.
   */
  async lookupTableOf(pool: Pool): Promise<{ table: string; addresses: string[] }> {
    const known = this.#lookupTables.get(pool.address)
    if (known) return known
    const [table] = await getProgramDerivedAddress({
      programAddress: address(ADDRESS_LOOKUP_TABLE_PROGRAM),
      seeds: ['sandbox-pool-table', getAddressEncoder().encode(address(pool.address))],
    })
    const addresses = [
      ...new Set([
        pool.address,
        pool.baseVault,
        pool.quoteVault,
        await vaultSignersOf(pool.baseVault, pool.baseTokenProgram),
        await vaultSignersOf(pool.quoteVault, pool.quoteTokenProgram),
        pool.baseMint,
        pool.quoteMint,
        pool.baseTokenProgram,
        pool.quoteTokenProgram,
      ]),
    ]
    const data = new Uint8Array(LOOKUP_TABLE_META_SIZE + 32 * addresses.length)
    const view = new DataView(data.buffer)
    view.setUint32(0, 1, true) // ProgramState::LookupTable
    view.setBigUint64(4, 0xffff_ffff_ffff_ffffn, true) // deactivation slot: never
    // last_extended_slot 0 and its start index 0: every address is active from slot 1 on; authority None.
    for (const [index, entry] of addresses.entries()) data.set(base58Decode(entry), LOOKUP_TABLE_META_SIZE + 32 * index)
    this.chain.setAccount({
      address: table,
      programAddress: address(ADDRESS_LOOKUP_TABLE_PROGRAM),
      lamports: lamports(this.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))),
      executable: false,
      data,
    })
    const made = { table, addresses }
    this.#lookupTables.set(pool.address, made)
    return made
  }

  /**
   * Admits `taker` to the signer set of the vault that pays out in a swap, so the swap's transaction
   * needs the taker's signature alone (what a Swap API v2 `/build` answer's instructions need on
   * mainnet, where the venue's program signs for its vaults). The set keeps the operator and the most
   * recent takers (an SPL multisig holds 11 members).
   */
  async admitPayoutSigner(vault: string, program: string, taker: string): Promise<void> {
    const signers = await vaultSignersOf(vault, program)
    const account = this.chain.getAccount(signers)
    if (!account) throw new Error(`vault ${vault} has no signer set`)
    const count = account.data[1]!
    const members = Array.from({ length: count }, (_, index) =>
      base58Encode(
        account.data.slice(MULTISIG_SIGNERS_OFFSET + 32 * index, MULTISIG_SIGNERS_OFFSET + 32 * (index + 1)),
      ),
    )
    if (members.includes(taker)) return
    const [operator, ...takers] = members
    this.#writeSignerSet(signers, program, [operator!, ...[...takers, taker].slice(-(MULTISIG_MAX_SIGNERS - 1))])
  }

  /** Writes an initialized 1-of-n SPL multisig account (m, n, initialized, then the members). */
  #writeSignerSet(signers: string, program: string, members: readonly string[]): void {
    const data = new Uint8Array(MULTISIG_SIZE)
    data.set([1, members.length, 1])
    for (const [index, member] of members.entries())
      data.set(base58Decode(member), MULTISIG_SIGNERS_OFFSET + 32 * index)
    this.chain.setAccount({
      address: address(signers),
      programAddress: address(program),
      lamports: lamports(this.chain.svm.minimumBalanceForRentExemption(BigInt(MULTISIG_SIZE))),
      executable: false,
      data,
    })
  }

  #createAta(
    payer: TransactionSigner,
    ata: Address,
    owner: string,
    token: { mint: string; program: string },
  ): Instruction {
    return getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata,
      owner: address(owner),
      mint: address(token.mint),
      tokenProgram: address(token.program),
    })
  }

  /** Supply and decimals of a mint, read from the chain. */
  mintState(mint: string): { supply: bigint; decimals: number } {
    const account = this.chain.getAccount(mint)
    if (!account) throw new Error(`no mint ${mint}`)
    return readMint(account.data)
  }
}

function integerSqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = BigInt(Math.floor(Math.sqrt(Number(value))))
  while (x * x > value) x--
  while ((x + 1n) * (x + 1n) <= value) x++
  return x
}
