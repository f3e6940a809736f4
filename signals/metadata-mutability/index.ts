import { Type } from '@sinclair/typebox'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'metadata-mutability',
  riskGroup: 'contract_risk',
  version: '1.0.0',
  title: 'Mutable metadata',
  risk: "The update authority can still change the token's name, symbol and image.",
  why: 'Mutable metadata lets a token be renamed to impersonate another after buyers arrive.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['metadata'],
  impact: 'low',
  confidence: 'high',
  options: Type.Object({ penalty: Type.Number({ maximum: 0 }) }),
  defaults: { penalty: -5 },
  findings: {
    METADATA_MUTABLE: {
      severity: 'low',
      points: 'penalty',
      when: 'the metadata update authority can still change it',
      why: 'Name and image can be changed to impersonate another token',
    },
  },
})

export default defineSignal({
  meta,
  detect(facts, options) {
    const metadata = facts.get('metadata')
    if (!metadata) return unknownOutcome(meta, ['metadata'], { metadata_mutable: null })
    if (metadata.isMutable !== true) return ok([], { metadata_mutable: metadata.isMutable })
    return ok(
      [
        finding(
          meta,
          options,
          'METADATA_MUTABLE',
          'Mutable metadata',
          'The update authority can change name, symbol and image.',
          { update_authority: metadata.updateAuthority },
        ),
      ],
      { metadata_mutable: true },
    )
  },
})
