import { describe } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** Debian's Chromium (`apt-get install chromium`), or another the machine names in CHROMIUM_PATH. */
export const chromiumPath: string | undefined =
  process.env.CHROMIUM_PATH ?? Bun.which('chromium') ?? Bun.which('chromium-browser') ?? undefined

/**
 * Why the suites that drive a real browser are skipped on this machine, or undefined when it has one.
 * `.ci/run` installs Debian's chromium; a fresh machine without it reports them skipped, never failed.
 */
export const browserMissing: string | undefined = chromiumPath
  ? undefined
  : 'no Chromium found (apt-get install -y chromium; .ci/run does), or set CHROMIUM_PATH'

/** `describe`, skipped with the reason in its title when the machine has no Chromium. */
export function describeWithBrowser(title: string, body: () => void): void {
  if (browserMissing) describe.skip(`${title} — skipped: ${browserMissing}`, body)
  else describe(title, body)
}

/** Where browser tests keep their screenshots (test-artifacts/, ignored by git). */
export function artifactPath(name: string): string {
  const dir = join(import.meta.dir, '..', '..', 'test-artifacts', 'web')
  mkdirSync(dir, { recursive: true })
  return join(dir, name)
}
