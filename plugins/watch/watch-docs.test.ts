import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { THRESHOLDS } from './thresholds.ts'
import { EVENT_KINDS } from './watch-events.ts'
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TOLERANCE_S } from './webhook-signature.ts'

// docs/watch.md restates the tables of the code for a reader: it must name each of them as they are.
const page = readFileSync(join(import.meta.dir, '../../docs/watch.md'), 'utf8')
const rows = (heading: string) => {
  const section = page.slice(page.indexOf(`## ${heading}`))
  return section
    .slice(0, section.indexOf('\n## ', 3))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
}

test('docs/watch.md has one row per event kind, none missing or extra', () => {
  expect(rows('Events').map((line) => line.split('`')[1])).toEqual([...EVENT_KINDS].sort(byDocOrder))
})

test('docs/watch.md gives each threshold its unit, default and bounds as the code has them', () => {
  const format = (value: number) => value.toLocaleString('en').replaceAll(',', ' ')
  expect(
    rows('Thresholds').map((line) =>
      line
        .split('|')
        .slice(1, 5)
        .map((cell) => cell.trim().replaceAll('`', '')),
    ),
  ).toEqual(
    Object.entries(THRESHOLDS).map(([name, spec]) => [
      name,
      spec.unit.replace('_', ' '),
      format(spec.default),
      `${format(spec.min)}–${format(spec.max)}`,
    ]),
  )
})

test('docs/watch.md names the signature header and its tolerance', () => {
  expect(page).toContain(`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,sig=<base58 Ed25519 signature>`)
  expect(WEBHOOK_TOLERANCE_S).toBe(300)
  expect(page).toContain('more than five minutes')
})

/** The page lists events by subject (liquidity, then the mint, metadata, insiders, the undetected last). */
const DOC_ORDER = [
  'liquidity_removed',
  'lp_moved',
  'lp_lock_expiring',
  'lp_unlocked',
  'mint_used',
  'mint_authority_changed',
  'freeze_used',
  'freeze_authority_changed',
  'transfer_fee_raised',
  'transfer_hook_changed',
  'permanent_delegate_used',
  'default_state_changed',
  'paused',
  'metadata_renamed',
  'insider_selling',
  'sell_route_failing',
  'grade_fell',
]
function byDocOrder(a: string, b: string): number {
  return DOC_ORDER.indexOf(a) - DOC_ORDER.indexOf(b)
}
