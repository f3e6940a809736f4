import { describe, expect, test } from 'bun:test'
import { Counter, Histogram, Registry } from 'prom-client'
import { RouteMeter } from './metrics.ts'

/** The front door's two families on a registry of their own. */
function families() {
  const registry = new Registry()
  const counter = new Counter({
    name: 'requests_total',
    help: 'h',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  })
  const histogram = new Histogram({
    name: 'duration_seconds',
    help: 'h',
    labelNames: ['route'] as const,
    buckets: [0.005, 0.01, 0.1, 1],
    registers: [registry],
  })
  return { registry, counter, histogram }
}

describe('RouteMeter', () => {
  test('a scrape reads what prom-client’s own inc and observe would have counted, in the same order', async () => {
    const direct = families()
    const metered = families()
    const meter = new RouteMeter(metered.counter, metered.histogram, [0.005, 0.01, 0.1, 1])
    // Label sets first seen in between others, durations in every bucket and above the last.
    const answers: [string, number, number][] = [
      ['GET /health', 200, 0.0001],
      ['POST /scan/quick', 402, 0.003],
      ['GET /health', 200, 0.007],
      ['unmatched', 404, 0.0002],
      ['POST /scan/quick', 400, 0.05],
      ['POST /scan/quick', 402, 0.5],
      ['GET /health', 503, 2.5],
      ['POST /scan/quick', 200, 0.01],
    ]
    const scrapes: string[][] = [[], []]
    for (const [index, [route, status, seconds]] of answers.entries()) {
      direct.counter.inc({ route, status })
      direct.histogram.observe({ route }, seconds)
      meter.count(route, status, seconds)
      if (index === 3 || index === answers.length - 1) {
        scrapes[0]!.push(await direct.registry.metrics())
        scrapes[1]!.push(await metered.registry.metrics())
      }
    }
    expect(scrapes[1]).toEqual(scrapes[0]!)
    expect(scrapes[1]![1]).toContain('requests_total{route="POST /scan/quick",status="402"} 2')
    expect(scrapes[1]![1]).toContain('duration_seconds_bucket{le="+Inf",route="GET /health"} 3')
  })
})
