/** `npm run bench -- <name> [options]`: runs one bench from bench/ and prints its figures. */
import * as batch from './batch.ts'
import * as catalogue from './catalogue.ts'
import * as chaos from './chaos.ts'
import * as cluster from './cluster.ts'
import * as cost from './cost.ts'
import * as fuzz from './fuzz.ts'
import * as guard from './guard.ts'
import * as launchpad from './launchpad.ts'
import * as load from './load.ts'
import * as http from './http.ts'
import * as sandboxRpc from './sandbox-rpc.ts'
import * as sources from './sources.ts'
import * as scanners from './scanners.ts'
import * as payments from './payments.ts'
import * as pending from './pending.ts'
import * as trade from './trade.ts'
import * as watch from './watch.ts'

const BENCHES: Record<string, { run(args: string[]): Promise<unknown> }> = {
  http,
  'sandbox-rpc': sandboxRpc,
  sources,
  scanners,
  batch,
  payments,
  pending,
  trade,
  catalogue,
  fuzz,
  load,
  chaos,
  cluster,
  launchpad,
  cost,
  guard,
  watch,
}

const [name, ...args] = process.argv.slice(2)
const bench = name ? BENCHES[name] : undefined
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [options]`)
  process.exit(2)
}
await bench.run(args)
