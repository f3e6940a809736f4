// The JSON the reference targets answer: the service's own answers to the bench's two requests.
export const HEALTH = { schema_version: '2.0', status: 'ok', version: '2.0.0', uptime_s: 0, sources: { store: 'ok' } }
export const INVALID = {
  schema_version: '2.0',
  error: true,
  code: 'INVALID_ADDRESS',
  message: `"BONK" looks like a ticker: send the token's mint address, not its ticker`,
  request_id: '00000000-0000-0000-0000-000000000000',
  field: 'token_address',
}
