import { describe, expect, test } from 'bun:test'
import { scannerService } from './support/scanner-service.ts'

/**
 * Spec types hold (spec §2.2–2.4): a member the spec types as a number, boolean or enum without "or null"
 * is published in /openapi.json without null — so a client generated from either accepts every answer —
 * and the verdict-table suites validate every scenario's answer against that document.
 */
const { app } = await scannerService()
const document = (await (await app.handle(new Request('http://localhost/openapi.json'))).json()) as {
  paths: Record<string, { post: { responses: { 200: { content: { 'application/json': { schema: Schema } } } } } }>
}
interface Schema {
  type?: string | string[]
  anyOf?: Schema[]
  properties?: Record<string, Schema>
}

/** The spec's non-nullable number, boolean and enum members, by route (object members by path). */
const SPEC_TYPED: Record<string, string[]> = {
  '/scan/quick': [
    'mint_authority_revoked',
    'freeze_authority_revoked',
    'lp_model',
    'lp_status',
    'structural_risk_grade',
    'authority_exempt',
    'liquidity_check.rating',
    'data_quality',
    'data_confidence',
  ],
  '/market/intel': [
    'current_price_usd',
    'price_change_1h_pct',
    'price_change_24h_pct',
    'volume_1h_usd',
    'volume_24h_usd',
    'liquidity_usd',
    'buy_sell_ratio',
    'buy_pressure',
    'sell_pressure',
    'large_txs_last_hour',
    'volatility',
    'signal',
    'token_health',
    'data_quality',
  ],
  '/scan/deep': [
    'is_honeypot',
    'mint_authority_revoked',
    'freeze_authority_revoked',
    'authority_exempt',
    'lp_status',
    'lp_model',
    'risk_grade',
    'risk_breakdown.contract_risk',
    'wallet_analysis.clustered_wallets',
    'wallet_analysis.dev_wallet_linked',
    'dev_wallet_analysis.previous_rugs',
    'launch_pattern',
    'sniper_activity',
    'liquidity_lock_status.locked',
    'liquidity_lock_status.lock_duration_days',
    'liquidity_lock_status.locked_pct',
    'trading_pattern.buy_sell_ratio_1h',
    'trading_pattern.unique_buyers_24h',
    'trading_pattern.wash_trading_score',
    'pump_launchpad_launched',
    'bundled_launch_detected',
    'volume_24h',
    'price_change_24h_pct',
    'momentum_score',
    'recommendation.action',
    'recommendation.confidence',
    'data_quality',
  ],
}

const member = (schema: Schema, path: string): Schema | undefined =>
  path.split('.').reduce<Schema | undefined>((at, key) => {
    const object = at?.properties ? at : at?.anyOf?.find((option) => option.properties)
    return object?.properties?.[key]
  }, schema)

const allowsNull = (schema: Schema): boolean =>
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.anyOf ?? []).some(allowsNull)

describe('the published answer schemas keep the spec types', () => {
  for (const [route, members] of Object.entries(SPEC_TYPED))
    test.each(members)(`${route}: %s is published and never null`, (path) => {
      const schema = document.paths[route]!.post.responses[200].content['application/json'].schema
      const found = member(schema, path)
      expect(found).toBeDefined()
      expect(allowsNull(found!)).toBe(false)
    })
})
