#!/usr/bin/env node
// The `solsentry` command: runs the CLI (client/cli.ts) with Bun — the `bun` npm package's binary when
// Node started this, so a machine with only Node runs it.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function bunBinary() {
  if (process.versions.bun) return process.execPath
  try {
    return join(dirname(createRequire(import.meta.url).resolve('bun/package.json')), 'bin', 'bun.exe')
  } catch {
    return 'bun'
  }
}

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'cli.ts')
const result = spawnSync(bunBinary(), [cli, ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(result.status ?? 1)
