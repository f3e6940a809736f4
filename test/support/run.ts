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
