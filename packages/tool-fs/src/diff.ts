// Applied-hunk diffs (TL-15), computed with the `diff` package's `structuredPatch`, 3 context lines,
// on LF-normalised sides. Lines keep the package's markers (` `, `-`, `+`, and `\ No newline at end
// of file`).
import type { DiffHunk } from '@tack/tools'
import { structuredPatch } from 'diff'
import { toLf } from './text.ts'

export const DIFF_CONTEXT_LINES = 3

/** The hunks of the whole-file change from `before` to `after` (an overwriting `write`). */
export function wholeFileHunks(before: string, after: string): DiffHunk[] {
  return patch(toLf(before), toLf(after))
}

/**
 * The one hunk of one replaced site: the diff between the file just before and just after that
 * replacement. When a site's change spans more than twice the context, `structuredPatch` splits it;
 * the parts are joined back (the lines between them as context), so each site is exactly one hunk.
 */
export function siteHunk(before: string, after: string): DiffHunk | undefined {
  const lfBefore = toLf(before)
  const hunks = patch(lfBefore, toLf(after))
  if (hunks.length <= 1) return hunks[0]
  const oldLines = lfBefore.split('\n')
  const first = hunks[0]
  const lines: string[] = [...first.lines]
  for (let i = 1; i < hunks.length; i++) {
    const previous = hunks[i - 1]
    const gapFrom = previous.oldStart - 1 + previous.oldLines
    for (let at = gapFrom; at < hunks[i].oldStart - 1; at++) lines.push(` ${oldLines[at]}`)
    lines.push(...hunks[i].lines)
  }
  const last = hunks[hunks.length - 1]
  return {
    oldStart: first.oldStart,
    oldLines: last.oldStart + last.oldLines - first.oldStart,
    newStart: first.newStart,
    newLines: last.newStart + last.newLines - first.newStart,
    lines,
  }
}

/** `text` as one hunk of added lines (what a `write` asks for, or what a create did). */
export function addedHunks(text: string): DiffHunk[] {
  return patch('', toLf(text))
}

/** A requested replacement shown before it runs: `old` against `new`, numbered within the snippet. */
export function replacementHunks(oldText: string, newText: string): DiffHunk[] {
  return patch(toLf(oldText), toLf(newText))
}

function patch(before: string, after: string): DiffHunk[] {
  if (before === after) return []
  return structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
  }).hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines,
  }))
}
