import { afterAll, describe, expect, test } from 'bun:test'
import { address, createSolanaRpc } from '@solana/kit'
import { stringifyRpcJson } from './rpc-json.ts'

describe('stringifyRpcJson', () => {
  test('writes bigints as bare integers and uiAmount as an f64', () => {
    const text = stringifyRpcJson({
      newerTransferFee: { epoch: 0n, maximumFee: 18_446_744_073_709_551_615n, transferFeeBasisPoints: 1000 },
      tokenAmount: { uiAmount: 1, decimals: 6, amount: '1000000', uiAmountString: '1' },
      tiny: { uiAmount: 1e-9 },
      none: { uiAmount: null },
    })
    expect(text).toBe(
      '{"newerTransferFee":{"epoch":0,"maximumFee":18446744073709551615,"transferFeeBasisPoints":1000},' +
        '"tokenAmount":{"uiAmount":1.0,"decimals":6,"amount":"1000000","uiAmountString":"1"},' +
        '"tiny":{"uiAmount":1e-9},"none":{"uiAmount":null}}',
    )
  })

  test('skips undefined members as JSON.stringify does, and escapes strings the same way', () => {
    const value = { a: undefined, b: ['x"\n\u0001', undefined, true], c: 'é' }
    expect(stringifyRpcJson(value)).toBe(JSON.stringify(value))
  })

  test('can name other f64 members', () => {
    expect(stringifyRpcJson({ total: 2, n: 2 }, new Set(['total']))).toBe('{"total":2.0,"n":2}')
  })
})

// What matters is how a real client reads the text: serve it and read it back with @solana/kit.
describe('read back by @solana/kit', () => {
  const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
  const accountData = {
    program: 'spl-token-2022',
    parsed: {
      type: 'account',
      info: {
        mint: 'So11111111111111111111111111111111111111112',
        owner: 'So11111111111111111111111111111111111111112',
        tokenAmount: { uiAmount: 1, decimals: 6, amount: '1000000', uiAmountString: '1' },
        state: 'initialized',
        isNative: false,
        extensions: [{ extension: 'transferFeeAmount', state: { withheldAmount: 18_446_744_073_709_551_615n } }],
      },
    },
    space: 170,
  }
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const { id } = (await request.json()) as { id: unknown }
      const value = {
        data: accountData,
        executable: false,
        lamports: 2_074_080n,
        owner: TOKEN_2022,
        rentEpoch: 0n,
        space: 170n,
      }
      const body = stringifyRpcJson({ jsonrpc: '2.0', id, result: { context: { slot: 7n }, value } })
      return new Response(body, { headers: { 'content-type': 'application/json' } })
    },
  })
  afterAll(() => server.stop(true))

  test('keeps u64 values past 2^53 exact and uiAmount a number', async () => {
    const rpc = createSolanaRpc(`http://127.0.0.1:${server.port}`)
    const { value } = await rpc
      .getAccountInfo(address('So11111111111111111111111111111111111111112'), { encoding: 'jsonParsed' })
      .send()
    const data = value?.data as unknown as typeof accountData
    expect(data.parsed.info.extensions[0]?.state.withheldAmount).toBe(18_446_744_073_709_551_615n)
    expect(data.parsed.info.tokenAmount.uiAmount).toBe(1)
    expect(typeof data.parsed.info.tokenAmount.uiAmount).toBe('number')
  })
})
