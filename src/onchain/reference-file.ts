import { readFileSync } from 'node:fs'

/**
 * A built-in reference file and, when the operator's setting names one, the operator's file after it
 * (its entries correct or add to the built-in ones): what the issuer registry and the exchange list
 * load. An unreadable operator file fails with the setting named, so the service does not start with it.
 */
export function referenceFiles<F>(
  builtIn: { name: string; file: F },
  setting: string,
  path: string | undefined,
  fail: (message: string) => Error,
): { name: string; file: F }[] {
  const files = [builtIn]
  if (path) {
    let file: F
    try {
      file = JSON.parse(readFileSync(path, 'utf8')) as F
    } catch (error) {
      throw fail(`${setting}: cannot read ${path} (${(error as Error).message})`)
    }
    files.push({ name: `${setting} (${path})`, file })
  }
  return files
}
