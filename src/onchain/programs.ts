import { address, type Address } from '@solana/kit'

/**
 * Mainnet program ids and fixed addresses the scanner reads or recognises. One table: the layout
 * modules, the data layer and the sandbox all import these instead of restating base58 strings.
 * Each id is the program's own `declare_id!` (or IDL `address`) in the source named beside it.
 */

/** pump.fun bonding-curve launchpad (pump-fun/pump-public-docs idl/pump.json `address`). */
export const PUMP_PROGRAM_ADDRESS: Address = address('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P')
/** PumpSwap, the AMM pump.fun coins graduate to (pump-fun/pump-public-docs idl/pump_amm.json `address`). */
export const PUMP_AMM_PROGRAM_ADDRESS: Address = address('pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA')
/** Raydium AMM v4, the OpenBook-era constant-product AMM (raydium-io/raydium-amm program/src/lib.rs). */
export const RAYDIUM_AMM_V4_PROGRAM_ADDRESS: Address = address('675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8')
/**
 * The single authority PDA of every Raydium AMM v4 pool: `["amm authority"]` under the AMM v4 program
 * (raydium-io/raydium-amm processor.rs `AUTHORITY_AMM`). It owns the pool vaults and mints LP tokens.
 */
export const RAYDIUM_AMM_V4_AUTHORITY_ADDRESS: Address = address('5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1')
/** Raydium CPMM, the Anchor constant-product AMM (raydium-io/raydium-cp-swap programs/cp-swap/src/lib.rs). */
export const RAYDIUM_CPMM_PROGRAM_ADDRESS: Address = address('CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C')
/** Raydium CLMM, concentrated liquidity (raydium-io/raydium-clmm programs/amm/src/lib.rs). */
export const RAYDIUM_CLMM_PROGRAM_ADDRESS: Address = address('CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK')
/** Raydium LaunchLab, the bonding curve behind bonk.fun and other launchpads. */
export const RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS: Address = address('LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj')
/** Orca Whirlpools (orca-so/whirlpools programs/whirlpool/src/lib.rs). */
export const ORCA_WHIRLPOOL_PROGRAM_ADDRESS: Address = address('whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc')
/** Meteora DLMM, liquidity book (MeteoraAg/dlmm-sdk idls/dlmm.json `address`). */
export const METEORA_DLMM_PROGRAM_ADDRESS: Address = address('LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo')
/** Meteora DAMM v2, the `cp-amm` program (MeteoraAg/damm-v2 programs/cp-amm/src/lib.rs). */
export const METEORA_DAMM_V2_PROGRAM_ADDRESS: Address = address('cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG')
/** Jupiter Lock (also branded Meteora Lock): token vesting and lock escrows (jup-ag/jup-lock programs/locker/src/lib.rs). */
export const JUPITER_LOCK_PROGRAM_ADDRESS: Address = address('LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn')
/** Raydium liquidity locking ("Burn & Earn") for CPMM LP and CLMM positions (raydium-io/raydium-cpi programs/locking-cpi/src/lib.rs). */
export const RAYDIUM_LOCK_PROGRAM_ADDRESS: Address = address('LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE')
/**
 * The Raydium lock program's CPMM authority, PDA `["lock_cp_authority_seed"]`: its associated account of
 * an LP mint holds every Burn & Earn lock of that pool (raydium-io/raydium-sdk-V2 `LOCK_CPMM_AUTH`).
 */
export const RAYDIUM_LOCK_CPMM_AUTHORITY_ADDRESS: Address = address('3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH')
/** Meteora DAMM v1 (dynamic AMM), whose `LockEscrow` accounts hold permanently locked LP (MeteoraAg/damm-v1-sdk). */
export const METEORA_DAMM_V1_PROGRAM_ADDRESS: Address = address('Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB')
/** Metaplex Token Metadata (metaplex-foundation/mpl-token-metadata programs/token-metadata/program/src/lib.rs). */
export const TOKEN_METADATA_PROGRAM_ADDRESS: Address = address('metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s')
/** SPL Token, the original token program. */
export const TOKEN_PROGRAM_ADDRESS: Address = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
/** SPL Token-2022, the token program with extensions. */
export const TOKEN_2022_PROGRAM_ADDRESS: Address = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
/** SPL Associated Token Account program: derives each wallet's canonical token account per mint. */
export const ASSOCIATED_TOKEN_PROGRAM_ADDRESS: Address = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL')
/**
 * The System Program. Its id is also the all-zero public key, `Pubkey::default()`, which the layouts
 * use for "no address" (an unset creator, a pump coin's SOL quote mint, an empty reward slot).
 */
export const SYSTEM_PROGRAM_ADDRESS: Address = address('11111111111111111111111111111111')
/** SPL Memo v2, the memo program current wallets and the x402 exact scheme use. */
export const MEMO_PROGRAM_ADDRESS: Address = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')
/** SPL Memo v1, still accepted on mainnet and seen in older transactions. */
export const MEMO_V1_PROGRAM_ADDRESS: Address = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo')
/** Wrapped SOL mint: the quote mint of SOL-paired pools. */
export const WRAPPED_SOL_MINT_ADDRESS: Address = address('So11111111111111111111111111111111111111112')
/** Circle's USDC on Solana mainnet (FACTS.md). */
export const USDC_MINT_ADDRESS: Address = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')
/** Tether's USDT on Solana mainnet. */
export const USDT_MINT_ADDRESS: Address = address('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')

/**
 * The incinerator (`solana_program::incinerator::ID`): no key can sign for it, and the runtime burns
 * lamports sent to it at the end of each block, so tokens held in its token accounts are gone for good.
 * Sending LP tokens here is the usual "burn by transfer".
 */
export const INCINERATOR_ADDRESS: Address = address('1nc1nerator11111111111111111111111111111111')

/**
 * Owners whose token accounts count as burnt: no private key exists for either, so nothing held by them
 * can move again. The all-zero key is here because tokens "sent to 1111…1111" sit in an account whose
 * owner can never sign. LP burnt with the token program's `Burn` instruction needs no entry: it
 * leaves the supply altogether.
 */
export const BURN_ADDRESSES: readonly Address[] = [INCINERATOR_ADDRESS, SYSTEM_PROGRAM_ADDRESS]
