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

  test('docs/architecture.md names every top-level folder and every folder of src/', async () => {
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
  })
})
