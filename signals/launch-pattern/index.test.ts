import { describe, expect, test } from 'bun:test'
import { base, buy, launch, runOn as run } from '../../test/support/facts/launch.ts'
import launchPattern from './index.ts'

describe('launch-pattern', () => {
  test('a developer-funded wallet buying in the launch window: STEALTH_LAUNCH', () => {
    expect(run(launchPattern, base([buy('a', 2)], { a: 'dev' })).fields).toEqual({ launch_pattern: 'STEALTH_LAUNCH' })
  })
  test('the developer buying over a tenth of the supply at launch: STEALTH_LAUNCH', () => {
    expect(run(launchPattern, base([buy('dev', 0, 150_000n)])).fields).toEqual({ launch_pattern: 'STEALTH_LAUNCH' })
  })
  test('unrelated first buyers and a small developer buy: FAIR_LAUNCH', () => {
    expect(
      run(launchPattern, base([buy('dev', 0, 30_000n), buy('a', 1), buy('b', 2)], { a: 'x', b: 'y' })).fields,
    ).toEqual({ launch_pattern: 'FAIR_LAUNCH' })
  })
  test('never traded, or facts missing: UNKNOWN', () => {
    expect(run(launchPattern, { ...base([]), launch: launch([], null, null) }).fields).toEqual({
      launch_pattern: 'UNKNOWN',
    })
    expect(run(launchPattern, { ...base([]), funding: undefined })).toMatchObject({
      status: 'unknown',
      fields: { launch_pattern: 'UNKNOWN' },
    })
  })
})
