import { describe, expect, test } from 'bun:test'
import type { MetadataFact } from '../../src/facts/types.ts'
import type { Factor } from '../../src/pipeline/signal.ts'
import { MINT, NOW, run } from '../../test/support/facts/index.ts'
import metadataMutability from './index.ts'

const UPDATER = 'Upd11111111111111111111111111111111111111111'

const metadata = (overrides: Partial<MetadataFact> = {}): MetadataFact => ({
  source: 'metaplex',
  name: 'Token',
  symbol: 'TOK',
  uri: 'https://example.com/tok.json',
  updateAuthority: UPDATER,
  isMutable: false,
  logoUri: null,
  ...overrides,
})

const NONE: MetadataFact = {
  source: 'none',
  name: null,
  symbol: null,
  uri: null,
  updateAuthority: null,
  isMutable: null,
  logoUri: null,
}

const mutable = (updateAuthority: string | null, impact = -5): Factor => ({
  code: 'METADATA_MUTABLE',
  signal: 'metadata-mutability',
  severity: 'low',
  impact,
  hard_fail: false,
  grade_ceiling: null,
  title: 'Mutable metadata',
  detail: 'The update authority can change name, symbol and image.',
  evidence: { update_authority: updateAuthority },
})

describe('metadata-mutability', () => {
  const cases: {
    name: string
    fact: MetadataFact
    factors: Factor[]
    field: boolean | null
  }[] = [
    {
      name: 'immutable Metaplex metadata (update authority still recorded): clean',
      fact: metadata({ isMutable: false }),
      factors: [],
      field: false,
    },
    {
      name: 'mutable Metaplex metadata: a low finding naming the update authority',
      fact: metadata({ isMutable: true }),
      factors: [mutable(UPDATER)],
      field: true,
    },
    {
      name: 'Token-2022 metadata extension with an update authority: mutable',
      fact: metadata({
        source: 'token-2022',
        isMutable: true,
        updateAuthority: 'Ext1111111111111111111111111111111111111111',
      }),
      factors: [mutable('Ext1111111111111111111111111111111111111111')],
      field: true,
    },
    {
      name: 'Token-2022 metadata extension without an update authority: immutable, clean',
      fact: metadata({ source: 'token-2022', isMutable: false, updateAuthority: null }),
      factors: [],
      field: false,
    },
    {
      name: 'marked mutable with no update authority: still reported, evidence null',
      fact: metadata({ isMutable: true, updateAuthority: null }),
      factors: [mutable(null)],
      field: true,
    },
    {
      name: 'no metadata account at all: ok, mutability not applicable (null), no finding',
      fact: NONE,
      factors: [],
      field: null,
    },
  ]

  test.each(cases)('$name', ({ fact, factors, field }) => {
    const outcome = run(metadataMutability, { metadata: fact })
    expect(outcome.status).toBe('ok')
    expect(outcome.factors).toEqual(factors)
    expect(outcome.fields).toEqual({ metadata_mutable: field })
  })

  test.each([
    { penalty: -12, impact: -12 },
    { penalty: 0, impact: 0 },
  ])('the penalty comes from the options ($penalty)', ({ penalty, impact }) => {
    const outcome = metadataMutability.detect(
      { get: (name) => (name === 'metadata' ? metadata({ isMutable: true }) : undefined) as never },
      { penalty },
      { mint: MINT, now: NOW },
    )
    expect(outcome).toEqual({ status: 'ok', factors: [mutable(UPDATER, impact)], fields: { metadata_mutable: true } })
  })

  test('metadata not gathered: unknown, naming metadata, no penalty, field null', () => {
    expect(run(metadataMutability, {})).toEqual({
      status: 'unknown',
      missing: ['metadata'],
      factors: [
        {
          code: 'UNKNOWN',
          signal: 'metadata-mutability',
          severity: 'info',
          impact: 0,
          hard_fail: false,
          grade_ceiling: null,
          title: 'Mutable metadata: not assessed',
          detail: 'Could not be assessed: metadata could not be gathered.',
          evidence: { missing: ['metadata'] },
        },
      ],
      fields: { metadata_mutable: null },
    })
  })

  test('other facts do not stand in for metadata', () => {
    const outcome = run(metadataMutability, { holder_count: 10 })
    expect(outcome).toMatchObject({ status: 'unknown', missing: ['metadata'], fields: { metadata_mutable: null } })
  })
})
