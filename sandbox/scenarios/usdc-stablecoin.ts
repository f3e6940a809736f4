import type { Scenario } from './kit.ts'

export const usdcStablecoin: Scenario = {
  name: 'usdc-stablecoin',
  title: 'Issuer-controlled stablecoin in the issuer registry',
  description:
    "The sandbox USDC: mint and freeze authorities are live, as on the real USDC, and held by the issuer the sandbox's issuer registry names (ISSUER_REGISTRY, written at start), so a scanner should mark it authority_exempt and not penalise the issuer's controls. The token list tags it as Jupiter tags the real USDC (community, strict, verified). Deep SOL/USDC pool.",
  traits: ['authority_exempt', 'stablecoin', 'mint_authority_live', 'freeze_authority_live', 'liquidity_deep'],
  async schedule(ctx) {
    return { mint: ctx.base.usdc }
  },
}
