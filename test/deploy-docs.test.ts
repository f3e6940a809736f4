import { describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigSchema, type SettingName } from '../src/kernel/config.ts'

const ROOT = join(import.meta.dir, '..')
const guide = readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8')

describe('docs/deploy.md keeps up with the settings', () => {
  test('its list of secrets names every setting that holds a key, a secret, a token or credentials', () => {
    const section = guide.slice(guide.indexOf('## 9. Every secret'))
    // Every setting named in the first cell of a row of its table.
    const firstCells = section.split('\n').flatMap((line) => (line.startsWith('| ') ? [line.split('|')[1]!] : []))
    const listed = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1])))
    const names = Object.keys(ConfigSchema.properties) as SettingName[]
    // A secret by its name, or by what its description says of it; CDP_API_KEY_ID is named with its secret.
    const secrets = names.filter(
      (name) =>
        name !== 'CDP_API_KEY_ID' &&
        (/(KEY|SECRET|TOKEN|HEADERS)$|PRIVATE/.test(name) ||
          (ConfigSchema.properties[name].description ?? '').includes('never logged')),
    )
    expect(secrets.length).toBeGreaterThan(10)
    expect(secrets.filter((name) => !listed.has(name))).toEqual([])
    // URLs that may carry credentials are listed too.
    expect([...listed]).toEqual(expect.arrayContaining(['SOLANA_RPC_URL', 'REDIS_URL']))
  })

  const analyze = Bun.which('systemd-analyze')
  ;(analyze ? test : test.skip)(
    `deploy/solsentry.service passes systemd-analyze verify${analyze ? '' : ' — skipped: systemd-analyze is not installed'}`,
    () => {
      // Its binary swapped for one that exists here: verify checks that ExecStart can be run.
      const dir = mkdtempSync(join(tmpdir(), 'solsentry-unit-'))
      try {
        const unit = readFileSync(join(ROOT, 'deploy/solsentry.service'), 'utf8')
        expect(unit).toContain('ExecStart=/usr/local/bin/solsentry\n')
        const path = join(dir, 'solsentry.service')
        writeFileSync(path, unit.replace('ExecStart=/usr/local/bin/solsentry', `ExecStart=${process.execPath}`))
        const checked = Bun.spawnSync([analyze!, 'verify', '--man=no', path], { stderr: 'pipe', stdout: 'pipe' })
        expect(checked.stderr.toString()).toBe('')
        expect(checked.exitCode).toBe(0)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  )
})
