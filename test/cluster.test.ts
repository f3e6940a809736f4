import { expect, test } from 'bun:test'
import { clusterMissing, runCluster } from '../bench/cluster.ts'

// The cluster bench's short form (`npm run bench -- cluster` is the long one, docs/benchmarks.md): three
// service processes on one redis-server behind HAProxy, paid traffic on both rails and trades, the
// launch-index lease holder killed (SIGKILL) while it settles a payment, then restarted. Every check of
// the bench must hold: the treasuries moved exactly by the ledger's settled payments, none settled twice,
// every payment that moved answered or collectable, trade jobs the same from every instance, one
// client's limit for the cluster, one ingester at a time and a new one within the lease, one
// attestation key. Shorter: 2 s phases, one paying client per rail, a 4 s lease.
const run = clusterMissing ? test.skip : test
run(
  `a cluster behaves as one service when an instance is killed mid-traffic${clusterMissing ? ` — skipped: ${clusterMissing}` : ''}`,
  async () => {
    const report = await runCluster({
      seconds: 2,
      workers: 1,
      settleMs: 300,
      leaseMs: 4_000,
      verbose: process.env.CLUSTER_VERBOSE === '1',
    })
    expect(report.failures).toEqual([])
    expect(report.takeoverMs).not.toBeNull()
    expect(report.exchanges.filter((exchange) => exchange.status === 200).length).toBeGreaterThan(0)
  },
  90_000,
)
