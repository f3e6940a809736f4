import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { configTable } from '../src/core/config.ts'
import { errorTable } from '../src/core/errors.ts'
import { signalCatalogue } from '../src/pipeline/docs.ts'
import { rejectionTable } from '../plugins/trade/rejections.ts'

const read = (path: string) => Bun.file(join(import.meta.dir, '..', path)).text()

describe('documentation stays in step with the code', () => {
  test('README opens with the two commands', async () => {
    const readme = await read('README.md')
    const firstBlock = readme.slice(readme.indexOf('```'), readme.indexOf('```', readme.indexOf('```') + 3))
    expect(firstBlock).toContain('npm install && npm start')
    expect(firstBlock).toContain('npm test')
  })

  test('README configuration table is the one generated from the config schema', async () => {
    expect(await read('README.md')).toContain(configTable())
  })

  test('docs/signals.md lists every registered signal (run `npm run docs` after changing one)', async () => {
    expect(await read('docs/signals.md')).toContain(signalCatalogue())
  })

  test('docs/trade.md lists the trade rejection catalogue', async () => {
    expect(await read('docs/trade.md')).toContain(rejectionTable())
  })

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
            !['node_modules', 'data', 'dist'].includes(entry.name),
        )
        .map((entry) => `${dir ? `${dir}/` : ''}${entry.name}/`)
    for (const folder of [...folders(''), ...folders('src')]) expect(page).toContain(`\`${folder}`)
  })

  test('docs/errors.md lists the error catalogue', async () => {
    expect(await read('docs/errors.md')).toContain(errorTable())
  })
})
