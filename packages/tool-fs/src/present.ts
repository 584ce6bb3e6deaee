// Render-intent helpers shared by the fs tools (TL-10, TL-15).
import type { DiffHunk, RenderIntent, ToolResultView } from '@tack/tools'
import type { ChangeSummary } from './diff.ts'

/** The intent of a failed fs call: its title with the error code, its message as the body. */
export function failedIntent(title: string, result: ToolResultView): RenderIntent {
  const body = result.content.map((block) => block.text).join('\n')
  return {
    kind: 'generic',
    title: `${title} failed${result.error ? ` (${result.error.code})` : ''}`,
    ...(body !== '' && { body }),
  }
}

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
  return result.content.map((block) => block.text).join('\n')
}

/** How many lines a text has (a final newline does not start another). */
export function lineCount(text: string): number {
  if (text === '') return 0
  const breaks = text.split('\n').length - 1
  return text.endsWith('\n') ? breaks : breaks + 1
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
