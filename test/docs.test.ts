import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { current, GENERATED, rendered, WHOLE_FILES } from '../scripts/docs.ts'

const read = (path: string) => Bun.file(join(import.meta.dir, '..', path)).text()

describe('documentation stays in step with the code', () => {
  test('README opens with the two commands', async () => {
    const readme = await read('README.md')
    const firstBlock = readme.slice(readme.indexOf('```'), readme.indexOf('```', readme.indexOf('```') + 3))
    expect(firstBlock).toContain('npm install && npm start')
    expect(firstBlock).toContain('npm test')
  })

  // The configuration, error, rejection, signal, findings and risk-group tables.
  test.each(GENERATED.map((section) => [`${section.file} § ${section.name}`, section] as const))(
    '%s is the one generated from the code (run `npm run docs` after changing it)',
    async (_, section) => {
      expect(await current(section)).toBe(await rendered(section))
    },
  )

  test.each(WHOLE_FILES.map((whole) => [whole.file, whole] as const))(
    '%s is the one generated from the manifests (run `npm run docs` after changing them)',
    async (_, whole) => {
      expect(await read(whole.file)).toBe(whole.content())
    },
  )

  test('docs/architecture.md names every top-level folder, every folder of src/ and every feature', async () => {
    const { readdirSync } = await import('node:fs')
    const page = await read('docs/architecture.md')
    const root = join(import.meta.dir, '..')
    const folders = (dir: string) =>
      readdirSync(join(root, dir), { withFileTypes: true })
        .filter(
          (entry) =>
            entry.isDirectory() &&
            !entry.name.startsWith('.') &&
            !['node_modules', 'data', 'dist', 'test-artifacts'].includes(entry.name),
        )
        .map((entry) => `${dir ? `${dir}/` : ''}${entry.name}/`)
    for (const folder of [...folders(''), ...folders('src')]) expect(page).toContain(`\`${folder}`)
    // And every feature: its folder under plugins/ named (`quick-scan`, or `plugins/quick-scan/`).
    for (const folder of folders('plugins'))
      expect(page).toMatch(new RegExp(`\`(plugins/)?${folder.slice('plugins/'.length, -1)}[/\`]`))
  })

  test('README links only what a clone contains: every link and cited docs/ path resolves inside the repository', async () => {
    const { existsSync } = await import('node:fs')
    const { resolve } = await import('node:path')
    const root = join(import.meta.dir, '..')
    const readme = await read('README.md')
    const targets = [
      // Markdown links to files: [docs/mcp.md](docs/mcp.md), not URLs or anchors within the page.
      ...[...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1]!)
        .filter((to) => !/^\w+:/.test(to)),
      // Paths in backticks that leave the repository or name its docs: `../shared/…`, `docs/spec.md`.
      ...[...readme.matchAll(/`((?:\.\.\/|docs\/)[^`\s]*)`/g)].map((match) => match[1]!),
    ]
    expect(targets.length).toBeGreaterThan(10)
    const outside = targets.filter((to) => !resolve(root, to).startsWith(`${root}/`) || !existsSync(join(root, to)))
    expect(outside).toEqual([])
  })

  test('no page sends a reader outside the repository (../shared is not in a clone)', async () => {
    const { readdirSync } = await import('node:fs')
    const pages = [
      'README.md',
      ...readdirSync(join(import.meta.dir, '..', 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => join('docs', name)),
    ]
    const offenders: string[] = []
    for (const page of pages) if ((await read(page)).includes('../shared/')) offenders.push(page)
    expect(offenders).toEqual([])
  })

  test('docs/spec.md is the interface contract, word for word, where the original is beside the repository', async () => {
    const original = Bun.file(join(import.meta.dir, '..', '..', 'shared', 'spec', 'service-spec.md'))
    const copy = await read('docs/spec.md')
    expect(copy).toContain('# Solana Token Risk Scanning and Swap Service: Interface Specification')
    if (!(await original.exists())) return
    expect(copy.slice(copy.indexOf('# Solana Token'))).toBe(await original.text())
  })

  test('every repository path the documentation cites exists', async () => {
    const { existsSync, readdirSync } = await import('node:fs')
    const root = join(import.meta.dir, '..')
    const pages = [
      'README.md',
      'signals/README.md',
      'skills/solsentry/SKILL.md',
      ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => join('docs', name)),
    ]
    const TOP = '(?:src|plugins|signals|sandbox|test|bench|scripts|client|web|skills|examples|deploy)'
    const missing: string[] = []
    for (const page of pages) {
      const text = await read(page)
      const cited = [
        // A folder or file in backticks, from a top-level folder: `plugins/trade/`, `src/http/front-door.ts`.
        ...[...text.matchAll(new RegExp(`\`(${TOP}/[A-Za-z0-9_./-]*)\``, 'g'))].map((match) => match[1]!),
        // A file named in running text: (src/launchpad-index/ingester.ts).
        ...[...text.matchAll(new RegExp(`(?<![\\w/.:@-])(${TOP}/[A-Za-z0-9_/.-]*\\.(?:ts|json|md))`, 'g'))].map(
          (match) => match[1]!,
        ),
      ]
      for (const path of new Set(cited))
        if (!existsSync(join(root, path.replace(/:.*$/, '')))) missing.push(`${page}: ${path}`)
    }
    expect(missing).toEqual([])
  })
})
