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
      'the risk gate warned about the token and nobody confirmed the swap (a shell with no terminal to ask): nothing was signed',
    remedy: 'read the plan and the warnings, then run again with --yes to trade anyway, or from a terminal to be asked',
  },
  DECLINED: {
    meaning: 'the swap was declined at the prompt: nothing was signed or sent, nothing charged (the quote expires)',
    remedy: 'none needed',
  },
  USAGE: {
    meaning:
      'the command line is incomplete or wrong (exit code 2), or an SDK option is (budgetUsd, maxPerCallUsd not USD amounts)',
    remedy: 'solsentry --help',
  },
} as const satisfies Record<string, { meaning: string; remedy: string }>

export type ClientErrorCode = keyof typeof CLIENT_ERROR_CODES
