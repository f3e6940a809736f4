import { expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadAttestor } from './attest/attestation.ts'
import { loadConfig } from './settings.ts'

// An attestation key the service cannot use stops the start with one line naming the setting (exit 78
// from src/main.ts), not a stack trace after the settings passed — under systemd, a restart loop.
test('ATTESTATION_KEY missing or not a keypair file: a configuration error naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attestation-'))
  expect(() => loadConfig({ ATTESTATION_KEY: join(dir, 'absent.json') })).toThrow(
    /^ATTESTATION_KEY: cannot use .*absent\.json .*a Solana keypair file/,
  )
  writeFileSync(join(dir, 'text.json'), 'not json')
  expect(() => loadConfig({ ATTESTATION_KEY: join(dir, 'text.json') })).toThrow('a Solana keypair file')
  // One the service generated (its data directory's), given as the setting: accepted.
  loadAttestor(undefined, dir)
  const good = join(dir, 'attestation-key.json')
  expect(loadConfig({ ATTESTATION_KEY: good }).ATTESTATION_KEY).toBe(good)
})
