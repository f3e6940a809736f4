import BUILTIN from './ecosystem.json' with { type: 'json' }
import { referenceFiles } from './reference-file.ts'

// The X accounts of the ecosystem's own projects (the ecosystem cohort of POST /news/pulse_plus):
// the built-in list, plus the operator's ECOSYSTEM_ACCOUNTS file.

export interface EcosystemFile {
  version: string
  entries: { handle: string; project: string; source: string }[]
}

export class EcosystemListError extends Error {
  override name = 'EcosystemListError'
}

/** The ecosystem's accounts: the built-in list, plus the operator's ECOSYSTEM_ACCOUNTS file. */
export class EcosystemAccounts {
  readonly #byHandle = new Map<string, string>()

  constructor(files: readonly { name: string; file: EcosystemFile }[]) {
    for (const { name, file } of files) {
      if (!file || !Array.isArray(file.entries))
        throw new EcosystemListError(`${name}: must be { "version": "YYYY-MM-DD", "entries": [...] }`)
      for (const entry of file.entries) {
        if (typeof entry?.handle !== 'string' || !/^[A-Za-z0-9_]{1,15}$/.test(entry.handle))
          throw new EcosystemListError(`${name}: ${JSON.stringify(entry?.handle)} is not an X handle`)
        if (typeof entry.project !== 'string' || typeof entry.source !== 'string')
          throw new EcosystemListError(`${name}: entry ${entry.handle} needs a project and a source`)
        this.#byHandle.set(entry.handle.toLowerCase(), entry.project)
      }
    }
  }

  projectOf(handle: string): string | null {
    return this.#byHandle.get(handle.toLowerCase()) ?? null
  }
}

export function loadEcosystemAccounts(path?: string): EcosystemAccounts {
  return new EcosystemAccounts(
    referenceFiles(
      { name: 'ecosystem.json (built in)', file: BUILTIN as EcosystemFile },
      'ECOSYSTEM_ACCOUNTS',
      path,
      (message) => new EcosystemListError(message),
    ),
  )
}
