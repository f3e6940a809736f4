import { describe, expect, test } from 'bun:test'
import { type Task, TaskState } from '@a2a-js/sdk'
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client'
import { offerings } from '../src/kernel/catalogue.ts'
import { atomicPriceOf } from '../src/kernel/manifest.ts'
import { a2aAgent, jsonRpcOnly, a2aWords, dataSaidBy, saidBy, wordsOf } from './support/a2a.ts'
import { liveService } from './support/live.ts'

// An LLM agent's A2A message: text only, no `solsentry.skill`. The skill and its input are read from the
// words each feature's manifest declares (`askedBy`); every example the served card shows must run.
const { running, ctx, mintOf, sandbox } = await liveService({ RATE_LIMIT_SCANNER_BURST: '1000' })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const agent = await a2aAgent(running.url, jsonRpcOnly())
const card = await new DefaultAgentCardResolver().resolve(running.url)
const routes = new Map(offerings(ctx.registry).map((offering) => [offering.tool, offering]))

/** An LLM agent's message: `text`, nothing named. */
const ask = (text: string) => agent.send(a2aWords(text))
const said = (task: Task): Json => saidBy(task)
const addresses = (text: string) => text.match(/[1-9A-HJ-NP-Za-km-z]{32,44}/g) ?? []

const SOL = 'So11111111111111111111111111111111111111112'
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

/** What the words of an example mean, where they state more than an address (an example not listed is checked for its skill, its payment step and its addresses). */
const MEANT: Record<string, Record<string, unknown>> = {
  'What is trending on Solana right now?': {},
  'Top traded Solana tokens over 24 hours, graded': { interval: '24h', sort: 'volume' },
  'Signal radar over the last 6 hours': { interval: '6h' },
  'Curves above 80% bonded': { min_progress_pct: 80 },
  'Show new pump.fun coins with the safe preset': { preset: 'safe' },
  'Smart money flows over the last 6 hours': { interval: '6h' },
  'Swap 0.5 SOL for DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 from wallet 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU if it is safe':
    {
      input_mint: SOL,
      output_mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
      amount_in: '500000000',
      user_public_key: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    },
  'Quick scan these mints at once: DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263 EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v':
    { token_addresses: ['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', USDC] },
  'Scan every token in wallet 9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM, spending at most 0.30 USD': {
    wallet_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    max_usd: 0.3,
  },
  'Sell 100 USDC for SOL from wallet 7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU': {
    input_mint: USDC,
    output_mint: SOL,
    amount_in: '100000000',
    user_public_key: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  },
}

const examples = card.skills.flatMap((skill) => skill.examples.map((example) => [skill.id, example] as const))

describe('A2A messages in words (no solsentry.skill): the skill inferred from the manifests', () => {
  test('the card shows examples, trade ones naming their wallet', () => {
    expect(examples.length).toBeGreaterThanOrEqual(16)
    expect(examples.filter(([skill]) => skill === 'sol_trade').every(([, text]) => /wallet \w{32,44}/.test(text))).toBe(
      true,
    )
  })

  test.each(examples)('the card example of %s runs: %s', async (skill, text) => {
    const task = await ask(text)
    const call = task.metadata?.['solsentry.call'] as { skill: string; input: Record<string, unknown> } | undefined
    expect(call, wordsOf(task)).toBeDefined()
    const offering = routes.get(call!.skill)!
    // The route the words chose belongs to the card skill the example is listed under.
    expect(offering.skill).toBe(skill)
    const meant = MEANT[text]
    if (meant) expect(call!.input).toEqual(meant)
    else expect(Object.values(call!.input).sort()).toEqual([...new Set(addresses(text))].sort())
    if (offering.route.price === 'free') {
      // A free route runs at once: its own answer or refusal, never an unread input.
      expect(dataSaidBy(task)?.code ?? 'answered').not.toMatch(/^INVALID_/)
      expect(said(task)['x402.payment.status']).toBeUndefined()
    } else if (offering.route.price.per && task.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
      // A price per unit whose words buy nothing here (the example's mainnet mints are no sandbox tokens):
      // answered free, the input read all the same — never refused as unread.
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED)
      expect(said(task)['x402.payment.status']).toBeUndefined()
    } else {
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
      expect(said(task)['x402.payment.status']).toBe('payment-required')
      expect(said(task)['x402.payment.required'].resource.url).toEndWith(offering.route.path)
    }
  })

  test('a batch asked in words with sandbox tokens asks for its price per mint; a wallet without a cap is asked for max_usd', async () => {
    const mints = [mintOf('blue-chip'), mintOf('dead-token')]
    const task = await ask(`Quick scan these at once: ${mints.join(', ')}`)
    expect(task.metadata?.['solsentry.call']).toEqual({
      skill: 'sol_quick_scan_batch',
      input: { token_addresses: mints },
    })
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED)
    const required = said(task)['x402.payment.required']
    expect(required.resource.url).toEndWith('/scan/quick/batch')
    // Two mints at the unit price each.
    const price = routes.get('sol_quick_scan_batch')!.route.price
    const unit = price === 'free' ? 0n : BigInt(atomicPriceOf(price, 1))
    expect(required.accepts.map((offer: Json) => BigInt(offer.amount))).toEqual(required.accepts.map(() => 2n * unit))
    const uncapped = await ask(`Scan every token in wallet ${mintOf('blue-chip').replace(/./, 'F')}`)
    expect(dataSaidBy(uncapped)).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringContaining('needs max_usd'),
    })
  })

  test('named metadata still wins over the words', async () => {
    const task = await agent.send(
      a2aWords(`What is trending? ${mintOf('blue-chip')}`, { 'solsentry.skill': 'sol_deep_dive' }),
    )
    expect(task.metadata?.['solsentry.call']).toEqual({
      skill: 'sol_deep_dive',
      input: { token_address: mintOf('blue-chip') },
    })
  })

  test('a mint and "trending": the trending feed centred on that mint (its optional token_address)', async () => {
    const mint = mintOf('blue-chip')
    const task = await ask(`${mint} trending`)
    expect(task.metadata?.['solsentry.call']).toEqual({ skill: 'sol_trending', input: { token_address: mint } })
    expect(said(task)['x402.payment.status']).toBe('payment-required')
  })

  test('what the words do not determine is answered, not guessed: failed INVALID_REQUEST, nothing asked to pay', async () => {
    const mint = mintOf('blue-chip')
    const cases: [string, RegExp, Record<string, unknown>][] = [
      // Two addresses for a one-address skill.
      [
        `quick scan ${mint} ${sandbox.file.usdc_mint}`,
        /holds 2 addresses .* send the one you mean/,
        { skill: 'sol_quick_scan' },
      ],
      // An address skill without its address: which member to send.
      [
        'is it safe to buy?',
        /sol_quick_scan .* "token_address"/,
        { skill: 'sol_quick_scan', missing: ['token_address'] },
      ],
      // A trade without the wallet: exactly which member is missing.
      [
        'Sell 100 USDC for SOL from my wallet',
        /"user_public_key"/,
        { skill: 'sol_trade_quote', missing: ['user_public_key'] },
      ],
      // Gibberish: the skills and how to name one.
      ['asdf qwer zxcv', /name no skill.*sol_quick_scan.*metadata\["solsentry.skill"\]/, {}],
      // Two skills asked equally.
      [
        `is ${mint} safe, and is it trending?`,
        /several skills \(.*sol_quick_scan.*sol_trending|several skills \(.*sol_trending.*sol_quick_scan/,
        {},
      ],
    ]
    for (const [text, reason, members] of cases) {
      const task = await ask(text)
      expect(task.status?.state, text).toBe(TaskState.TASK_STATE_FAILED)
      expect(said(task)['x402.payment.status'], text).toBeUndefined()
      expect(wordsOf(task), text).toMatch(reason)
      expect(dataSaidBy(task), text).toMatchObject({ code: 'INVALID_REQUEST', ...members })
      expect(task.metadata?.['solsentry.call'], text).toBeUndefined()
    }
  })
})
