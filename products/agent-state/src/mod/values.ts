// Value rules of `70-agent-state.md` (terms and R14): every recorded signal value is one of these shapes,
// so nothing free-form (a prompt, an error message) can reach a file through a signal.

export const SIGNAL_MAX = 60

/** Word value: lower-cased, `[a-z0-9_]` only, at most 60 characters; empty becomes `unknown`. */
export function word(value: unknown): string {
  const text = typeof value === 'string' ? value : ''
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, SIGNAL_MAX)
  return cleaned === '' ? 'unknown' : cleaned
}

/** Number value: a finite number rounded and clamped to 0..9999, as a string; anything else `''`. */
export function numberValue(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return ''
  return String(Math.min(9999, Math.max(0, Math.round(value))))
}

/** Flag value. */
export function flag(on: boolean): string {
  return on ? '1' : ''
}

/** The session id reduced to `[A-Za-z0-9_-]`, at most 80 characters (R5). */
export function fileId(value: unknown): string {
  return (typeof value === 'string' ? value : '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 80)
}

/** A name kept as written but bounded, with control characters removed (tool and command names). */
export function name(value: unknown, max: number): string {
  return (typeof value === 'string' ? value : '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}
