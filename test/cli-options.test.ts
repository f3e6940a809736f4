import { expect, test } from 'bun:test'
import { join } from 'node:path'

const cli = join(import.meta.dir, '..', 'client', 'cli.ts')

// A misspelled option is never ignored: `--budjet 0.1` once paid a 0.50 USD deep dive its --budget
// was meant to refuse (found by a new user's pass, issue 32). Refused before anything is asked or paid.
test('an unknown option is a usage error naming the option and the one meant, before any call', async () => {
  const child = Bun.spawn(
    [process.execPath, cli, 'deep', 'So11111111111111111111111111111111111111112', '--budjet', '0.1'],
    {
      // A service URL nothing listens on: had the CLI gone ahead it would say SERVICE_UNREACHABLE instead.
      env: { PATH: process.env.PATH ?? '', SOLSENTRY_URL: 'http://127.0.0.1:9' },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  const [code, err] = await Promise.all([child.exited, new Response(child.stderr).text()])
  expect(code).toBe(2)
  expect(err).toContain('USAGE: unknown option --budjet: did you mean --budget?')
  expect(err).not.toContain('SERVICE_UNREACHABLE')
})
