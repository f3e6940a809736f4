/**
 * `npm run rug -- <event> <mint> [--option value ...]`: fires one rug control on the running sandbox
 * (`npm start` or `npm run sandbox`) through its HTTP control, and prints what it did. `npm run rug --
 * list` lists the events and their options.
 *
 *   npm run rug -- pull-liquidity <mint> --percent 90
 *   npm run rug -- rename <mint> --name "USD Coin" --symbol USDC
 *   npm run rug -- freeze <mint> --holder <wallet> [--world ./data/sandbox/world.json]
 */
import { readWorld } from '../demo-client.ts'
import { RUG_CONTROL_PATH } from './index.ts'

const args = process.argv.slice(2)
const world = readWorld(args)
const url = `${world.urls.rpc}${RUG_CONTROL_PATH}`
const [event, mint, ...rest] = args

if (!event || event === 'list' || event === '--help') {
  const listed = (await (await fetch(url)).json()) as { events: { event: string; does: string; options: string[] }[] }
  console.log('usage: npm run rug -- <event> <mint> [--option value ...]\n')
  for (const entry of listed.events)
    console.log(
      `  ${entry.event.padEnd(28)} ${entry.does}${entry.options.length ? `\n${' '.repeat(31)}options: ${entry.options.join(', ')}` : ''}`,
    )
  process.exit(event ? 0 : 2)
}

const request: Record<string, unknown> = { event, mint }
for (let index = 0; index < rest.length; index += 2) {
  const name = rest[index]!.replace(/^--/, '')
  const text = rest[index + 1] ?? ''
  // Numbers go as JSON numbers while exact; larger raw amounts stay decimal strings (the control takes both).
  request[name] = /^\d+(\.\d+)?$/.test(text) && Number.isSafeInteger(Math.trunc(Number(text))) ? Number(text) : text
}
const response = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(request),
})
const answer = (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } }
if (answer.error) {
  console.error(`npm run rug: ${answer.error.code}: ${answer.error.message}`)
  process.exit(1)
}
console.log(`${event} on ${mint}: transaction ${answer.signature} in slot ${answer.slot}`)
console.log(`  before: ${JSON.stringify(answer.before)}`)
console.log(`  after:  ${JSON.stringify(answer.after)}`)
if (answer.stateWritten) console.log(`  written directly (cannot execute offline): ${answer.stateWritten}`)
