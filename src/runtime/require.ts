import { createRequire } from 'node:module'
import { RUNTIME } from './runtime.ts'

/**
 * `require` in ES modules, as Bun gives it. The service loads a few packages only when a setting turns
 * them on (tracing's SDK: src/kernel/tracing.ts), with literal `require(…)` calls that Bun's bundler
 * embeds in the single binary (`createRequire`'s calls it would not: the binary could not find them).
 * Deno gives ES modules no `require`: there it is `createRequire`'s, resolved from this repository's
 * node_modules. Imported for this effect, by the modules that make those calls.
 */
if (RUNTIME === 'deno') (globalThis as { require?: NodeJS.Require }).require ??= createRequire(import.meta.url)
