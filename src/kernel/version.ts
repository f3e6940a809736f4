import pkg from '../../package.json' with { type: 'json' }

/** Service version, from package.json (embedded in the compiled binary). */
export const SERVICE_VERSION: string = pkg.version

/** Wire schema version carried by every JSON response (spec §9). */
export const SCHEMA_VERSION = '2.0' as const
