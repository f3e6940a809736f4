/**
 * The Jupiter swap API a test file runs on (`JUPITER_SWAP_API`, docs/trade.md): the service's default,
 * Swap API v2, unless `JUPITER_SWAP_API=v1 bun test <file>` runs the file on v1. The files that run on
 * either pass these settings to the service they start.
 */
export const SWAP_API: 'v2' | 'v1' = process.env.JUPITER_SWAP_API === 'v1' ? 'v1' : 'v2'

/** The settings that start a service on `SWAP_API`. */
export const SWAP_API_SETTINGS = { JUPITER_SWAP_API: SWAP_API }

/** The aggregator request a price (the exit check's sale, the trade idea's) asks on `SWAP_API`. */
export const PRICE_PATH = SWAP_API === 'v2' ? '/swap/v2/order' : '/swap/v1/quote'
