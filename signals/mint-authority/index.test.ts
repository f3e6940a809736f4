import { describeAuthoritySignal } from '../../test/support/facts/authority.ts'
import mintAuthority from './index.ts'

describeAuthoritySignal({
  signal: mintAuthority,
  authority: 'mintAuthority',
  revokedField: 'mint_authority_revoked',
  code: 'MINT_AUTHORITY_LIVE',
  penalty: -25,
  title: 'Mint authority live',
  liveDetail: 'A wallet can still mint new tokens and dilute holders.',
  exemptDetail: 'The registered issuer can mint, as a stablecoin, wrapped asset or staking token must; not penalised.',
})
