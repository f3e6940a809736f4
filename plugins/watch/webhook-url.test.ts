import { expect, test } from 'bun:test'
import { webhookUrlProblem } from './webhook-url.ts'

// Where a watch may send its alerts (SSRF): https to public addresses only; loopback on the sandbox
// profile alone; host names resolved (here by a table standing for DNS) and refused when any address
// they resolve to is internal.
const DNS: Record<string, string[]> = {
  'alerts.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebound.example.com': ['93.184.215.14', '10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:192.168.1.1'],
}
const resolve = async (host: string) => {
  const addresses = DNS[host]
  if (!addresses) throw new Error('ENOTFOUND')
  return addresses
}
const check = (url: string, loopbackAllowed = false) => webhookUrlProblem(url, { loopbackAllowed, resolve })

test.each([
  ['https://alerts.example.com/hook', false, undefined],
  ['https://93.184.215.14/hook', false, undefined],
  ['http://alerts.example.com/hook', false, 'must be https'],
  ['https://rebound.example.com/hook', false, 'resolves to 10.1.2.3'],
  ['https://metadata.example.com/', false, 'resolves to 169.254.169.254'],
  ['https://mapped.example.com/', false, 'resolves to ::ffff:192.168.1.1'],
  ['https://nowhere.example.com/', false, 'does not resolve'],
  ['http://169.254.169.254/latest/meta-data', true, 'must be https'],
  ['https://169.254.169.254/latest/meta-data', true, 'internal'],
  ['https://[fd00::1]/', false, 'internal'],
  ['https://[::ffff:10.0.0.1]/', false, 'internal'],
  ['https://100.64.0.1/', false, 'internal'],
  ['http://127.0.0.1:9000/hook', false, 'not this service’s own host'],
  ['http://localhost:9000/hook', false, 'not this service’s own host'],
  ['http://2130706433/hook', false, 'not this service’s own host'],
  ['http://127.0.0.1:9000/hook', true, undefined],
  ['http://[::1]:9000/hook', true, undefined],
  ['http://localhost:9000/hook', true, undefined],
  ['ftp://127.0.0.1/hook', true, 'http(s)'],
  ['https://user:secret@alerts.example.com/', false, 'credentials'],
  ['not a url', false, 'is not a URL'],
] as const)('%s (loopback allowed: %p) → %p', async (url, loopbackAllowed, problem) => {
  const found = await check(url, loopbackAllowed)
  if (problem === undefined) expect(found).toBeUndefined()
  else expect(found).toContain(problem)
})
