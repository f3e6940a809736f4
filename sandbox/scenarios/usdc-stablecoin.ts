import type { Scenario } from './kit.ts'

export const usdcStablecoin: Scenario = {
  name: 'usdc-stablecoin',
  title: 'Issuer-controlled stablecoin on the verified list',
  description:
    "The sandbox USDC: mint and freeze authorities are live, as on the real USDC, but the token list tags it verified and stablecoin, so a scanner should mark it authority_exempt and not penalise the issuer's controls. Deep SOL/USDC pool.",
  traits: ['authority_exempt', 'stablecoin', 'mint_authority_live', 'freeze_authority_live', 'liquidity_deep'],
  async schedule(ctx) {
    return { mint: ctx.base.usdc }
  },
}
