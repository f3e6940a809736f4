/**
 * Where a watch may send its alerts: the service POSTs to the caller's URL from inside its own network,
 * so a URL reaching that network (a cloud metadata address, a private range, the host itself) would make
 * it a proxy into places the caller cannot reach (SSRF). Checked before any challenge, so a watch that
 * could never deliver is refused unpaid.
 */
import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'

/** Addresses no webhook may reach on a public service: private, loopback, link-local, shared and reserved ranges. */
const INTERNAL = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  INTERNAL.addSubnet(network, prefix, 'ipv6')

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/** An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`) is the IPv4 address it maps. */
function plain(ip: string): { ip: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return { ip: mapped[1]!, family: 'ipv4' }
  return { ip, family: isIP(ip) === 6 ? 'ipv6' : 'ipv4' }
}

const isInternal = (ip: string) => {
  const { ip: address, family } = plain(ip)
  return INTERNAL.check(address, family)
}
const isLoopback = (ip: string) => {
  const { ip: address, family } = plain(ip)
  return LOOPBACK.check(address, family)
}

/**
 * Why `raw` cannot be a watch's webhook, or undefined when it can. `https` to a public address only;
 * with `loopbackAllowed` (a service whose alerts stay on its own machine: the sandbox profile) also
 * `http`/`https` to a loopback address or `localhost`, never another internal one. A host name is
 * resolved unless loopback is allowed and it is `localhost`: every address it resolves to must be public.
 */
export async function webhookUrlProblem(
  raw: string,
  options: { loopbackAllowed: boolean; resolve?: (host: string) => Promise<string[]> },
): Promise<string | undefined> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'is not a URL'
  }
  if (url.username || url.password) return 'must not carry credentials'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = isIP(host) !== 0
  const loopback = literal ? isLoopback(host) : host === 'localhost' || host.endsWith('.localhost')
  if (loopback) {
    if (!options.loopbackAllowed) return 'must reach a public address, not this service’s own host'
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http(s) URL'
  }
  if (url.protocol !== 'https:') return 'must be https'
  if (literal) return isInternal(host) ? `must reach a public address, not ${host} (an internal one)` : undefined
  const resolve = options.resolve ?? resolveAll
  let addresses: string[]
  try {
    addresses = await resolve(host)
  } catch {
    return `names a host that does not resolve (${host})`
  }
  const internal = addresses.find(isInternal)
  if (internal) return `must reach a public address: ${host} resolves to ${internal} (an internal one)`
  return addresses.length === 0 ? `names a host that does not resolve (${host})` : undefined
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)
}
