import { describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { PluginManifest } from '../src/kernel/manifest.ts'

// The dependency rules of docs/architecture.md, read from the import statements themselves.
const ROOT = join(import.meta.dir, '..')

/** Every .ts file below `dir` (relative to the repository). */
function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name))
}

/** The repository-relative paths a file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!)
  return specifiers.map((specifier) => relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)))
}

/** The top folder of a path under `area` (`signals/honeypot/index.ts` → `honeypot`). */
const folderIn = (area: string, path: string) => (path.startsWith(`${area}/`) ? path.split('/')[1] : undefined)

/** The folders under plugins/. */
const pluginFolders = () =>
  readdirSync(join(ROOT, 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

/** The manifests a plugin folder's manifest.ts exports; undefined for a folder without one (acp). */
async function manifestsOf(folder: string): Promise<PluginManifest[] | undefined> {
  const path = join(ROOT, 'plugins', folder, 'manifest.ts')
  if (!existsSync(path)) return undefined
  const module = (await import(path)) as Record<string, unknown>
  return Object.values(module).filter(
    (value): value is PluginManifest =>
      typeof value === 'object' && value !== null && 'name' in value && 'routes' in value,
  )
}

describe('dependency boundaries', () => {
  test("a signal is a leaf: no file under signals/ imports another signal's folder", () => {
    const crossings = files('signals').flatMap((file) => {
      const own = folderIn('signals', file)
      return importsOf(file)
        .filter((target) => {
          const other = folderIn('signals', target)
          // signals/index.ts is the registry: it imports every signal.
          return other !== undefined && other !== own && own !== 'index.ts' && other !== 'index.ts'
        })
        .map((target) => `${file} → ${target}`)
    })
    expect(crossings).toEqual([])
  })

  test("a signal raises findings only from its meta's catalogue (finding), never a hand-weighted factor", () => {
    const offenders = files('signals').filter(
      (file) =>
        !file.endsWith('.test.ts') &&
        /import\s*\{[^}]*\bfactor\b[^}]*\}\s*from\s*['"][./]+src\/pipeline\/signal\.ts['"]/.test(
          readFileSync(join(ROOT, file), 'utf8'),
        ),
    )
    expect(offenders).toEqual([])
  })

  test('every signal has a table test beside it', () => {
    const signals = readdirSync(join(ROOT, 'signals'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    const untested = signals.filter((entry) => !existsSync(join(ROOT, 'signals', entry.name, 'index.test.ts')))
    expect(untested.map((entry) => entry.name)).toEqual([])
  })

  test('a plugin folder declares one manifest, named after the folder', async () => {
    const wrong: string[] = []
    for (const folder of pluginFolders()) {
      const manifests = await manifestsOf(folder)
      if (manifests === undefined) continue
      if (manifests.length !== 1 || manifests[0]!.name !== folder)
        wrong.push(`plugins/${folder}: ${manifests.map((manifest) => manifest.name).join(', ') || 'none'}`)
    }
    expect(wrong).toEqual([])
  })

  test("a plugin uses another's service or schemas only when its manifest declares dependsOn, and nothing else of it", async () => {
    const crossings: string[] = []
    for (const file of files('plugins')) {
      const own = folderIn('plugins', file)!
      const declared = (await manifestsOf(own))?.flatMap((manifest) => manifest.dependsOn ?? []) ?? []
      for (const target of importsOf(file)) {
        const other = folderIn('plugins', target)
        if (other === undefined || other === own) continue
        const part = target.split('/').slice(2).join('/')
        if (!declared.includes(other) || !['service.ts', 'schemas.ts'].includes(part))
          crossings.push(`${file} → ${target}`)
      }
    }
    expect(crossings).toEqual([])
  })

  test('a file name says what it holds, once: no two production files share one but the conventional ones', () => {
    // Each feature has its index.ts (adapter), manifest.ts, service.ts and schemas.ts; nothing else repeats.
    const CONVENTIONAL = new Set(['index.ts', 'manifest.ts', 'service.ts', 'schemas.ts'])
    const byName = new Map<string, string[]>()
    for (const file of [...files('src'), ...files('plugins')].filter((path) => !path.endsWith('.test.ts'))) {
      const name = file.split('/').at(-1)!
      if (!CONVENTIONAL.has(name)) byName.set(name, [...(byName.get(name) ?? []), file])
    }
    expect([...byName.values()].filter((paths) => paths.length > 1)).toEqual([])
  })

  test('services, facts, sources and signals never import Elysia (only the HTTP edge does)', () => {
    const edge = new Set(['src/http', 'src/app.ts', 'src/main.ts'])
    const offenders = [...files('src'), ...files('signals')].filter((file) => {
      if ([...edge].some((allowed) => file === allowed || file.startsWith(`${allowed}/`))) return false
      if (file.endsWith('.test.ts')) return false
      return /from ['"]elysia['"]/.test(readFileSync(join(ROOT, file), 'utf8'))
    })
    expect(offenders).toEqual([])
  })
})
