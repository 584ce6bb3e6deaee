// The streams a command writes to, with secrets redacted on the way out (90-quality security 1), and
// a reader that leaves (EPIPE) ending the output quietly (stream-guard.ts).
import { fstatSync } from 'node:fs'
import type { SecretRedactor } from '@tack/kernel'
import { createRedactor } from './secrets.ts'
import { guardStream } from './stream-guard.ts'

export interface CommandIO {
  readonly env: NodeJS.ProcessEnv
  readonly cwd: string
  out(text: string): void
  err(text: string): void
  readStdin(): Promise<string>
  /**
   * Redact the values of these variables too (endpoint key variables, known after config loads), and
   * these declared values (`ctx.secrets.values()`).
   */
  protectSecrets?(names: Iterable<string>, values?: Iterable<string>): void
  /**
   * What `out` and `err` do to a text, for a command that shortens or flattens text before it prints it:
   * redacted first, a secret cannot be cut into a part that no longer matches.
   */
  redact?(text: string): string
  /** How much of the end of `text` begins a secret without completing it (chunk-redaction.ts). */
  openTail?(text: string): number
  /** Whether stdin is a pipe, a file or a socket (not a terminal, not /dev/null): `tack run` reads it. */
  stdinIsPiped?(): boolean
  /** stderr's terminal width when stderr is a terminal (the live progress line); undefined otherwise. */
  stderrColumns?(): number | undefined
  /** Calls `listener` once when stdout's reader goes away (EPIPE); true when it already has. */
  onStdoutClosed?(listener: () => void): void
  stdoutClosed?(): boolean
  /** Whether stdout is a terminal (a person reads it) rather than a pipe or a file (a program does). */
  stdoutIsTerminal?(): boolean
  /** Whether stdin and stdout are both terminals: the interactive UI needs both. */
  isInteractiveTerminal?(): boolean
  /** Asks one question on the terminal (stderr) and reads one line of answer; undefined on Ctrl-C or Ctrl-D. */
  askLine?(question: string): Promise<string | undefined>
}

/**
 * What `io.out` does to a text, as a redactor of its own, for a command that cuts or re-cuts text before
 * printing it; one that redacts nothing when the command's IO has no redactor (a test's).
 */
export function outputRedactor(io: Pick<CommandIO, 'redact' | 'openTail'>): SecretRedactor {
  return Object.assign((text: string) => io.redact?.(text) ?? text, {
    openTail: (text: string) => io.openTail?.(text) ?? 0,
  })
}

export function processIO(env: NodeJS.ProcessEnv): CommandIO {
  const redact = createRedactor(env)
  const stdout = guardStream(process.stdout)
  const stderr = guardStream(process.stderr)
  return {
    env,
    cwd: process.cwd(),
    out: (text) => stdout.write(redact(text)),
    err: (text) => stderr.write(redact(text)),
    protectSecrets: (names, values) => redact.protect(names, values),
    redact: (text) => redact(text),
    openTail: (text) => redact.openTail(text),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
    stdinIsPiped: () => {
      try {
        const st = fstatSync(0)
        return st.isFIFO() || st.isFile() || st.isSocket()
      } catch {
        return false // no stdin at all (closed descriptor)
      }
    },
    stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns || 80 : undefined),
    onStdoutClosed: (listener) => stdout.onClosed(listener),
    stdoutClosed: () => stdout.closed(),
    stdoutIsTerminal: () => process.stdout.isTTY === true,
    isInteractiveTerminal: () => process.stdin.isTTY === true && process.stdout.isTTY === true,
    askLine: async (question) => {
      const { createInterface } = await import('node:readline')
      const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true })
      try {
        return await new Promise<string | undefined>((resolve) => {
          rl.on('SIGINT', () => resolve(undefined))
          rl.on('close', () => resolve(undefined))
          rl.question(question, resolve)
        })
      } finally {
        rl.close()
      }
    },
  }
}
