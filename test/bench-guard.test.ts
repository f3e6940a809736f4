import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync } from 'node:fs'
import { BASELINE_PATH, type Baseline, meetsTarget, worseBy, worstOf } from '../bench/guard.ts'

// The guard's arithmetic (`npm run bench -- guard`): timings are never asserted in tests, but which way
// a figure moved, and whether it meets its target, are plain arithmetic.
describe('bench guard', () => {
  test('worse is measured the figure’s own way', () => {
    expect(worseBy({ better: 'lower' }, 100, 120)).toBeCloseTo(0.2)
    expect(worseBy({ better: 'lower' }, 100, 80)).toBeCloseTo(-0.2)
    expect(worseBy({ better: 'higher' }, 1500, 1250)).toBeCloseTo(0.2)
    expect(worseBy({ better: 'higher' }, 1500, 3000)).toBeCloseTo(-0.5)
    expect(worseBy({ better: 'lower' }, 0, 1)).toBe(Number.POSITIVE_INFINITY)
    expect(worseBy({ better: 'lower' }, 0, 0)).toBe(0)
  })

  test('targets: at most for lower-is-better, at least for higher-is-better, none always met', () => {
    expect(meetsTarget({ better: 'lower', target: 3 }, 3)).toBe(true)
    expect(meetsTarget({ better: 'lower', target: 3 }, 5)).toBe(false)
    expect(meetsTarget({ better: 'higher', target: 100 }, 99)).toBe(false)
    expect(meetsTarget({ better: 'higher' }, 0)).toBe(true)
  })

  test("a run is held to the baseline's worst run, the figure's own way", () => {
    expect(worstOf({ better: 'lower' }, [540, 610, 575])).toBe(610)
    expect(worstOf({ better: 'higher' }, [3769, 3203, 3500])).toBe(3203)
  })

  test('the committed baseline is dated, names its commit and machine, and every figure says which way is better', () => {
    expect(existsSync(BASELINE_PATH)).toBe(true)
    const baseline = JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as Baseline
    expect(baseline.measured).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(baseline.commit).toMatch(/^[0-9a-f]{7,}$/)
    expect(baseline.machine.length).toBeGreaterThan(0)
    expect(baseline.runs).toBeGreaterThanOrEqual(3)
    const figures = Object.entries(baseline.figures)
    expect(figures.length).toBeGreaterThan(15)
    for (const [name, figure] of figures) {
      expect({ name, finite: Number.isFinite(figure.value) && Number.isFinite(figure.worst) }).toEqual({
        name,
        finite: true,
      })
      expect(['lower', 'higher']).toContain(figure.better)
      // The worst run is never better than the median.
      expect({ name, worse: worseBy(figure, figure.value, figure.worst) >= 0 }).toEqual({ name, worse: true })
    }
  })
})
