/**
 * `npm run sandbox`: the offline Solana world alone (JSON-RPC on 8899/8900, DexScreener and Jupiter
 * stand-ins), for any client. Stops on SIGINT/SIGTERM.
 */
import { startSandbox } from './index.ts'
import { FaultPlan } from './faults.ts'
import { sandboxOptions } from './options.ts'
import { printBanner } from './banner.ts'

const sandbox = await startSandbox(sandboxOptions(process.env), FaultPlan.fromEnv(process.env.SANDBOX_FAULTS))
printBanner(sandbox)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void sandbox.stop().then(() => process.exit(0))
  })
