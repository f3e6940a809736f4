import type { World } from './world/world.ts'
import { faultResponse, type FaultPlan, type SandboxServer, withoutMembers } from './faults.ts'

/**
 * Serves a stand-in's request handler on Bun.serve with the fault plan in front: requests are counted
 * per server and path (and recorded with their times while a recording is open), and a fault set for
 * the path answers instead of the handler (`drop_members` trims the handler's answer).
 */
export function serveStandIn(
  name: Exclude<SandboxServer, 'rpc'>,
  world: World,
  handle: (world: World, request: Request) => Response | Promise<Response>,
  options: { hostname: string; port: number },
  faults: FaultPlan,
): { url: string; stop(): Promise<void> } {
  const server = Bun.serve({
    hostname: options.hostname,
    port: options.port,
    async fetch(request) {
      const receivedAt = performance.now()
      const { pathname } = new URL(request.url)
      faults.count(name)
      faults.count(`${name}:${pathname}`)
      const fault = faults.match(name, pathname)
      const injected = await faultResponse(fault, { unexpected: 'shape' }, faults.latencyMs)
      const answer = injected ?? (await withoutMembers(fault, await handle(world, request)))
      faults.answered(name, pathname, receivedAt)
      return answer
    },
  })
  return { url: `http://${options.hostname}:${server.port}`, stop: () => server.stop(true) }
}
