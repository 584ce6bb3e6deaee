// The fs tools' result metadata (TL-15) and the helpers their presentations share (TL-10).
import type { DiffHunk, ResultIntent, ToolResultView } from '@tack/tools'
import type { ChangeSummary } from './diff.ts'
import { blockText } from '@tack/session'

/** What `edit` and an overwriting `write` return as `meta` (TL-15). */
export interface DiffMeta {
  /** The file, relative to the workspace root (absolute when outside). */
  readonly path: string
  readonly hunks: readonly DiffHunk[]
}

/** The `meta` of an `edit` or overwriting `write` whose diff was skipped past a cap (issue 9.6). */
export interface SummaryMeta {
  readonly path: string
  readonly summary: ChangeSummary
}

export function isSummaryMeta(meta: unknown): meta is SummaryMeta {
  if (meta === null || typeof meta !== 'object') return false
  const { path, summary } = meta as Record<string, unknown>
  return typeof path === 'string' && summary !== null && typeof summary === 'object'
}

export function isDiffMeta(meta: unknown): meta is DiffMeta {
  if (meta === null || typeof meta !== 'object') return false
  const { path, hunks } = meta as Record<string, unknown>
  return typeof path === 'string' && Array.isArray(hunks) && hunks.every(isHunk)
}

function isHunk(value: unknown): value is DiffHunk {
  if (value === null || typeof value !== 'object') return false
  const h = value as Record<string, unknown>
  return (
    typeof h.oldStart === 'number' &&
    typeof h.oldLines === 'number' &&
    typeof h.newStart === 'number' &&
    typeof h.newLines === 'number' &&
    Array.isArray(h.lines) &&
    h.lines.every((line) => typeof line === 'string')
  )
}

/** The text of a result, for generic intents. */
export function textOf(result: ToolResultView): string {
  return result.content.map(blockText).join('\n')
}

/** A result shown as the text the model read (failures, listings). */
export function textIntents(result: ToolResultView): ResultIntent[] {
  const text = textOf(result)
  return text === '' ? [] : [{ kind: 'text', text }]
}

/**
 * An edit's or a write's applied change: its hunks from `meta` (TL-15). Anything else — a failure, a
 * change too large for a diff (`SummaryMeta`) — shows its text; `undefined` when `meta` is no diff, for
 * the caller that knows better (a write without meta created its file).
 */
export function appliedChange(result: ToolResultView): ResultIntent[] | undefined {
  if (result.isError) return textIntents(result)
  const meta = result.meta
  if (isDiffMeta(meta)) return [{ kind: 'diff', path: meta.path, hunks: meta.hunks }]
  return meta === undefined ? undefined : textIntents(result)
}

/** How many lines a text has (a final newline does not start another). */
export function lineCount(text: string): number {
  if (text === '') return 0
  const breaks = text.split('\n').length - 1
  return text.endsWith('\n') ? breaks : breaks + 1
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
