/**
 * Numbers for people: the one formatter the service's own prose, the CLI and the web page share. It
 * lives beside the service's renderers (src/rendering/format.ts: no imports, no Node API), so the
 * service may use it; the client re-exports it, and its users keep importing it from here.
 */
export * from '../src/rendering/format.ts'
