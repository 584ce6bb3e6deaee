// The lines of a call's result a card shows (docs/decisions/0310-failures-stay-visible.md): a success's
// first lines, a failure's last ones (where a test runner or compiler prints its error), and a failed
// inner call's reason on one line. Each made safe to draw (`printable` removes a program's colour codes).
import { printable } from './format.ts'
import { oneLine } from './key-argument.ts'

/** A failed inner call's reason: a command's exit code, else its error's code and first line. */
export function failureDetail(error: { code: string; message?: string } | undefined, meta: unknown): string {
  const exit =
    typeof meta === 'object' && meta !== null ? (meta as { exitCode?: unknown }).exitCode : undefined
  if (typeof exit === 'number') return `exit code ${exit}`
  const message = oneLine(error?.message?.split('\n', 1)[0] ?? '')
  return `${error?.code ?? 'error'}${message ? `: ${message}` : ''}`
}

/** The last `max` non-blank lines, led by how many earlier ones there were. */
export function lastLines(text: string, max: number): string {
  const lines = printable(text)
    .split('\n')
    .filter((l) => l.trim() !== '')
  const shown = lines.slice(-max)
  const earlier = lines.length - shown.length
  if (earlier > 0) shown.unshift(`… ${earlier} earlier line${earlier === 1 ? '' : 's'}`)
  return shown.join('\n')
}

export function firstLines(text: string, max: number): string {
  const lines = printable(text)
    .split('\n')
    .filter((l) => l.trim() !== '')
  const shown = lines.slice(0, max)
  if (lines.length > max) shown.push(`… ${lines.length - max} more lines`)
  return shown.join('\n')
}
