/**
 * Replays a recorded scan offline (docs/replay.md):
 *
 *   npm run replay -- <cassette.json>            re-run the scan on the recorded answers, compare
 *   npm run replay -- <cassette.json> --serve    only serve the recorded upstreams (prints the settings)
 *
 * The scan runs in an in-process service (the cassette's profile and RPC provider, payments waived:
 * the scan is what is replayed, not its payment) pointed at sandbox/replay.ts. It prints the answer,
 * whether it matches the recorded one (grade, verdict, score, missing facts), and any request the
 * cassette had no answer for. Exit code 1 when the answers differ.
 */
import { scanRequest, waivedService } from '../test/support/service.ts'
import { startReplay } from '../sandbox/replay.ts'
import { type Cassette, readCassette } from '../src/sources/tape.ts'

/** Settings the mainnet profile requires but a replay never uses (no payment is taken or offered). */
const MAINNET_PLACEHOLDERS = {
  PUBLIC_URL: 'http://127.0.0.1',
  FACILITATOR_URL: 'http://127.0.0.1:9',
  PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
  PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
}

/** The members of an answer a replay must reproduce (each scanner carries some of them). */
export const COMPARED = [
  'structural_risk_grade',
  'risk_grade',
  'recommendation',
  'signal',
  'authority_exempt',
  'current_price_usd',
  'factors',
  'data_quality',
  'missing_fields',
]

/** Runs the cassette's scan on its recorded answers: the service's status and answer, and the replay's misses. */
export async function replayScan(cassette: Cassette) {
  const replay = startReplay(cassette)
  try {
    const app = waivedService({
      ...(cassette.settings.SOLSENTRY_PROFILE === 'mainnet' ? MAINNET_PLACEHOLDERS : {}),
      ...cassette.settings,
      SOLANA_RPC_URL: replay.urls.rpc,
      DEXSCREENER_URL: replay.urls.dexscreener,
      JUPITER_URL: replay.urls.jupiter,
    })
    // Only scanner requests are recorded: `POST <path>`.
    const path = cassette.route.split(' ')[1]!
    const response = await app.handle(scanRequest(path, cassette.body))
    return {
      status: response.status,
      answer: (await response.json()) as Record<string, unknown>,
      misses: replay.misses,
    }
  } finally {
    await replay.stop()
  }
}

/** Where a replayed answer differs from the recorded one, member by compared member. */
export function differences(recorded: unknown, replayed: Record<string, unknown>): string[] {
  if (!recorded || typeof recorded !== 'object') return []
  return COMPARED.filter((key) => key in (recorded as object) || key in replayed).flatMap((key) => {
    const [was, now] = [JSON.stringify((recorded as Record<string, unknown>)[key]), JSON.stringify(replayed[key])]
    return was === now ? [] : [`${key}: recorded ${was}, replayed ${now}`]
  })
}

if (import.meta.main) {
  const [file, ...flags] = process.argv.slice(2)
  if (!file) {
    console.error('usage: npm run replay -- <cassette.json> [--serve]')
    process.exit(2)
  }
  const cassette = readCassette(file)
  if (flags.includes('--serve')) {
    const replay = startReplay(cassette)
    console.log(`serving ${cassette.exchanges.length} recorded exchanges of ${cassette.route} (${cassette.request_id})`)
    console.log(
      Object.entries({
        ...cassette.settings,
        SOLANA_RPC_URL: replay.urls.rpc,
        DEXSCREENER_URL: replay.urls.dexscreener,
        JUPITER_URL: replay.urls.jupiter,
      })
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    )
  } else {
    const { status, answer, misses } = await replayScan(cassette)
    console.log(JSON.stringify(answer, null, 2))
    const diff = differences(cassette.answer, answer)
    console.error(`\nreplayed ${cassette.route} (${cassette.request_id}): HTTP ${status}`)
    for (const miss of misses) console.error(`  not in the cassette: ${miss}`)
    if (cassette.answer === undefined) console.error('  the cassette holds no recorded answer to compare with')
    else if (diff.length === 0) console.error(`  same as recorded (${COMPARED.join(', ')})`)
    else for (const line of diff) console.error(`  differs: ${line}`)
    process.exit(diff.length === 0 ? 0 : 1)
  }
}
