import type { IssuerEntry } from '../../onchain/issuers.ts'
import type { MintFact } from '../../facts/types.ts'
import type { FactView } from '../signal.ts'
import { derivedOnce } from './once.ts'

/** A live authority that is not the one the registry names for the issuer. */
export interface AuthorityMismatch {
  authority: 'mint' | 'freeze'
  registered: string
  live: string
}

/**
 * Whether a token is an issuer-controlled asset whose live authorities and issuer extensions are its
 * design: its mint is in the issuer registry (src/onchain/issuers.ts), and every live authority the
 * registry names is the registered one. A registered mint whose authority changed (an issuer key
 * rotation, or a compromise) is not exempt: its authorities are scored, and the change is flagged.
 * The token list is not consulted: no tag or verified flag grants an exemption on its own.
 */
export interface Exemption {
  exempt: boolean
  issuer: IssuerEntry | null
  mismatched: AuthorityMismatch[]
}

export function exemptionOf(issuer: IssuerEntry | null | undefined, mint: MintFact | undefined): Exemption {
  if (!issuer) return { exempt: false, issuer: null, mismatched: [] }
  const mismatched: AuthorityMismatch[] = []
  const check = (authority: 'mint' | 'freeze', registered: string | undefined, live: string | null | undefined) => {
    // A revoked authority is never a risk; an unregistered one is not checked.
    if (registered !== undefined && live !== null && live !== undefined && live !== registered)
      mismatched.push({ authority, registered, live })
  }
  check('mint', issuer.mintAuthority, mint?.mintAuthority)
  check('freeze', issuer.freezeAuthority, mint?.freezeAuthority)
  return { exempt: mismatched.length === 0, issuer, mismatched }
}

/** The scan's exemption: its issuer entry against its mint account (exemptionOf), derived once per scan. */
export function tokenExemption(facts: FactView): Exemption {
  return derivedOnce(facts, 'exemption', () => exemptionOf(facts.get('issuer'), facts.get('mint')))
}
