import type { JupiterToken } from '../sources/jupiter.ts'
import { FactUnavailable, type TokenContext } from './token-context.ts'
import type { KnownAsset, KnownAssetsFact } from './types.ts'

/**
 * Letters of other scripts that pass for a Latin one (Unicode's confusables of Cyrillic and Greek, both
 * cases), a few Latin look-alikes NFKC leaves alone, and currency signs written as letters ("USD₮"):
 * each Latin letter with its look-alikes.
 */
const LOOKALIKES: Record<string, string> = {
  a: 'АаΑα₳',
  b: 'ВвΒβ₿',
  c: 'СсϹϲ¢₵',
  d: 'Ԁԁđ',
  e: 'ЕеЁёΕε€',
  h: 'ҺһНнΗħ',
  i: 'ІіЇїΙιı',
  j: 'ЈјͿȷ',
  k: 'КкΚκ',
  l: 'Ӏӏł',
  m: 'МмΜ',
  n: 'Ν',
  o: 'ОоΟοø',
  p: 'РрΡρ',
  q: 'Ԛԛ',
  s: 'Ѕѕ$',
  t: 'ТтΤτ₮',
  u: 'υ',
  v: 'Ѵѵν',
  w: 'Ԝԝ',
  x: 'ХхΧχ',
  y: 'УуҮүΥ',
  z: 'Ζ',
}
const CONFUSABLES = new Map(
  Object.entries(LOOKALIKES).flatMap(([latin, chars]) => [...chars].map((char) => [char, latin] as const)),
)

/**
 * A bridge's or wrapper's dotted suffix on a ticker — ".a" (Allbridge), ".e" (Wormhole), ".wh" — after
 * a dot-free stem (so the dots of "U.S.D.C" are not a suffix).
 */
const DOTTED_SUFFIX = /^([^.]+)\.[a-z]{1,3}$/
/** A key shorter than this says nothing about which asset is meant. */
export const MIN_KEY_LENGTH = 2

/**
 * A symbol or name as a reader sees it: compatibility forms folded (full-width, mathematical and
 * circled letters), look-alike Cyrillic and Greek letters and currency signs read as the Latin letter
 * they pass for, accents and invisible characters dropped, lower case, a bridge's dotted suffix
 * (".a", ".e") dropped, then letters and digits only. "UЅDC" (Cyrillic Ѕ), "USDC.a", "usdc" and
 * "U.S.D.C" all read "usdc". A leading "$" is a cashtag, not a letter.
 */
export function identityKey(text: string): string {
  let key = IDENTITY_KEYS.get(text)
  if (key === undefined) {
    if (IDENTITY_KEYS.size >= IDENTITY_KEYS_KEPT) IDENTITY_KEYS.clear()
    key = readIdentityKey(text)
    IDENTITY_KEYS.set(text, key)
  }
  return key
}

/**
 * Identity keys already read: every scan compares the token with every registered asset (the
 * registry's names read again each time), so each text is read once. Bounded: cleared when full.
 */
const IDENTITY_KEYS = new Map<string, string>()
const IDENTITY_KEYS_KEPT = 10_000

function readIdentityKey(text: string): string {
  const folded = [...text.normalize('NFKC').trim().replace(/^\$/, '')]
    .map((char) => CONFUSABLES.get(char) ?? char)
    .join('')
    .normalize('NFD')
    // Accents, invisible characters and the NUL padding of fixed-size metadata fields.
    .replace(/[\p{M}\p{Cf}\p{Cc}]/gu, '')
    .trim()
    .toLowerCase()
  return folded.replace(DOTTED_SUFFIX, '$1').replace(/[^a-z0-9]/g, '')
}

/**
 * The keys a token's symbol or name is compared by: its identity key and, when it ends in digits, the
 * key without them ("USDC2" also reads "usdc"). The asset it is compared with keeps its digits ("USD1"
 * stays "usd1"). Keys under MIN_KEY_LENGTH are left out.
 */
export function lookalikeKeys(text: string | null): string[] {
  if (!text) return []
  const key = identityKey(text)
  const bare = key.replace(/\d+$/, '')
  return [...new Set([key, bare])].filter((entry) => entry.length >= MIN_KEY_LENGTH)
}

/** The identity key of a known asset's symbol or name; null when too short to compare. */
export function assetKey(text: string): string | null {
  const key = identityKey(text)
  return key.length >= MIN_KEY_LENGTH ? key : null
}

const verifiedEntry = (token: JupiterToken) => token.isVerified === true || (token.tags ?? []).includes('verified')

/**
 * What a token could pass itself off as: every asset of the issuer registry (built in, plus
 * ISSUER_REGISTRY), and the verified tokens the token list's search finds for the token's symbol
 * (read as its identity key, so "UЅDC" searches "usdc"). The search is skipped for a token that is
 * itself registered or verified (it is nobody's copy), or that has no symbol; a search that fails
 * leaves `verified` null and the registry still answers. Missing only without both sources.
 */
export async function loadKnownAssets(facts: TokenContext): Promise<KnownAssetsFact> {
  const { issuers, jupiter } = facts.sources
  if (!issuers && !jupiter) throw new FactUnavailable('neither the issuer registry nor JUPITER_URL is configured')
  const registry: KnownAsset[] = (issuers?.entries() ?? []).map((entry) => ({
    mint: entry.mint,
    symbol: entry.symbol,
    name: entry.name,
    source: 'issuer_registry',
    issuer: entry.issuer,
    kind: entry.kind,
  }))
  return { registry, verified: jupiter ? await verifiedNamesakes(facts) : null }
}

async function verifiedNamesakes(facts: TokenContext): Promise<KnownAsset[] | null> {
  const [metadata, issuer, list] = await Promise.all([
    facts.fact('metadata'),
    facts.fact('issuer'),
    facts.fact('token_list'),
  ])
  if (metadata === undefined) return null
  if (issuer || list?.verified) return []
  const term = metadata.symbol ? identityKey(metadata.symbol).replace(/\d+$/, '') : ''
  if (term.length < MIN_KEY_LENGTH) return []
  try {
    const found = await facts.source('jupiter').search(term, facts.meter)
    return found.filter(verifiedEntry).map((token) => ({
      mint: token.id,
      symbol: token.symbol,
      name: token.name,
      source: 'verified_list' as const,
      issuer: null,
      kind: null,
    }))
  } catch {
    return null
  }
}
