import { readFileSync } from 'node:fs'
import BUILTIN from './issuers.json' with { type: 'json' }
import { checkSolanaAddress } from './address.ts'

/**
 * The issuer registry: mints of issuer-controlled assets — fiat stablecoins, tokenized stocks and other
 * regulated assets, wrapped and bridged assets, liquid staking tokens — whose live authorities and
 * issuer extensions (permanent delegate, pause, transfer hook, frozen-by-default accounts) are their
 * design, not a rug. The built-in list is `issuers.json` (each entry with the public sources it was
 * checked against); an operator adds entries with ISSUER_REGISTRY. The token list's verified flag is
 * supporting evidence, never the reason: an exemption needs a registered mint (docs/scoring.md).
 */
export const ISSUER_KINDS = [
  'fiat_stablecoin',
  'synthetic_stablecoin',
  'tokenized_stock',
  'rwa',
  'wrapped',
  'lst',
] as const
export type IssuerKind = (typeof ISSUER_KINDS)[number]

export interface IssuerSource {
  /** A URL, or `owner/repo path@commit`. */
  ref: string
  /** What it states that the entry relies on. */
  states: string
  /** When it was read (YYYY-MM-DD). */
  retrieved: string
}

export interface IssuerEntry {
  mint: string
  symbol: string
  name: string
  issuer: string
  kind: IssuerKind
  /**
   * The authorities the issuer is known to hold, where a public source names them: a live authority
   * that is not the registered one is flagged (an issuer key change, or a lookalike). Absent: not
   * published, not checked.
   */
  mintAuthority?: string
  freezeAuthority?: string
  sources: IssuerSource[]
}

export interface IssuerRegistryFile {
  /** The date the file was last checked as a whole (YYYY-MM-DD). */
  version: string
  entries: IssuerEntry[]
}

/** A registry file that cannot be used; the service must not start with it. */
export class IssuerRegistryError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'IssuerRegistryError'
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Why an entry is unusable, or undefined. */
function entryProblem(entry: IssuerEntry): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'is not an object'
  for (const field of ['mint', 'mintAuthority', 'freezeAuthority'] as const) {
    const value = entry[field]
    if (field !== 'mint' && value === undefined) continue
    const check = checkSolanaAddress(value, field)
    if (!check.ok) return check.message
  }
  for (const field of ['symbol', 'name', 'issuer'] as const)
    if (typeof entry[field] !== 'string' || entry[field] === '') return `${field} is required`
  if (!ISSUER_KINDS.includes(entry.kind)) return `kind must be one of ${ISSUER_KINDS.join(', ')}`
  if (!Array.isArray(entry.sources) || entry.sources.length === 0) return 'needs at least one source'
  for (const source of entry.sources)
    if (typeof source?.ref !== 'string' || typeof source.states !== 'string' || !DATE.test(String(source.retrieved)))
      return 'each source needs ref, states and retrieved (YYYY-MM-DD)'
  return undefined
}

/** The registered issuer-controlled assets, by mint. */
export class IssuerRegistry {
  readonly #byMint = new Map<string, IssuerEntry>()
  readonly versions: string[] = []

  constructor(files: readonly { name: string; file: IssuerRegistryFile }[]) {
    for (const { name, file } of files) {
      if (!file || !Array.isArray(file.entries) || !DATE.test(String(file.version)))
        throw new IssuerRegistryError(`${name}: must be { "version": "YYYY-MM-DD", "entries": [...] }`)
      this.versions.push(`${name}@${file.version}`)
      for (const entry of file.entries) {
        const problem = entryProblem(entry)
        if (problem) throw new IssuerRegistryError(`${name}: entry ${entry?.symbol ?? '(unnamed)'}: ${problem}`)
        // A later file (the operator's) may correct a built-in entry.
        this.#byMint.set(entry.mint, entry)
      }
    }
  }

  get(mint: string): IssuerEntry | undefined {
    return this.#byMint.get(mint)
  }

  get size(): number {
    return this.#byMint.size
  }
}

/** The built-in registry, plus the operator's file when ISSUER_REGISTRY names one. */
export function loadIssuerRegistry(path?: string): IssuerRegistry {
  const files = [{ name: 'issuers.json (built in)', file: BUILTIN as IssuerRegistryFile }]
  if (path) {
    let file: IssuerRegistryFile
    try {
      file = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      throw new IssuerRegistryError(`ISSUER_REGISTRY: cannot read ${path} (${(error as Error).message})`)
    }
    files.push({ name: `ISSUER_REGISTRY (${path})`, file })
  }
  return new IssuerRegistry(files)
}
