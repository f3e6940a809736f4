import { describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { watchEngineOf } from '../plugins/watch/index.ts'
import { demoBuyer, demoPayer } from '../sandbox/demo-client.ts'
import { eventually } from './support/eventually.ts'
import { liveService } from './support/live.ts'
import { paymentHeader } from './support/x402.ts'
import { signInHeader } from './support/watch.ts'

// A watch's alerts over MCP (docs/watch.md, "MCP"), with the official MCP client: the resource
// solsentry://watch/<id> read with the paying wallet's sign-in in the read's _meta, its events polled with
// after_seq; another wallet, no sign-in and an unknown watch refused. Bought over HTTP, rugged on the sandbox.
const { sandbox, running, ctx, mintOf } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })
const url = (path: string) => `${running.url}${path}`
const solana = await demoPayer(sandbox.file, 'solana')
const buyer = await demoBuyer(sandbox.file)
const rugReady = mintOf('rug-ready')

/** A SIGN-IN-WITH-X header value signed by `signer` for GET `path` on this service. */
const signIn = (path: string, signer: KeyPairSigner) =>
  signInHeader(url(path), signer, sandbox.file.x402.solana.network)

async function paidWatch(): Promise<string> {
  const body = JSON.stringify({ token_address: rugReady, hours: 1 })
  const post = (headers: Record<string, string> = {}) =>
    fetch(url('/watch'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  const challenged = await post()
  const paid = await post({
    'payment-signature': await paymentHeader(solana.client, challenged.headers.get('payment-required')!),
  })
  expect(paid.status).toBe(200)
  return ((await paid.json()) as { watch_id: string }).watch_id
}

describe('a watch’s alerts as the MCP resource solsentry://watch/<id>', () => {
  test('read by the payer signed in: the watch and its alerts; after_seq gives only later ones; others refused', async () => {
    const id = await paidWatch()
    await sandbox.rugs['mint-more'](rugReady)
    await watchEngineOf(ctx)!.settled()
    const mcp = new Client({ name: 'watch-resource-test', version: '1.0.0' })
    await mcp.connect(new StreamableHTTPClientTransport(new URL(url('/mcp'))))
    try {
      const { resourceTemplates } = await mcp.listResourceTemplates()
      expect(resourceTemplates.map((template) => template.uriTemplate)).toContain('solsentry://watch/{watch_id}')

      const uri = `solsentry://watch/${id}`
      const read = async (target: string, signer: KeyPairSigner | null) =>
        mcp.readResource({
          uri: target,
          ...(signer ? { _meta: { 'solsentry/sign-in-with-x': await signIn(`/watch/${id}`, signer) } } : {}),
        })
      const parsed = await eventually(
        'the mint_used alert on the resource',
        async () => JSON.parse(((await read(uri, buyer)).contents[0] as { text: string }).text),
        (watch) => watch.events.some((item: { event: { kind: string } }) => item.event.kind === 'mint_used'),
      )
      expect(parsed).toMatchObject({ watch_id: id, state: 'active', payer: buyer.address })
      expect(parsed.stream_token).toBeUndefined()
      const last = parsed.events.at(-1).seq as number
      const later = JSON.parse(((await read(`${uri}?after_seq=${last}`, buyer)).contents[0] as { text: string }).text)
      expect(later.events).toEqual([])

      await expect(read(uri, null)).rejects.toThrow(/403/)
      await expect(read(uri, await generateKeyPairSigner())).rejects.toThrow(/another wallet/)
      await expect(read('solsentry://watch/w_nothing', buyer)).rejects.toThrow()
      await expect(read('solsentry://elsewhere', buyer)).rejects.toThrow(/solsentry:\/\/watch\/<watch_id>/)
    } finally {
      await mcp.close()
    }
  })
})
