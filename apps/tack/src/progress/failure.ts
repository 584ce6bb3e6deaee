// How a failed call reads on `tack run`'s stderr (docs/decisions/0310-failures-stay-visible.md): what
// failed — a command's exit code, else the error's code and first line — and the last lines of a failed
// command's output, where a test runner or a compiler prints its error. The head of that output is
// what the TUI used to show and what hides the failure; the tail is what a person needs.
import { printable } from '../printable.ts'

/** The part of a logged `tool/result` a failure line is made from. */
export interface FailedResult {
  readonly isError: boolean
  readonly error?: { readonly code: string; readonly message?: string }
  readonly meta?: unknown
}

/** A command's exit (`exit code 3`, `timed out`), else `CODE: first line of the message`. */
export function failureText(result: FailedResult): string {
  const meta = commandMeta(result.meta)
  if (meta?.timedOut) return `timed out${meta.exitCode !== undefined ? ` (exit code ${meta.exitCode})` : ''}`
  if (meta?.exitCode !== undefined) return `exit code ${meta.exitCode}`
  if (meta?.signal) return `killed by ${printable(meta.signal)}`
  const code = result.error?.code ?? 'error'
  return result.error?.message ? `${code}: ${firstLine(result.error.message)}` : code
}

/**
 * The last `max` non-blank lines of a failed command's output, each cut and made safe to print, led by
 * how many earlier lines were left out; none when the call ran no command or `max` is 0.
 */
export function outputTail(result: FailedResult, max: number): string[] {
  const output = commandMeta(result.meta)?.output
  if (!output || max <= 0) return []
  const lines = output
    .split('\n')
    .map(shownLine)
    .filter((line) => line.trim() !== '')
  const shown = lines.slice(-max)
  const earlier = lines.length - shown.length
  return earlier > 0 ? [`… ${earlier} earlier line${earlier === 1 ? '' : 's'}`, ...shown] : shown
}

/** One line as a terminal would leave it: after its last `\r` (a progress bar's final state), colour codes dropped, control characters written out. */
function shownLine(line: string): string {
  const last = line.replace(/\r$/, '').split('\r').pop() ?? ''
  return cut(printable(last.replace(/\x1b\[[0-9;]*m/g, '')))
}

/** The first line of a message, cut, its control characters escaped. */
export function firstLine(text: string): string {
  return cut(printable(text.split('\n', 1)[0] ?? ''))
}

function cut(line: string): string {
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

/** What bash's result meta carries (packages/bash): its exit code, whether it timed out, its output. */
function commandMeta(
  meta: unknown,
): { exitCode?: number; signal?: string; timedOut?: boolean; output?: string } | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined
  const m = meta as Record<string, unknown>
  if (typeof m.exitCode !== 'number' && typeof m.output !== 'string') return undefined
  return {
    ...(typeof m.exitCode === 'number' ? { exitCode: m.exitCode } : {}),
    ...(typeof m.signal === 'string' ? { signal: m.signal } : {}),
    ...(m.timedOut === true ? { timedOut: true } : {}),
    ...(typeof m.output === 'string' ? { output: m.output } : {}),
  }
}
