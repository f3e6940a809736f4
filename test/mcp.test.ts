import { verifyAttestation } from '../src/attest/attestation.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction } from '@solana/kit'
import type { PaymentRequired } from '@x402/core/types'
import { demoPayer } from '../sandbox/demo-client.ts'
import { liveService } from './support/live.ts'
import { usdcOf } from './support/x402.ts'

// The whole service on the sandbox over HTTP on loopback; an MCP client on the official SDK.
const { sandbox, running, mintOf } = await liveService()

const { x402: offers } = sandbox.file

async function connect(): Promise<Client> {
  const client = new Client({ name: 'solsentry-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)))
  return client
}
const mcp = await connect()
afterAll(() => mcp.close())

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any
const call = (name: string, args: Record<string, unknown>, payment?: unknown) =>
  mcp.callTool({ name, arguments: args, ...(payment ? { _meta: { 'x402/payment': payment } } : {}) }) as Promise<Json>

/** A payment the official client signs for the PaymentRequired a paid tool answered. */
async function pay(required: PaymentRequired, rail: 'solana' | 'base'): Promise<unknown> {
  const { client } = await demoPayer(sandbox.file, rail)
  return client.createPaymentPayload(required)
}

describe('MCP at /mcp (official SDK client)', () => {
  test('lists one tool per skill route, with the manifests schemas, prices and call order', async () => {
    const { tools } = await mcp.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'sol_deep_dive',
      'sol_exit_check',
      'sol_exit_cross_check',
      'sol_graduation_momentum',
      'sol_graduation_radar',
      'sol_launch_radar',
      'sol_market_intel',
      'sol_news_brief',
      'sol_news_pulse',
      'sol_news_pulse_plus',
      'sol_news_report',
      'sol_quick_scan',
      'sol_quick_scan_batch',
      'sol_signal_radar',
      'sol_smart_money',
      'sol_trade_currencies',
      'sol_trade_execute',
      'sol_trade_pairs',
      'sol_trade_quote',
      'sol_trade_status',
      'sol_trade_suggest',
      'sol_trending',
      'sol_wallet_intel',
      'sol_watch',
    ])
    const quick = tools.find((tool) => tool.name === 'sol_quick_scan')!
    expect(quick.inputSchema).toMatchObject({ type: 'object', required: ['token_address'] })
    expect(quick.description).toContain('before any swap or buy decision')
    expect(quick.description).toContain('0.02 USD')
    expect(quick.outputSchema?.type).toBe('object')
    const status = tools.find((tool) => tool.name === 'sol_trade_status')!
    expect(status.inputSchema).toMatchObject({ required: ['job_id'] })
    expect(tools.find((tool) => tool.name === 'sol_trade_pairs')!.description).toContain('Free.')
    expect(mcp.getInstructions()).toContain('1. POST /scan/quick before any swap or buy decision.')
  })

  test('a paid tool without payment answers the x402 PaymentRequired (structuredContent and content[0].text)', async () => {
    const result = await call('sol_quick_scan', { token_address: mintOf('blue-chip') })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({
      x402Version: 2,
      resource: { url: 'mcp://tool/sol_quick_scan' },
      accepts: [
        { network: 'eip155:31337', amount: '20000' },
        { network: offers.solana.network, amount: '20000' },
      ],
    })
    const wrapped = JSON.parse(result.content[0].text)
    expect(wrapped['x402/error']).toMatchObject({ code: 402, data: result.structuredContent })
    // It says how to pay over MCP, not over HTTP: the payment goes in the call's _meta.
    for (const text of [result.structuredContent.error, wrapped['x402/error'].message]) {
      expect(text).toContain('_meta["x402/payment"]')
      expect(text).not.toContain('X-PAYMENT')
    }
  })

  test('a deprecated tool name (before sol_<name>) still answers, as its new tool; tools/list names only the new', async () => {
    const result = await call('trending', {})
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({ x402Version: 2, resource: { url: 'mcp://tool/sol_trending' } })
    await expect(call('no_such_tool', {})).rejects.toThrow('unknown tool no_such_tool')
  })

  test('paid on the Solana rail: the scan, the receipt in _meta, the price moved on chain; the payment replayed is refused', async () => {
    const mint = mintOf('blue-chip')
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const [buyerBefore, payToBefore] = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    const required = (await call('sol_quick_scan', { token_address: mint })).structuredContent
    const payment = await pay(required, 'solana')
    const paid = await call('sol_quick_scan', { token_address: mint }, payment)
    expect(paid.isError).toBeFalsy()
    expect(paid.structuredContent).toMatchObject({ schema_version: '2.0', token_address: mint })
    expect(paid.structuredContent.structural_risk_grade).toMatch(/^[A-F]$/)
    // The answer in words beside its JSON: the scan's scope in one line (plugins/mcp/text.ts).
    expect(paid.content[1].text).toContain('not examined — the deep dive does')
    expect(paid._meta['x402/payment-response']).toMatchObject({ success: true, network: offers.solana.network, payer })
    // The answer's attestation rides in _meta, signed over the text content's exact bytes.
    const key = ((await (await fetch(`${running.url}/.well-known/x402`)).json()) as any).attestation.public_key
    const statement = verifyAttestation(paid._meta['solsentry/attestation'], key)
    expect(statement).toMatchObject({
      route: 'POST /scan/quick',
      payment: { transaction: paid._meta['x402/payment-response'].transaction },
    })
    expect(statement!.response_sha256).toBe(new Bun.CryptoHasher('sha256').update(paid.content[0].text).digest('hex'))
    expect(await usdcOf(sandbox, payer)).toBe(buyerBefore - 20_000n)
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(payToBefore + 20_000n)

    const replayed = await call('sol_quick_scan', { token_address: mint }, payment)
    expect(replayed.isError).toBe(true)
    expect(replayed.structuredContent.x402Version).toBe(2)
    expect(replayed.structuredContent.error).toMatch(/already|used|once/i)
    expect(await usdcOf(sandbox, payer)).toBe(buyerBefore - 20_000n)
  })

  test('paid on the Base rail (EIP-3009 on anvil): the market intel and its receipt', async () => {
    const mint = mintOf('blue-chip')
    const { payer } = await demoPayer(sandbox.file, 'base')
    const before = await sandbox.evm.usdcBalance(payer as `0x${string}`)
    const required = (await call('sol_market_intel', { token_address: mint })).structuredContent
    const paid = await call('sol_market_intel', { token_address: mint }, await pay(required, 'base'))
    expect(paid.isError).toBeFalsy()
    expect(paid.structuredContent).toMatchObject({ schema_version: '2.0', data_quality: 'FULL' })
    expect(['BULLISH', 'BEARISH', 'NEUTRAL']).toContain(paid.structuredContent.signal)
    expect(paid._meta['x402/payment-response']).toMatchObject({ success: true, network: 'eip155:31337' })
    expect(await sandbox.evm.usdcBalance(payer as `0x${string}`)).toBe(before - 200_000n)
  })

  test('a paid tool given a token account: isError with the refusal naming its mint, the payment released', async () => {
    const { buyer, usdc_mint: usdc } = sandbox.file
    const tokenAccount = await sandbox.world.ata(usdc, buyer.address)
    const before = await usdcOf(sandbox, offers.solana.pay_to)
    const required = (await call('sol_deep_dive', { token_address: tokenAccount })).structuredContent
    const refused = await call('sol_deep_dive', { token_address: tokenAccount }, await pay(required, 'solana'))
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ error: true, code: 'NOT_A_TOKEN_MINT', mint: usdc })
    expect(refused.structuredContent.message).toContain(`scan ${usdc} instead`)
    expect(JSON.parse(refused.content[0].text)).toEqual(refused.structuredContent)
    expect(refused._meta?.['x402/payment-response']).toBeUndefined()
    expect(await usdcOf(sandbox, offers.solana.pay_to)).toBe(before)
  })

  test('a bad argument is the error catalogue answer, never a challenge', async () => {
    const result = await call('sol_quick_scan', { token_address: 'BONK' })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({ error: true, code: 'INVALID_ADDRESS' })
  })

  test('free tools answer directly: pairs, currencies, a quote and its status', async () => {
    const pairs = await call('sol_trade_pairs', {})
    expect(pairs.isError).toBeFalsy()
    expect(pairs.structuredContent.count).toBeGreaterThan(0)
    const currencies = await call('sol_trade_currencies', {})
    expect(currencies.isError).toBeFalsy()
    const missing = await call('sol_trade_status', { job_id: 'no-such-job' })
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent).toMatchObject({ code: 'JOB_NOT_FOUND' })
  })

  test('a trade that fails after its fee is held is not charged (balances read on chain)', async () => {
    const buyer = await sandbox.world.signer('demo-buyer')
    const quoted = await call('sol_trade_quote', {
      input_mint: 'So11111111111111111111111111111111111111112',
      output_mint: mintOf('blue-chip'),
      amount_in: '100000000',
      user_public_key: buyer.address,
    })
    expect(quoted.isError).toBeFalsy()
    const transaction = getTransactionDecoder().decode(
      Buffer.from(quoted.structuredContent.unsigned_transaction_b64, 'base64'),
    )
    const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([buyer.keyPair], transaction))
    const args = { job_id: quoted.structuredContent.job_id, signed_transaction_b64: signed }
    const required = (await call('sol_trade_execute', args)).structuredContent
    expect(required.accepts[0].amount).toBe('150000')
    const { payer } = await demoPayer(sandbox.file, 'solana')
    const before = [await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]
    // The quote's blockhash expires before the execute arrives: the swap cannot land.
    for (let block = 0; block < 160; block++) sandbox.world.chain.produceBlock()
    const failed = await call('sol_trade_execute', args, await pay(required, 'solana'))
    expect(failed.isError).toBe(true)
    expect(failed.structuredContent).toMatchObject({ status: 'FAILED', rejection: { code: 'BLOCKHASH_EXPIRED' } })
    expect(failed._meta?.['x402/payment-response']).toBeUndefined()
    expect([await usdcOf(sandbox, payer), await usdcOf(sandbox, offers.solana.pay_to)]).toEqual(before)
  })

  test('an unknown tool is a protocol error naming the list', async () => {
    await expect(call('sol_everything', {})).rejects.toThrow(/unknown tool sol_everything/)
  })

  test('GET /mcp answers 405: the server is stateless', async () => {
    const response = await fetch(`${running.url}/mcp`, { headers: { accept: 'text/event-stream' } })
    expect(response.status).toBe(405)
  })
})
