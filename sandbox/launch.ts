/**
 * `npm start`. With the sandbox profile (the default) it boots the offline world, then runs the
 * service pointed at the world's servers through the ordinary URL settings, exactly as it would be
 * pointed at mainnet. With SOLSENTRY_PROFILE=mainnet it runs the service alone.
 *
 * `npm run start:deno` (`--deno`): the same, the service running on Deno 2 as a child process (the
 * sandbox stays on Bun: docs/deno.md); its logs pass through, and a signal stops both.
 */
import { writeFileSync } from 'node:fs'
import { runService } from '../src/main.ts'
import { printBanner } from './banner.ts'
import { denoBinary, denoMissing, denoServiceCommand } from './deno.ts'
import { startSandbox } from './index.ts'
import { FaultPlan } from './faults.ts'
import { sandboxOptions, sandboxRails, withRails } from './options.ts'

const env = process.env
const onDeno = process.argv.slice(2).includes('--deno')
if (onDeno && denoMissing) {
  console.error(`solsentry: cannot start on Deno: ${denoMissing}`)
  process.exit(1)
}

if ((env.SOLSENTRY_PROFILE ?? 'sandbox') !== 'sandbox') {
  if (onDeno) await serveOnDeno(env)
  else await runService(env)
} else {
  const rails = sandboxRails(env.SANDBOX_RAILS)
  const sandbox = await startSandbox(sandboxOptions(env), FaultPlan.fromEnv(env.SANDBOX_FAULTS))
  const settings = { ...env, ...withRails(sandbox.serviceSettings, rails) }
  // SANDBOX_RAILS=solana (or base): the service takes payment on that rail only, as a seller on one chain.
  const url = onDeno
    ? await serveOnDeno(settings, () => sandbox.stop())
    : (await runService(settings, { afterShutdown: () => sandbox.stop() })).url
  // The world file names the service too, on whatever PORT it took: the demo clients and the CLI read it.
  sandbox.file.service_url = url
  writeFileSync(sandbox.worldFilePath, `${JSON.stringify(sandbox.file, null, 2)}\n`)
  printBanner(sandbox, url, rails)
}

/**
 * Runs `src/main.ts` on Deno with `settings`, its output passed through, and answers the URL of its
 * "listening" line. SIGINT/SIGTERM are handed to it; when it exits, `afterExit` runs and so does this
 * process, with its code.
 */
async function serveOnDeno(
  settings: Record<string, string | undefined>,
  afterExit: () => Promise<void> = async () => {},
): Promise<string> {
  const child = Bun.spawn(denoServiceCommand(denoBinary()!), {
    env: settings,
    stdout: 'pipe',
    stderr: 'inherit',
  })
  // Handed on as SIGTERM: a terminal's Ctrl-C reaches the child too, and a second SIGINT would end it
  // mid-drain; one SIGTERM and one SIGINT start the one drain.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill('SIGTERM'))
  void child.exited.then(async (code) => {
    await afterExit()
    process.exit(code)
  })
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let pending = ''
  let listening: ((url: string) => void) | undefined
  const url = new Promise<string>((resolve) => (listening = resolve))
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      process.stdout.write(value)
      if (!listening) continue
      pending += decoder.decode(value, { stream: true })
      for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        if (!line.includes('"msg":"listening"')) continue
        listening?.((JSON.parse(line) as { url: string }).url)
        listening = undefined
        break
      }
    }
  })()
  return url
}
