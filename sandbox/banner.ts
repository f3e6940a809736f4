import { resolve } from 'node:path'
import type { RunningSandbox } from './index.ts'
import type { SandboxRail } from './options.ts'
import { RUG_CONTROL_PATH } from './rugs/index.ts'

/** Where the demo clients look for the world file when told nothing (DATA_DIR unset). */
const DEFAULT_WORLD_FILE = './data/sandbox/world.json'

/**
 * What a person needs after boot: where things are, the scenario tokens, a command to try (paying on the
 * `rails` the service takes).
 */
export function printBanner(
  sandbox: RunningSandbox,
  serviceUrl?: string,
  rails: readonly SandboxRail[] = ['base', 'solana'],
): void {
  const { file } = sandbox
  const lines = [
    '',
    `solsentry sandbox ready in ${sandbox.bootMs} ms (${file.scenarios.length} scenarios)`,
    `  Solana RPC   ${file.urls.rpc}   (WebSocket ${file.urls.ws})`,
    `  DexScreener  ${file.urls.dexscreener}`,
    `  Jupiter      ${file.urls.jupiter}`,
    `  LI.FI        ${file.urls.lifi}   (bridge quotes)`,
    `  News         ${file.urls.news}   (RSS desks, X recent search)`,
    `  Model        ${file.urls.model}   (stand-in, deterministic; not a language model)`,
    `  anvil (EVM)  ${file.urls.anvil}   (chain 31337; test USDC ${file.x402.base.asset})`,
    `  x402         ${file.urls.facilitator}   (facilitator for ${file.x402.solana.network} and ${file.x402.base.network})`,
    `  USDC mint    ${file.usdc_mint}`,
    `  demo buyer   ${file.buyer.address}  (${file.buyer.sol} SOL, ${file.buyer.usdc} USDC; keypair ${file.buyer.keypair_path})`,
    `               ${file.evm_buyer.address}  (${file.evm_buyer.usdc} test USDC on anvil; key in the world file)`,
    `  world file   ${sandbox.worldFilePath}`,
    `  rug controls POST ${file.urls.rpc}${RUG_CONTROL_PATH}   (npm run rug -- list: pull liquidity, dump, freeze, rename…)`,
    '',
    '  scenario tokens:',
    ...file.scenarios.map((scenario) => `    ${scenario.name.padEnd(22)} ${scenario.mint}  ${scenario.title}`),
    '',
  ]
  if (serviceUrl) {
    const example = file.scenarios.find((scenario) => scenario.name === 'blue-chip') ?? file.scenarios[0]
    // The demo clients find the service and the world in the world file at its default place; elsewhere
    // (DATA_DIR set) they are told where it is.
    const world = sandbox.worldFilePath === resolve(DEFAULT_WORLD_FILE) ? '' : ` --world ${sandbox.worldFilePath}`
    const solana = rails.includes('solana')
    lines.push(`  service      ${serviceUrl}   (paid on ${rails.join(' and ')})`, '  try:')
    lines.push(`    curl -s ${serviceUrl}/health`)
    lines.push(`    curl -s ${serviceUrl}/llm.txt`)
    if (example)
      lines.push(
        `    curl -si -X POST ${serviceUrl}/scan/quick -H 'content-type: application/json' -d '{"token_address":"${example.mint}"}'   # 402: the offers`,
        solana
          ? `    npm run pay -- /scan/quick ${example.mint}${world}   # pays it as the demo buyer${rails.includes('base') ? ' (add --rail base to pay on anvil)' : ''}`
          : `    npm run pay -- /scan/quick ${example.mint} --rail base${world}   # pays it as the EVM demo buyer on anvil`,
        `    npm run trade -- ${example.mint} --amount 0.1${solana ? '' : ' --rail base'}${world}   # buys 0.1 SOL of it: quote, sign locally, paid execute`,
        `    curl -s ${file.urls.dexscreener}/tokens/v1/solana/${example.mint}`,
        `    curl -s -X POST ${file.urls.rpc} -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getTokenLargestAccounts","params":["${example.mint}"]}'`,
        '  the CLI as the demo buyer (the same settings work in any shell):',
        solana
          ? `    export SOLSENTRY_URL=${serviceUrl} SOLSENTRY_KEYPAIR=${file.buyer.keypair_path} SOLSENTRY_SOLANA_RPC=${file.urls.rpc}`
          : `    export SOLSENTRY_URL=${serviceUrl} SOLSENTRY_EVM_KEY="$(jq -r .evm_buyer.private_key ${sandbox.worldFilePath})"`,
        `    npx solsentry quick ${example.mint}`,
        solana
          ? `    npx solsentry trade ${example.mint} --amount 0.1   # the plan first; asks before signing when the risk gate warns`
          : '    npx solsentry trending --interval 24h',
      )
    lines.push('')
  }
  process.stderr.write(`${lines.join('\n')}\n`)
}
