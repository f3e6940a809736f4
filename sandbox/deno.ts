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
 * `deno run` for `src/main.ts`: packages from node_modules as npm installed them
 * (`--node-modules-dir=manual`), nothing downloaded (`--cached-only`), no permission prompt; the
 * permissions a service needs — the network, files (DATA_DIR, the reference lists, node_modules),
 * the environment (its settings), the system's facts (os.hostname and the like read by dependencies).
 */
export function denoServiceCommand(deno: string, main = join(ROOT, 'src', 'main.ts')): string[] {
  return [
    deno,
    'run',
    '--node-modules-dir=manual',
    '--cached-only',
    '--no-prompt',
    '--allow-net',
    '--allow-read',
    '--allow-write',
    '--allow-env',
    '--allow-sys',
    main,
  ]
}

/**
 * `deno run` for a client script (the CLI's stdio MCP bridge, `client/cli.ts mcp`): the same packages
 * and no downloads as the service, and the permissions a client needs — the network (the service, the
 * RPC), files to read (the keypair, node_modules), its settings from the environment, the system's facts
 * dependencies read; nothing written.
 */
export function denoBridgeCommand(deno: string, script: string): string[] {
  return [
    deno,
    'run',
    '--node-modules-dir=manual',
    '--cached-only',
    '--no-prompt',
    '--allow-net',
    '--allow-read',
    '--allow-env',
    '--allow-sys',
    script,
  ]
}
