import { describeAuthoritySignal } from '../../test/support/facts/authority.ts'
import freezeAuthority from './index.ts'

describeAuthoritySignal({
  signal: freezeAuthority,
  authority: 'freezeAuthority',
  revokedField: 'freeze_authority_revoked',
  code: 'FREEZE_AUTHORITY_LIVE',
  penalty: -15,
  title: 'Freeze authority live',
  liveDetail: "A wallet can freeze any holder's account, stopping it from selling.",
  exemptDetail: 'The registered issuer can freeze accounts, as a regulated asset must; not penalised.',
})
