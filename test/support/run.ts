import { join } from 'node:path'

/** What a finished child process said: its stdout, its stderr and its exit code. */
export interface Finished {
  stdout: string
  stderr: string
  code: number
}

/**
 * Runs `command` to its end with exactly `env` (nothing inherited unless passed) and an open stdin that
 * is never written: a CLI run from a script, not a terminal (tests/support/terminal.ts gives it one).
 */
export async function runToEnd(
  command: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<Finished> {
  const child = Bun.spawn(command, { env, cwd, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { stdout, stderr, code }
}

/**
 * A demo script of the sandbox (`sandbox/pay.ts`, `sandbox/trade.ts`: `npm run pay`, `npm run trade`)
 * run to its end with Bun and this process's environment, against `service` on the sandbox whose world
 * file is `worldFile`, as a developer runs it.
 */
export function runSandboxScript(
  script: 'pay.ts' | 'trade.ts',
  args: string[],
  on: { service: string; worldFile: string },
): Promise<Finished> {
  return runToEnd(
    [
      process.execPath,
      join(import.meta.dirname, '..', '..', 'sandbox', script),
      ...args,
      '--service',
      on.service,
      '--world',
      on.worldFile,
    ],
    process.env,
  )
}
