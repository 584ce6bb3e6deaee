// What the model reads after a bash call: notes about the call (a clamped timeout, a cut output and
// where the whole of it is), the output itself, then how the command ended when that was not a plain
// success. Notes are bracketed lines so they cannot be mistaken for the command's own output.
import type { ProcessResult } from '@tack/process'

/** The outcome classes of a call; every one but `ok` is an error result with this code. */
export type BashOutcome = 'ok' | 'COMMAND_FAILED' | 'TIMEOUT' | 'ABORTED' | 'SPAWN_FAILED'

export interface CallAccount {
  readonly run: ProcessResult
  /** The timeout the command ran with. */
  readonly timeoutMs: number
  /** Set when the call asked for more than the maximum and was clamped. */
  readonly requestedTimeoutMs?: number
  /** The spill file a truncated result names. */
  readonly spillPath?: string
  /** What the sandbox stopped and the way out (sandbox-denial.ts), after the ending line. */
  readonly sandboxNote?: string
}

export function outcomeOf(run: ProcessResult): BashOutcome {
  if (run.spawnError) return 'SPAWN_FAILED'
  if (run.timedOut) return 'TIMEOUT'
  if (run.aborted) return 'ABORTED'
  if (run.signal !== null || run.exitCode !== 0) return 'COMMAND_FAILED'
  return 'ok'
}

export function resultText(account: CallAccount): string {
  const { run } = account
  const lines: string[] = []
  if (account.requestedTimeoutMs !== undefined) {
    lines.push(
      `[timeout_ms ${account.requestedTimeoutMs} is above the maximum; the command ran with a timeout of ${account.timeoutMs} ms]`,
    )
  }
  if (run.truncated) {
    const where = account.spillPath
      ? `the full output is in ${account.spillPath}`
      : `the full output could not be saved${run.spillError ? ` (${run.spillError})` : ''}`
    lines.push(
      `[output truncated: showing the last ${Buffer.byteLength(run.stdout)} of ${run.totalBytes} bytes; ${where}]`,
    )
  }
  if (!run.spawnError) lines.push(run.stdout === '' ? '(no output)' : run.stdout.replace(/\n$/, ''))
  const ending = endingLine(account)
  if (ending) lines.push(ending)
  if (account.sandboxNote) lines.push(account.sandboxNote)
  if (run.killedLeftovers) {
    lines.push('[processes the command left running in the background were terminated when it ended]')
  }
  return lines.join('\n')
}

function endingLine({ run, timeoutMs }: CallAccount): string | undefined {
  switch (outcomeOf(run)) {
    case 'SPAWN_FAILED':
      return `[the command could not be started: ${run.spawnError?.message}]`
    case 'TIMEOUT':
      return `[timed out after ${timeoutMs} ms; the command's process group was terminated${byKill(run)}]`
    case 'ABORTED':
      return `[aborted; the command's process group was terminated${byKill(run)}]`
    case 'COMMAND_FAILED':
      return run.signal !== null ? `[killed by signal ${run.signal}]` : `[exit code ${run.exitCode}]`
    case 'ok':
      return undefined
  }
}

function byKill(run: ProcessResult): string {
  return run.signal === 'SIGKILL' ? ' (it ignored SIGTERM and was killed)' : ''
}
