import { Type } from '@sinclair/typebox'
import { assetKey, lookalikeKeys } from '../../src/facts/known-assets.ts'
import type { KnownAsset } from '../../src/facts/types.ts'
import { defineSignal, finding, ok, signalMeta, unknownOutcome } from '../../src/pipeline/signal.ts'

const meta = signalMeta({
  id: 'impersonation',
  riskGroup: 'contract_risk',
  version: '1.0.0',
  title: 'Impersonation',
  risk: "A token that copies a registered asset's or a verified token's symbol or name on a different mint.",
  why: 'A copy of USDC, WETH or USDY holds nothing of the real asset; buyers who trust the ticker pay for a token the copier controls, often with a live freeze authority to stop them selling.',
  scanners: ['quick_scan', 'deep_dive'],
  facts: ['metadata', 'issuer', 'token_list', 'known_assets'],
  impact: 'high',
  confidence: 'high',
  options: Type.Object({ penalty: Type.Number({ maximum: 0 }) }),
  defaults: { penalty: -40 },
  findings: {
    IMPERSONATES_ASSET: {
      severity: 'critical',
      points: 'penalty',
      ceiling: 'D',
      when: "the token's symbol or name reads as a registered asset's or a verified token's (case, look-alike letters, a bridge's dotted suffix and trailing digits aside) and the token is neither that mint, nor registered, nor verified itself",
      why: 'A copy of a registered or verified asset is worth nothing the real one is, whatever else is clean: the buyer believes they hold the real asset. Capped at D; the finding names the real mint',
    },
  },
})

/** A known asset the token reads as, and by which of its fields. */
interface Match {
  asset: KnownAsset
  sources: KnownAsset['source'][]
  fields: ('symbol' | 'name')[]
}

/** The matches, the most telling first: in both lists, then the registry; both fields, then the symbol. */
function matchesOf(
  mint: string,
  token: { symbol: string | null; name: string | null },
  assets: readonly KnownAsset[],
): Match[] {
  const symbolKeys = lookalikeKeys(token.symbol)
  const nameKeys = lookalikeKeys(token.name)
  const byMint = new Map<string, Match>()
  for (const asset of assets) {
    if (asset.mint === mint) continue
    const fields: Match['fields'] = []
    const symbol = assetKey(asset.symbol)
    const name = assetKey(asset.name)
    if (symbol !== null && symbolKeys.includes(symbol)) fields.push('symbol')
    if (name !== null && nameKeys.includes(name)) fields.push('name')
    if (fields.length === 0) continue
    const known = byMint.get(asset.mint)
    if (!known) {
      byMint.set(asset.mint, { asset, sources: [asset.source], fields })
      continue
    }
    // The registry's entry describes the asset best (issuer, kind).
    if (asset.source === 'issuer_registry') known.asset = asset
    if (!known.sources.includes(asset.source)) known.sources.push(asset.source)
    for (const field of fields) if (!known.fields.includes(field)) known.fields.push(field)
  }
  const rank = (match: Match) =>
    (match.sources.length === 2 ? 0 : match.sources[0] === 'issuer_registry' ? 1 : 2) * 3 +
    (match.fields.length === 2 ? 0 : match.fields[0] === 'symbol' ? 1 : 2)
  return [...byMint.values()].sort((a, b) => rank(a) - rank(b))
}

const describe = (asset: KnownAsset) =>
  asset.source === 'issuer_registry'
    ? `${asset.name} (${asset.symbol}), a registered ${asset.kind?.replaceAll('_', ' ')} of ${asset.issuer}`
    : `${asset.name} (${asset.symbol}), a verified token`

export default defineSignal({
  meta,
  detect(facts, options, context) {
    const metadata = facts.get('metadata')
    const known = facts.get('known_assets')
    if (!metadata) return unknownOutcome(meta, ['metadata'])
    if (!known) return unknownOutcome(meta, ['known_assets'])
    // The real asset, or one the registry or the token list vouches for, is nobody's copy.
    if (facts.get('issuer') || facts.get('token_list')?.verified) return ok([], {})
    const matches = matchesOf(context.mint, metadata, [...known.registry, ...(known.verified ?? [])])
    const [first] = matches
    // Without a match and without the verified list, only half the comparison was made.
    if (!first) return known.verified === null ? unknownOutcome(meta, ['token_list']) : ok([], {})
    const { asset, fields } = first
    const copied = fields.map((field) => `${field} "${metadata[field]}"`).join(' and ')
    return ok(
      [
        finding(
          meta,
          options,
          'IMPERSONATES_ASSET',
          `Impersonates ${asset.symbol} (real mint ${asset.mint})`,
          `Its ${copied} read as ${describe(asset)}, whose mint is ${asset.mint}; this token is another mint and holds nothing of it.`,
          {
            real_mint: asset.mint,
            real_symbol: asset.symbol,
            real_name: asset.name,
            sources: first.sources,
            matched: fields,
            symbol: metadata.symbol,
            name: metadata.name,
            // Every asset it reads as, the most telling first.
            lookalike_of: matches.map((match) => ({
              mint: match.asset.mint,
              symbol: match.asset.symbol,
              sources: match.sources,
              matched: match.fields,
            })),
          },
        ),
      ],
      {},
    )
  },
})
