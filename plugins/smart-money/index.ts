import { defineRoute } from '../../src/http/define-route.ts'
import { manifest } from './manifest.ts'
import { smartMoney } from './service.ts'

export { manifest }

/** `POST /scan/smart-money`: what wallets proven in the launchpad index are buying. */
export const smartMoneyPlugin = defineRoute(manifest, {
  smartMoney: (ctx, { body, deadline }) => smartMoney(ctx, body, deadline),
})
