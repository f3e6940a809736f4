/**
 * Which JavaScript runtime runs this process: Bun (the default, and the single binary) or Deno 2. The
 * one place that asks; every other file reaches the runtime through this folder's adapters (docs/deno.md).
 */
export type RuntimeName = 'bun' | 'deno'

export const RUNTIME: RuntimeName = 'Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : unsupported()

function unsupported(): never {
  throw new Error('solsentry runs on Bun or Deno 2: this runtime is neither (docs/deno.md)')
}

/** The running runtime's name and version, as /health and the start-up line may show them. */
export function runtimeVersion(): string {
  const versions = process.versions as Record<string, string | undefined>
  return RUNTIME === 'bun' ? `bun ${versions.bun}` : `deno ${versions.deno}`
}
