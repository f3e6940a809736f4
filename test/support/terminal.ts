import { test } from 'bun:test'
import { eventually } from './eventually.ts'

/**
 * Why the tests that read a program's screen are skipped here, or undefined when tmux is installed.
 * `.ci/run` installs Debian's tmux; a fresh machine without it reports those tests skipped, never failed.
 */
export const tmuxMissing: string | undefined = Bun.which('tmux')
  ? undefined
  : 'tmux is not installed (apt-get install -y tmux; .ci/run does)'

/** `test`, skipped with the reason in its title when the machine has no tmux. */
export function testWithTmux(title: string, body: () => Promise<void>, timeoutMs?: number): void {
  if (tmuxMissing) test.skip(`${title} — skipped: ${tmuxMissing}`, body)
  else test(title, body, timeoutMs)
}

/**
 * Runs `command` in a real pseudo-terminal (a detached tmux session, 100×40) with `env`, waits until the
 * screen shows `until`, and answers what it printed (scrolled lines too): its text, and in `escapes` with
 * its colour sequences.
 */
export async function screenOf(
  command: string[],
  env: Record<string, string>,
  until: string,
): Promise<{ text: string; escapes: string }> {
  const session = `solsentry-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  // Its own tmux server (-L): killing the last session ends the default server asynchronously, and the
  // next test's new-session could reach it while it exits (it failed so under load, in a few ms).
  const tmux = (...args: string[]) =>
    Bun.spawnSync(['tmux', '-L', session, ...args], { env: { ...process.env, ...env } })
  const shell = `${command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ')}; sleep 60`
  const exports = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`])
  const started = tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '40', ...exports, shell)
  if (started.exitCode !== 0) throw new Error(`tmux: ${started.stderr.toString()}`)
  try {
    const capture = (withEscapes: boolean) =>
      tmux('capture-pane', '-p', '-J', '-S', '-', ...(withEscapes ? ['-e'] : []), '-t', session).stdout.toString()
    const text = await eventually(
      'the screen',
      () => capture(false),
      (screen) => screen.includes(until),
      {
        timeoutMs: 20_000,
      },
    )
    return { text, escapes: capture(true) }
  } finally {
    tmux('kill-session', '-t', session)
  }
}

/** A program running in a real pseudo-terminal that a test reads and types into. */
export interface TerminalSession {
  /** Waits until the screen shows `text` (scrolled lines too), and answers the screen. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>
  /** Types `keys` and Enter, as a person answering a question. */
  type(keys: string): void
  /** Presses one key by its tmux name (`C-c`). */
  press(key: string): void
  /** Ends the session (the program, if it still runs, with it). */
  close(): void
}

/**
 * Starts `command` in a detached tmux session (100×40) with `env`, to be answered like a person: when it
 * ends, the screen shows `[exit <code>]`.
 */
export function terminalSession(command: string[], env: Record<string, string>): TerminalSession {
  const session = `solsentry-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  // A tmux server of its own (-L): sessions started right after another ended, or by other tests, never share one.
  const tmux = (...args: string[]) =>
    Bun.spawnSync(['tmux', '-L', session, ...args], { env: { ...process.env, ...env } })
  const shell = `${command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ')}; echo "[exit $?]"; sleep 60`
  const exports = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`])
  const started = tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '40', ...exports, shell)
  if (started.exitCode !== 0) throw new Error(`tmux: ${started.stderr.toString()}`)
  const capture = () => tmux('capture-pane', '-p', '-J', '-S', '-', '-t', session).stdout.toString()
  return {
    waitFor: (text, timeoutMs = 30_000) =>
      eventually(
        `the screen showing ${text}`,
        capture,
        (screen) => (typeof text === 'string' ? screen.includes(text) : text.test(screen)),
        { timeoutMs },
      ),
    type: (keys) => {
      tmux('send-keys', '-t', session, '-l', keys)
      tmux('send-keys', '-t', session, 'Enter')
    },
    press: (key) => {
      tmux('send-keys', '-t', session, key)
    },
    close: () => {
      tmux('kill-server')
    },
  }
}

/** What `solsentry trade` asks before it signs a swap the risk gate warns about. */
export const TRADE_QUESTION = 'Sign and send this swap? [y/N]'

/**
 * `solsentry trade <args>` (the CLI at `cli`, with `env`) on a terminal, up to the risk gate's question:
 * `answer` is handed the session and the screen that asks. The session is closed however `answer` ends,
 * so a failed expectation leaves no program waiting on a question.
 */
export async function tradeOnATerminal(
  cli: string,
  args: string[],
  env: Record<string, string>,
  answer: (session: TerminalSession, screen: string) => Promise<void>,
): Promise<void> {
  const session = terminalSession([process.execPath, cli, 'trade', ...args], { ...env, TERM: 'xterm-256color' })
  try {
    await answer(session, await session.waitFor(TRADE_QUESTION))
  } finally {
    session.close()
  }
}
