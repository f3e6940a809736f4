/**
 * `npm start`. With the sandbox profile (the default) it boots the offline world, then runs the
 * service pointed at the world's servers through the ordinary URL settings, exactly as it would be
 * pointed at mainnet. With SOLSENTRY_PROFILE=mainnet it runs the service alone.
 */
import { writeFileSync } from 'node:fs'
import { runService } from '../src/main.ts'
import { printBanner } from './banner.ts'
import { startSandbox } from './index.ts'
import { FaultPlan } from './faults.ts'
import { sandboxOptions, sandboxRails, withRails } from './options.ts'

const env = process.env
if ((env.SOLSENTRY_PROFILE ?? 'sandbox') !== 'sandbox') {
  await runService(env)
} else {
  const rails = sandboxRails(env.SANDBOX_RAILS)
  const sandbox = await startSandbox(sandboxOptions(env), FaultPlan.fromEnv(env.SANDBOX_FAULTS))
  // SANDBOX_RAILS=solana (or base): the service takes payment on that rail only, as a seller on one chain.
  const running = await runService(
    { ...env, ...withRails(sandbox.serviceSettings, rails) },
    { afterShutdown: () => sandbox.stop() },
  )
  // The world file names the service too, on whatever PORT it took: the demo clients and the CLI read it.
  sandbox.file.service_url = running.url
  writeFileSync(sandbox.worldFilePath, `${JSON.stringify(sandbox.file, null, 2)}\n`)
  printBanner(sandbox, running.url, rails)
}
