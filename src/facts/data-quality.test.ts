import { describe, expect, test } from 'bun:test'
import { assessDataQuality, type FactPolicy } from './data-quality.ts'

const policy: FactPolicy = { core: ['mint', 'holders'], optional: ['market', 'token_list'] }

describe('assessDataQuality', () => {
  test.each([
    [[], 'FULL', 'HIGH', [], 1],
    [['market'], 'PARTIAL', 'MEDIUM', ['market'], 0.75],
    [['token_list', 'market'], 'PARTIAL', 'MEDIUM', ['market', 'token_list'], 0.5],
    [['holders'], 'LIMITED', 'LOW', ['holders'], 0.75],
    [['mint', 'market'], 'LIMITED', 'LOW', ['mint', 'market'], 0.5],
    // A missing fact the scanner did not ask for does not count.
    [['launchpad'], 'FULL', 'HIGH', [], 1],
  ] as const)('missing %p → %s / %s', (missing, quality, confidence, fields, completeness) => {
    expect(assessDataQuality(policy, missing)).toEqual({
      data_quality: quality,
      data_confidence: confidence,
      missing_fields: [...fields],
      completeness,
    })
  })
})
