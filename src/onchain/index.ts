/**
 * Exact binary layouts of the mainnet accounts the scanner reads: one codec per account type (encode
 * for the sandbox's `setAccount`, decode for RPC data), the program ids, and the PDAs that locate the
 * accounts. Every layout names the source it was checked against in its module.
 */
export * from './programs.ts'
export * from './anchor.ts'
export * from './pda.ts'
export * from './pump.ts'
export * from './pump-amm.ts'
export * from './raydium-amm-v4.ts'
export * from './raydium-cpmm.ts'
export * from './orca-whirlpool.ts'
export * from './meteora-dlmm.ts'
export * from './meteora-damm-v2.ts'
export * from './metaplex-metadata.ts'
