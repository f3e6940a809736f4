/**
 * What every text for agents says the same way — /llm.txt, /llms.txt and the skill file: how a paid
 * call is paid, and how an answer reads. Written once here; the routes, prices and call order come
 * from the manifests.
 */
/** How a paid route is paid over HTTP (x402). */
export const HTTP_PAYMENT = [
  'Paid routes answer 402 with a challenge: the `payment-required` header (base64 JSON) and a JSON body with',
  '`accepts[]` (scheme, network, maxAmountRequired in USDC atomic units, asset, payTo). Sign a payment for one',
  'offer and repeat the identical request with it in the X-PAYMENT header; the receipt comes back in',
  'X-PAYMENT-RESPONSE. A call that fails is not charged, and a payment pays for one call only. If a paid call',
  'answers 402 with `settlement: {state: "pending"}` (its settlement was sent and is being read from the chain:',
  'the money may have moved), present the same payment again with the same request after Retry-After seconds:',
  'once the chain shows it settled, that call is answered, once, without paying again (on any other request the',
  'payment is refused); if it never can, you are told so and nothing was charged. The SDK and CLI do this.',
]

/** How a paid tool is paid over MCP (x402's MCP transport). */
export const MCP_PAYMENT = [
  'Over MCP (POST /mcp), a paid tool called without payment answers an isError result with the x402',
  'PaymentRequired in structuredContent; repeat the call with the signed payment in _meta["x402/payment"];',
  'the receipt comes back in _meta["x402/payment-response"]. Same prices, same rules.',
]

/** How a paid skill is paid over A2A (the A2A x402 extension, docs/a2a.md). */
export const A2A_PAYMENT = [
  'Over A2A (POST /a2a, JSON-RPC: message/send, tasks/get, tasks/cancel; activate the x402 extension in the',
  'X-A2A-Extensions header), name the skill in message.metadata["solsentry.skill"] and send its JSON body as a',
  'data part; a paid skill answers a task input-required with x402.payment.required in its status message',
  'metadata; send the signed payment on that task in metadata["x402.payment.payload"]; the answer comes back as',
  'an artifact with x402.payment.receipts. Same prices, same rules.',
]

/** Trades, as a caller must know them. */
export const TRADES = [
  'Trades: a job_id belongs to the wallet that quoted it (quoting an existing job again needs a SIGN-IN-WITH-X',
  "header signed by that wallet, else 403); each job's transaction is its own; the execute fee",
  'is charged once, on confirmation, and GET /trade/status/{job_id} reports it as it stands on chain.',
]

/** How an answer reads: errors, unmeasured members, data quality. */
export const READING = [
  'Errors are JSON: {"error": true, "code": "...", "message": "...", "request_id": "..."}.',
  'Every member keeps its documented type: a number the data could not measure is 0 (an enum takes its',
  'documented neutral value, a nullable member null) and is named in missing_fields; data_quality says how',
  'complete the answer is (FULL, PARTIAL, LIMITED). Never read a listed 0 as measured.',
]
