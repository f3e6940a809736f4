/**
 * The codes the client raises itself, beside the service's catalogue (docs/errors.md, which a
 * `SolsentryError` carries when the service answered): each with what it means and what to do. The CLI
 * prints the remedy under the message; docs/client.md lists them.
 */
export const CLIENT_ERROR_CODES = {
  SERVICE_UNREACHABLE: {
    meaning: 'nothing answered at the service URL (refused, no such host, timed out): no request was answered',
    remedy:
      'start the service (npm start on the sandbox), or point the client at it: the url option (the CLI: --url <url> or SOLSENTRY_URL)',
  },
  NO_WALLET: {
    meaning: 'the call is paid (or a swap needs signing) and the client has no wallet that can do it',
    remedy:
      'give it a wallet: wallet.solana / wallet.evm (the CLI: --keypair <file> or SOLSENTRY_KEYPAIR for a Solana keypair file, --evm-key <hex> or SOLSENTRY_EVM_KEY for Base)',
  },
  PAYMENT_FAILED: {
    meaning:
      'the wallet could not make the payment (its Solana RPC unreachable or unset, no funds, no signer for the rails offered): nothing was charged',
    remedy:
      'set the Solana RPC the payment signer reads: solanaRpcUrl (the CLI: --solana-rpc <url> or SOLSENTRY_SOLANA_RPC); check the wallet holds USDC on a rail the service offers',
  },
  SPEND_LIMIT: {
    meaning:
      "the client's own spend controls refused to pay: over the route's published price, the per-call cap or the budget; nothing was signed",
    remedy: 'raise maxPerCallUsd / budgetUsd (the CLI: --max-usd, --budget) if you mean to pay it',
  },
  ATTESTATION_INVALID: {
    meaning: "the answer's attestation does not hold against the service's published key (docs/attestations.md)",
    remedy: 'do not trust the answer; report it with its request id',
  },
  CONFIRMATION_REQUIRED: {
    meaning:
      'the risk gate warned about the token and nobody confirmed the swap (a shell with no terminal to ask; exit code 3): nothing was signed',
    remedy: 'read the plan and the warnings, then run again with --yes to trade anyway, or from a terminal to be asked',
  },
  DECLINED: {
    meaning:
      'the swap was declined at the prompt (exit code 4): nothing was signed or sent, nothing charged (the quote expires)',
    remedy: 'none needed',
  },
  QUOTE_EXPIRED: {
    meaning:
      'a trade: the quote kept expiring before it could be signed (it is quoted again each time, and again confirmed): nothing was signed',
    remedy: 'try again; a chain this slow to answer may be congested',
  },
  USAGE: {
    meaning:
      'the command line is incomplete or wrong (exit code 2), or an SDK option is (budgetUsd, maxPerCallUsd not USD amounts)',
    remedy: 'solsentry --help',
  },
} as const satisfies Record<string, { meaning: string; remedy: string }>

export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES

/**
 * The CLI's exit codes, one meaning each: `solsentry --help` prints this table and docs/client.md's
 * section is generated from it (`npm run docs`); test/cli-user.test.ts runs a case of each.
 */
export const CLI_EXIT_CODES = [
  { code: 0, name: 'OK', meaning: 'done: the answer is on stdout (a swap: confirmed)' },
  {
    code: 1,
    name: 'FAILED',
    meaning:
      'the call failed: the service refused it or could not be reached, or the payment was not made; the error code and what to do are on stderr',
  },
  {
    code: 2,
    name: 'USAGE',
    meaning: 'the command line is wrong (an option, its value, an argument missing): nothing was paid',
  },
  {
    code: 3,
    name: 'CONFIRMATION_REQUIRED',
    meaning: 'trade: the risk gate warned, no terminal could ask and --yes was not given; nothing was signed',
  },
  { code: 4, name: 'DECLINED', meaning: 'trade: you answered no (or Ctrl-C) at the question; nothing was signed' },
  {
    code: 5,
    name: 'TRADE_NOT_CONFIRMED',
    meaning:
      'trade: the swap did not confirm (rejected by the risk gate, failed, expired, or still executing when the wait ended); the job is shown',
  },
] as const

export type CliExitName = (typeof CLI_EXIT_CODES)[number]['name']

/** The exit code of a name in CLI_EXIT_CODES. */
export function exitCode(name: CliExitName): number {
  return CLI_EXIT_CODES.find((entry) => entry.name === name)!.code
}

/** The table as the CLI's --help prints it: a code, then its meaning wrapped under itself within 100 columns. */
export function exitCodeLines(): string {
  return CLI_EXIT_CODES.map((entry) => {
    const lines: string[] = []
    let line = `  ${String(entry.code).padEnd(3)}`
    for (const word of entry.meaning.split(' ')) {
      if (line.length + 1 + word.length > 100) {
        lines.push(line)
        line = '     '
      }
      line += ` ${word}`
    }
    return [...lines, line].join('\n')
  }).join('\n')
}
