/**
 * The service on Deno 2 (docs/deno.md): the deno binary the npm package installs (a devDependency) or
 * one on PATH, and the command line that runs the same `src/main.ts` — on this repository's own
 * node_modules, never fetching a package (the only network Deno is given is the service's own).
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')

/** Where `npm install` puts the deno binary of the `deno` package. */
const NPM_DENO = join(ROOT, 'node_modules', '.bin', 'deno')

/** The deno binary: the npm package's, else the first on PATH; undefined when there is none. */
export function denoBinary(): string | undefined {
  return existsSync(NPM_DENO) ? NPM_DENO : (Bun.which('deno') ?? undefined)
}

/** Why the service cannot run on Deno here, or undefined when it can. */
export const denoMissing: string | undefined = denoBinary()
  ? undefined
  : 'no deno binary (npm install brings the deno package, a devDependency; or put deno 2 on PATH)'

/**
 * `deno run` as every solsentry process takes it: packages from node_modules as npm installed them
 * (`--node-modules-dir=manual`), nothing downloaded (`--cached-only`), no permission prompt; and what
 * a client needs — the network, files to read (node_modules, a keypair), its settings from the
 * environment, the system's facts (os.hostname and the like read by dependencies).
 */
const DENO_RUN = [
  'run',
  '--node-modules-dir=manual',
  '--cached-only',
  '--no-prompt',
  '--allow-net',
  '--allow-read',
  '--allow-env',
  '--allow-sys',
]

/** `deno run` for `src/main.ts`: a client's permissions, and files to write (DATA_DIR). */
export function denoServiceCommand(deno: string, main = join(ROOT, 'src', 'main.ts')): string[] {
  return [deno, ...DENO_RUN, '--allow-write', main]
}

/** `deno run` for a client script (the CLI's stdio MCP bridge, `client/cli.ts mcp`): it writes nothing. */
export function denoBridgeCommand(deno: string, script: string): string[] {
  return [deno, ...DENO_RUN, script]
}
