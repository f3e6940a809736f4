import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'

export const manifest = defineManifest({
  name: 'metrics',
  routes: {
    metrics: {
      method: 'GET',
      path: '/metrics',
      summary: 'Prometheus metrics (for the operator)',
      description:
        'Requests by route and status with latencies, upstream calls by source, method and outcome with latencies, cache ' +
        'lookups, open breakers, dependency states, payments by state and network, settlement latency, ledger ' +
        'reconciliations, trade jobs by status, rate-limit refusals, and the process (docs/operations.md). With ' +
        'METRICS_TOKEN set it needs `Authorization: Bearer <token>`; without, it answers loopback clients only (403).',
      price: 'free',
      response: Type.String(),
      produces: 'text/plain',
      errors: ['FORBIDDEN'],
      tags: ['operations'],
    },
  },
})
