import { describe, expect, test } from 'bun:test'
import { answerText } from '../plugins/mcp/text.ts'
import { launchpadService } from './support/launchpad-service.ts'

// The service's own words for people (issue 32): every sentence an answer carries — summaries, reports,
// findings' messages, reasons — reads its numbers as the CLI and the web page print them, through the one
// formatter (src/rendering/format.ts): dollars with cents or three significant digits, token amounts in
// human units, a percentage's sign once, a count with its noun agreeing, "not measured" for what is not.
// Every route of the catalogue is called on the sandbox, for every scenario, and each string read.
const { sandbox, post, runnerNearCompletion } = await launchpadService()

const runner = await runnerNearCompletion()

const SOL = 'So11111111111111111111111111111111111111112'
const TOKEN_ROUTES = ['/scan/quick', '/market/intel', '/scan/deep', '/exit/check', '/exit/cross-check']
const FEEDS: [string, Record<string, unknown>][] = [
  ['/scan/trending', {}],
  ['/signal/radar', {}],
  ['/signal/radar', { interval: '24h' }],
  ['/launch/radar', {}],
  ['/launch/radar', { stage: 'near_completion' }],
  ['/launch/radar', { token_address: runner.mint }],
  ['/graduation/radar', {}],
  ['/graduation/radar', { token_address: runner.mint }],
  ['/graduation/momentum', {}],
  ['/scan/smart-money', {}],
  ['/news/pulse', {}],
  ['/news/brief', {}],
  ['/news/pulse_plus', {}],
  ['/news/report', {}],
  // One item: "1 curve", never "1 curves".
  ['/scan/trending', { limit: 1 }],
  ['/signal/radar', { interval: '24h', limit: 1 }],
  ['/launch/radar', { limit: 1 }],
  ['/graduation/radar', { limit: 1 }],
  ['/graduation/momentum', { limit: 1 }],
  ['/scan/smart-money', { limit: 1 }],
  ['/scan/smart-money', { interval: '1h' }],
  ['/trade/suggest', { source: 'signal', interval: '24h' }],
  ['/trade/suggest', { source: 'launch' }],
  ['/trade/suggest', { source: 'launch', risk_appetite: 'conservative' }],
]
const wallets = [...new Set(sandbox.file.scenarios.flatMap((scenario) => scenario.wallets.map((w) => w.address)))]

/** Members that hold words for people (the rest are codes, addresses, numbers, urls). */
const PROSE = /summary|report|message|reason|detail|explanation|why|text|title|headline|verdict|note|rationale/i

/**
 * Every string of the service's own words in `answer`, with where it sits: not the news sources' posts,
 * nor what the language model wrote (the written news' `brief`, `synthesis` and `report`).
 */
function proseOf(answer: unknown, where = ''): { where: string; text: string }[] {
  if (/^(posts|brief|synthesis|report)\b/.test(where)) return []
  if (typeof answer === 'string') return PROSE.test(where) && /\s/.test(answer) ? [{ where, text: answer }] : []
  if (Array.isArray(answer)) return answer.flatMap((item, index) => proseOf(item, `${where}[${index}]`))
  if (answer && typeof answer === 'object')
    return Object.entries(answer).flatMap(([key, value]) => proseOf(value, where ? `${where}.${key}` : key))
  return []
}

/** Nouns the service counts in words, singular and plural. */
const NOUNS = [
  ['curve', 'curves'],
  ['launchpad coin', 'launchpad coins'],
  ['proven wallet', 'proven wallets'],
  ['wallet', 'wallets'],
  ['token', 'tokens'],
  ['coin', 'coins'],
  ['leg', 'legs'],
  ['trade', 'trades'],
  ['buyer', 'buyers'],
  ['seller', 'sellers'],
  ['holder', 'holders'],
  ['signal', 'signals'],
  ['entry', 'entries'],
  ['radar entry', 'radar entries'],
  ['article', 'articles'],
  ['source', 'sources'],
  ['transaction', 'transactions'],
  ['pool', 'pools'],
  ['route', 'routes'],
  ['launch', 'launches'],
  ['buy', 'buys'],
  ['sell', 'sells'],
  ['finding', 'findings'],
  ['candidate', 'candidates'],
  ['sniper', 'snipers'],
  ['hour', 'hours'],
  ['minute', 'minutes'],
  ['day', 'days'],
  ['round trip', 'round trips'],
  ['risk', 'risks'],
  ['post', 'posts'],
  ['point', 'points'],
  ['slot', 'slots'],
  ['push', 'pushes'],
  ['account', 'accounts'],
] as const

/** What a sentence must never read like, each with why. */
const WRONG: [RegExp, string][] = [
  // 0.0000154 is a formatted tiny price (three significant digits); 0.00195444 and 9.89989 are not.
  [
    /(?<![\w.])(?:[1-9][\d,]*\.\d{5,}|0\.0*[1-9]\d{4,})/,
    'a number with five significant decimals or more, unformatted',
  ],
  [/\$\d{4,}/, 'dollars from a thousand without thousands separators'],
  [/(?<![\w.,])\d{5,}(?![\w.,])/, 'a number from ten thousand without thousands separators'],
  [/\$[\d,]*\d\.\d(?!\d)/, 'dollars with one decimal (cents read $12.50)'],
  [/\$[1-9][\d,]*\.\d{3,}/, 'dollars from one up with more than cents'],
  [/\$0\.0*[1-9]\d{3,}/, 'a price under a dollar with more than three significant digits'],
  // (The MCP text says what null means in the JSON: "their values in the answer are null or placeholders".)
  [/\bNaN\b|\bundefined\b|\bnull\b(?! or placeholders)|\bInfinity\b/, 'a missing value printed as code'],
  [/\$-|--|\+-|-\+|%%/, 'a sign twice or in the wrong place'],
  [/(?<=[\s(+-])\?(?=[\s%,.)]|$)/, 'a missing value printed as "?" (it reads "not measured")'],
  [
    new RegExp(`(?<![\\w.,])1 (?:[a-z]+ )?(?:${NOUNS.map(([, plural]) => plural).join('|')})\\b`),
    'one, counted in the plural',
  ],
  [
    /(?<![\w.,$-])0 (?:proven wallets|curves|launchpad coins|coins|tokens|wallets|risks|radar entries|round trips)\b/,
    'none counted as a reading ("0 proven wallets" reads "no proven wallets")',
  ],
]
for (const [singular] of NOUNS)
  WRONG.push([
    new RegExp(`(?<![\\w.,$-])(?!1 )(?:\\d{1,3}(?:,\\d{3})+|\\d+) ${singular}(?![\\w-])`),
    `a count other than one with "${singular}" singular`,
  ])

const seen: { route: string; where: string; text: string }[] = []
async function read(path: string, body: Record<string, unknown>) {
  const { status, body: answer } = await post(path, body)
  const route = `${path} ${JSON.stringify(body)} → ${status}`
  for (const { where, text } of proseOf(answer)) seen.push({ route, where, text })
  const words = status === 200 ? answerText(`POST ${path}`, answer) : undefined
  if (words) seen.push({ route, where: 'MCP text', text: words })
}

describe("the service's prose reads its numbers as people do", () => {
  test('every route, every scenario: no raw number, no "1 curves", no NaN, no sign twice', async () => {
    for (const scenario of sandbox.file.scenarios)
      for (const path of TOKEN_ROUTES) await read(path, { token_address: scenario.mint })
    await read('/exit/check', { token_address: runner.mint, size_usdc: 2500 })
    for (const [path, body] of FEEDS) await read(path, body)
    for (const wallet of wallets) await read('/wallet/intel', { wallet_address: wallet })
    // A quote, and the rejections that say why in words (the risk gate, the price impact).
    for (const scenario of ['blue-chip', 'hostile-token-2022', 'dead-token'])
      await read('/trade/quote', {
        input_mint: SOL,
        output_mint: sandbox.file.scenarios.find((entry) => entry.name === scenario)!.mint,
        amount_in: '100000000',
        user_public_key: sandbox.file.buyer.address,
      })

    // Every route called said something in words, and the quotes' rejections said why.
    const asked = [...TOKEN_ROUTES, ...FEEDS.map(([path]) => path), '/wallet/intel', '/trade/quote']
    const said = new Set(seen.map(({ route }) => route.split(' ')[0]))
    expect(asked.filter((path) => !said.has(path))).toEqual([])
    expect(seen.filter(({ where }) => where === 'rejection.reason').length).toBeGreaterThanOrEqual(2)
    const wrong = seen.flatMap(({ route, where, text }) =>
      WRONG.filter(([pattern]) => pattern.test(text)).map(
        ([pattern, why]) => `${why}: ${route} ${where}: …${text.match(pattern)![0]}… in ${JSON.stringify(text)}`,
      ),
    )
    expect(wrong).toEqual([])
  }, 600_000)
})
