import type { TokenListFact } from '../../facts/types.ts'

/**
 * Token-list tags that mark an issuer-controlled asset whose live authorities are its design, not a
 * risk: stablecoins (the issuer must mint, burn and freeze for compliance), wrapped assets and liquid
 * staking tokens (their bridge or stake pool mints). Only counted when the token is also verified.
 */
export const EXEMPT_TAGS: readonly string[] = ['stablecoin', 'wrapped', 'lst']

/** Whether the token list makes the token authority-exempt. */
export function isAuthorityExempt(list: TokenListFact | undefined): boolean {
  if (!list) return false
  return list.verified && list.tags.some((tag) => EXEMPT_TAGS.includes(tag))
}
