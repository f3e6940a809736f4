/**
 * The generated sections of the documentation: each table that restates a catalogue in code is
 * written from it, between markers. `npm run docs` rewrites them all; test/docs.test.ts fails when one
 * is stale.
 */
import { join } from 'node:path'
import { recommendationTable } from '../plugins/deep-dive/recommendation.ts'
import { rejectionTable } from '../plugins/trade/rejections.ts'
import { SERVICE_MANIFESTS } from '../src/app.ts'
import { configTable } from '../src/kernel/config.ts'
import { errorTable } from '../src/kernel/errors.ts'
import { requirementTable } from '../src/kernel/manifest.ts'
import { issuerTable } from '../src/onchain/issuers.ts'
import { exclusionTable, findingsTable, riskGroupTable, signalCatalogue } from './signal-docs.ts'
import { verdictTable } from './verdicts.ts'
import { toolTable } from '../plugins/mcp/tools.ts'
import { skillTable } from '../plugins/a2a/skills.ts'
import { renderSkill, SKILL_FILE_ORIGIN } from '../plugins/discovery/skill.ts'
import { waivedService } from '../test/support/service.ts'
import { clientCall } from '../client/catalogue.ts'
import { CLI_EXIT_CODES, CLIENT_ERROR_CODES, type ClientErrorCode } from '../client/errors.ts'
import { offerings } from '../src/kernel/catalogue.ts'
import { priceInWords, type Registry } from '../src/kernel/manifest.ts'

export interface GeneratedSection {
  /** Repository-relative markdown file. */
  file: string
  /** The marker name: `<!-- name:start … -->` … `<!-- name:end -->`. */
  name: string
  content: () => string | Promise<string>
}

/** docs/errors.md's table of the codes the client, the CLI and the MCP bridge raise themselves. */
function clientErrorTable(): string {
  const rows = (Object.keys(CLIENT_ERROR_CODES) as ClientErrorCode[]).map(
    (code) => `| \`${code}\` | ${CLIENT_ERROR_CODES[code].meaning} | ${CLIENT_ERROR_CODES[code].remedy} |`,
  )
  return ['| Code | Meaning | Remedy |', '|---|---|---|', ...rows].join('\n')
}

/** docs/client.md's table of the CLI's exit codes, one meaning each. */
function exitCodeTable(): string {
  const rows = CLI_EXIT_CODES.map((entry) => `| ${entry.code} | \`${entry.name}\` | ${entry.meaning} |`)
  return ['| Exit code | Name | Meaning |', '|---|---|---|', ...rows].join('\n')
}

export const GENERATED: readonly GeneratedSection[] = [
  { file: 'README.md', name: 'config', content: configTable },
  { file: 'docs/errors.md', name: 'errors', content: errorTable },
  { file: 'docs/errors.md', name: 'local-errors', content: clientErrorTable },
  { file: 'docs/catalogue.md', name: 'routes-off', content: () => requirementTable(SERVICE_MANIFESTS) },
  { file: 'docs/trade.md', name: 'rejections', content: rejectionTable },
  { file: 'docs/mcp.md', name: 'tools', content: () => toolTable(fullService().registry) },
  { file: 'docs/a2a.md', name: 'skills', content: () => skillTable(fullService().registry) },
  { file: 'docs/client.md', name: 'client-routes', content: () => clientTable(fullService().registry) },
  { file: 'docs/client.md', name: 'cli-exit-codes', content: exitCodeTable },
  { file: 'docs/signals.md', name: 'signals', content: () => signalCatalogue() },
  { file: 'docs/scoring.md', name: 'issuers', content: issuerTable },
  { file: 'docs/scoring.md', name: 'exclusions', content: () => exclusionTable() },
  { file: 'docs/scoring.md', name: 'findings-quick-scan', content: () => findingsTable('quick_scan') },
  { file: 'docs/scoring/market-intel.md', name: 'findings-market-intel', content: () => findingsTable('market_intel') },
  { file: 'docs/scoring/deep-dive.md', name: 'findings-deep-dive', content: () => findingsTable('deep_dive') },
  { file: 'docs/scoring/deep-dive.md', name: 'risk-groups', content: () => riskGroupTable() },
  { file: 'docs/scoring/deep-dive.md', name: 'recommendation', content: recommendationTable },
  // Scans every sandbox scenario and replays the recorded real tokens (a few seconds).
  { file: 'docs/scoring.md', name: 'verdicts', content: verdictTable },
]

/** Files generated whole (no markers): the agent skill the repository ships. */
export const WHOLE_FILES: readonly { file: string; content: () => string }[] = [
  { file: 'skills/solsentry/SKILL.md', content: () => renderSkill(fullService().registry, SKILL_FILE_ORIGIN) },
]

const ROOT = join(import.meta.dir, '..')

/** docs/client.md's table: each route offered to agents, its price, its SDK method, CLI command and MCP tool. */
export function clientTable(registry: Registry): string {
  const rows = offerings(registry).map(({ route, tool }) => {
    const call = clientCall(route.key)
    const sdk = call ? `\`${call.sdk}()\`` : `\`call('${route.key}', …)\``
    const cli = call ? `\`solsentry ${call.cli}\`` : '—'
    return `| \`${route.key}\` | ${priceInWords(route)} | ${sdk} | ${cli} | \`${tool}\` |`
  })
  return ['| Route | Price | SDK | CLI | MCP tool |', '|---|---|---|---|---|', ...rows].join('\n')
}

/**
 * The service with every source configured (nothing is called: only the registry is read), so the
 * generated pages name every route, those switched off without their source included; and both payment
 * rails' payees, so each paid route has its offers (a rail exists only with its payee).
 */
let full: ReturnType<typeof waivedService> | undefined
export function fullService() {
  full ??= waivedService({
    JUPITER_URL: 'https://api.jup.ag',
    DEXSCREENER_URL: 'https://api.dexscreener.com',
    LIFI_URL: 'https://li.quest',
    NEWS_FEEDS: 'https://www.coindesk.com/arc/outboundfeeds/rss',
    LLM_URL: 'https://api.openai.com/v1',
    LLM_MODEL: 'gpt-4o-mini',
    SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com',
    PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
    PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  })
  return full
}

const startOf = (name: string) => `<!-- ${name}:start (generated by \`npm run docs\`; a test checks it is current) -->`
const endOf = (name: string) => `<!-- ${name}:end -->`

/** The section as it must stand in its file, markers included. */
export async function rendered(section: GeneratedSection): Promise<string> {
  return [startOf(section.name), '', await section.content(), '', endOf(section.name)].join('\n')
}

/** The section as it stands in its file now (undefined when its markers are missing). */
export async function current(section: GeneratedSection): Promise<string | undefined> {
  const text = await Bun.file(join(ROOT, section.file)).text()
  const start = text.indexOf(startOf(section.name))
  const end = text.indexOf(endOf(section.name))
  if (start < 0 || end < start) return undefined
  return text.slice(start, end + endOf(section.name).length)
}

/** Rewrites every generated section in place. */
export async function writeGenerated(): Promise<void> {
  for (const section of GENERATED) {
    const path = join(ROOT, section.file)
    const before = await current(section)
    if (before === undefined) throw new Error(`${section.file} lacks the markers of section "${section.name}"`)
    const text = await Bun.file(path).text()
    await Bun.write(path, text.replace(before, await rendered(section)))
  }
  for (const whole of WHOLE_FILES) await Bun.write(join(ROOT, whole.file), whole.content())
}

if (import.meta.main) await writeGenerated()
