import { describe, expect, test } from 'bun:test'
import { base, buy, launch, runOn as run } from '../../test/support/facts/launch.ts'
import bundledLaunch from './index.ts'

describe('bundled-launch', () => {
  const bundle = [buy('a', 0), buy('b', 0), buy('c', 0)]
  test('three developer-funded wallets in the opening slot: a bundle', () => {
    const outcome = run(bundledLaunch, base(bundle, { a: 'dev', b: 'dev', c: 'dev' }))
    expect(outcome.fields).toEqual({ bundled_launch_detected: true })
    expect(outcome.factors[0]).toMatchObject({
      code: 'BUNDLED_LAUNCH',
      evidence: { linked_buyers: ['a', 'b', 'c'], supply_bought_pct: 3 },
    })
  })
  test('same-slot buyers funded independently: reported, not a bundle', () => {
    expect(run(bundledLaunch, base(bundle, { a: 'x', b: 'y', c: 'z' }))).toMatchObject({
      fields: { bundled_launch_detected: false },
      factors: [{ code: 'SAME_SLOT_BUYERS' }],
    })
  })
  test("the developer's own opening buy and buyers a slot later are not a bundle", () => {
    expect(
      run(bundledLaunch, base([buy('dev', 0), buy('a', 1), buy('b', 1), buy('c', 1)], { a: 'dev', b: 'dev', c: 'dev' }))
        .fields,
    ).toEqual({ bundled_launch_detected: false })
  })
  test('a bundle cannot be confirmed without funding: unknown', () => {
    expect(run(bundledLaunch, { ...base(bundle), funding: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['funding'],
      fields: {},
    })
  })
  test('no pool because the pools could not be read is unknown, not "never traded"', () => {
    expect(run(bundledLaunch, { ...base([]), launch: launch([], null, null), pools: undefined })).toMatchObject({
      status: 'unknown',
      missing: ['pools'],
    })
    expect(run(bundledLaunch, { ...base([]), launch: launch([], null, null) })).toMatchObject({
      status: 'ok',
      fields: { bundled_launch_detected: false },
    })
  })
})
