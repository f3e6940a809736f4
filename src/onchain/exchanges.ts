/**
 * Known hot wallets of centralised exchanges on Solana: what makes a wallet's first funder "an
 * exchange" in POST /wallet/intel. The built-in list (`exchanges.json`, 155 addresses) names each
 * address's source (Dune's CEX address spellbook, Helius's explorer tags, Solscan labels, DefiLlama's
 * reserve lists; the label says how many agree); an operator adds entries with EXCHANGE_WALLETS. An
 * address not in the list is not said to be an exchange's.
 */
import { referenceFiles } from './reference-file.ts'
import BUILTIN from './exchanges.json' with { type: 'json' }
import { checkSolanaAddress } from './address.ts'

export interface ExchangeEntry {
  address: string
  exchange: string
  label: string
  source: string
}

export interface ExchangeListFile {
  version: string
  entries: ExchangeEntry[]
}

export class ExchangeListError extends Error {
  override name = 'ExchangeListError'
}

export class ExchangeList {
  readonly #byAddress = new Map<string, ExchangeEntry>()

  constructor(files: readonly { name: string; file: ExchangeListFile }[]) {
    for (const { name, file } of files) {
      if (!file || !Array.isArray(file.entries))
        throw new ExchangeListError(`${name}: must be { "version": "YYYY-MM-DD", "entries": [...] }`)
      for (const entry of file.entries) {
        if (!checkSolanaAddress(entry?.address, 'address').ok)
          throw new ExchangeListError(`${name}: ${JSON.stringify(entry?.address)} is not a Solana address`)
        if (typeof entry.exchange !== 'string' || entry.exchange === '' || typeof entry.source !== 'string')
          throw new ExchangeListError(`${name}: entry ${entry.address} needs an exchange and a source`)
        this.#byAddress.set(entry.address, entry)
      }
    }
  }

  /** The exchange whose known hot wallet `address` is, or null. */
  exchangeOf(address: string): string | null {
    return this.#byAddress.get(address)?.exchange ?? null
  }

  get size(): number {
    return this.#byAddress.size
  }
}

/** The built-in list, plus the operator's file when EXCHANGE_WALLETS names one. */
export function loadExchangeList(path?: string): ExchangeList {
  return new ExchangeList(
    referenceFiles(
      { name: 'exchanges.json (built in)', file: BUILTIN as ExchangeListFile },
      'EXCHANGE_WALLETS',
      path,
      (message) => new ExchangeListError(message),
    ),
  )
}
