// `edit`'s replacement with one hunk per replaced site (TL-15), in bounded work (issue 9.6). Each
// site is diffed on a window of a few lines around it — the text as it stands after the earlier sites,
// the site, and the original text after it — not on the whole file, so `replace_all` over 1,000 sites
// costs 1,000 small diffs instead of 1,000 whole-file ones. The loop yields to the event loop as it
// goes (Ctrl-C is answered) and stops diffing at the time or size cap; the replacement always finishes.
import type { DiffHunk } from '@tack/tools'
import { toLf } from './text.ts'
import {
  type ChangeSummary,
  DIFF_CONTEXT_LINES,
  type DiffBudget,
  joinHunks,
  siteHunk,
  wholeFileDiff,
} from './diff.ts'

/** The outcome of replacing in a text: the new text and one hunk per site, in file order. */
export interface Replaced {
  readonly text: string
  readonly count: number
  /** Present when every site was diffed within the budget. */
  readonly hunks?: readonly DiffHunk[]
  /** Present instead of `hunks` past a cap. */
  readonly summary?: ChangeSummary
}

/** Work between two yields to the event loop. */
const SLICE_MS = 10
/**
 * Lines of a site's window on each side of it: the hunk's 3 context lines plus slack, because when
 * the change is ambiguous (a run of equal lines) the diff may place it a few lines off the site.
 */
const WINDOW_LINES = DIFF_CONTEXT_LINES + 8
/** A site window larger than this (a whole function rewritten) is diffed the bounded way. */
const INLINE_WINDOW_CHARS = 20_000

/**
 * Replaces `count` non-overlapping occurrences of `oldText` from the start of `text` (non-empty
 * `oldText`). Site k's hunk is the diff from the text after k−1 replacements to the text after k; its
 * new coordinates are those of the final text and its old coordinates those of the original (shifted
 * back by the lines the earlier sites added or removed). Rejects with the abort reason on abort.
 */
export async function replaceSites(
  text: string,
  oldText: string,
  newText: string,
  count: number,
  budget: DiffBudget,
): Promise<Replaced> {
  if (text.length * 2 > budget.maxChars) {
    // Too big to diff: the native split/join does the same left-to-right, non-overlapping replacement.
    const replaced = text.split(oldText).join(newText)
    return { text: replaced, count, summary: countsOf(text, replaced, oldText, newText, count, 'size') }
  }
  const deadline = Date.now() + budget.timeoutMs
  const parts: string[] = []
  const hunks: DiffHunk[] = []
  let diffing = true
  let pos = 0 // in the original text
  let tail = '' // the output's last lines (context before the next site), starting at a line start
  let outLines = 0 // newlines written to the output so far
  let shift = 0
  let sliceEnd = Date.now() + SLICE_MS
  for (let site = 0; site < count; site++) {
    const at = text.indexOf(oldText, pos)
    if (at === -1) break
    const before = text.slice(pos, at)
    parts.push(before, newText)
    outLines += newlines(before)
    tail = lastLines(tail + lastLines(before, WINDOW_LINES + 1), WINDOW_LINES + 1)
    if (diffing) {
      const after = text.slice(at + oldText.length, endOfLines(text, at + oldText.length, WINDOW_LINES + 1))
      const windowBefore = tail + oldText + after
      const windowAfter = tail + newText + after
      let hunk: DiffHunk | undefined
      if (windowBefore.length + windowAfter.length <= INLINE_WINDOW_CHARS) {
        hunk = siteHunk(windowBefore, windowAfter)
      } else {
        const timeoutMs = Math.max(1, deadline - Date.now())
        const diff = await wholeFileDiff(windowBefore, windowAfter, { ...budget, timeoutMs })
        budget.signal.throwIfAborted()
        if (diff && 'hunks' in diff) hunk = joinHunks(toLf(windowBefore), diff.hunks)
        else diffing = false
      }
      if (hunk && diffing) {
        const offset = outLines - newlines(tail) // lines of the current text before the window
        hunks.push({ ...hunk, oldStart: hunk.oldStart + offset - shift, newStart: hunk.newStart + offset })
        shift += hunk.newLines - hunk.oldLines
      }
      if (Date.now() > deadline) diffing = false
    }
    outLines += newlines(newText)
    tail = lastLines(tail + newText, WINDOW_LINES + 1)
    pos = at + oldText.length
    if (Date.now() > sliceEnd) {
      await new Promise((resolve) => setImmediate(resolve))
      budget.signal.throwIfAborted()
      sliceEnd = Date.now() + SLICE_MS
    }
  }
  parts.push(text.slice(pos))
  const replaced = parts.join('')
  if (diffing) return { text: replaced, count, hunks }
  return { text: replaced, count, summary: countsOf(text, replaced, oldText, newText, count, 'time') }
}

/** Counts for a skipped diff: each site removes the lines `oldText` spans and adds those `newText` does. */
function countsOf(
  before: string,
  after: string,
  oldText: string,
  newText: string,
  count: number,
  reason: ChangeSummary['reason'],
): ChangeSummary {
  return siteCounts(oldText, newText, count, reason, Buffer.byteLength(before), Buffer.byteLength(after))
}

/** `countsOf` from sizes alone, for an edit that never held the file (stream-edit.ts). */
export function siteCounts(
  oldText: string,
  newText: string,
  count: number,
  reason: ChangeSummary['reason'],
  bytesBefore: number,
  bytesAfter: number,
): ChangeSummary {
  return {
    reason,
    linesRemoved: count * (newlines(oldText) + 1),
    linesAdded: count * (newlines(newText) + 1),
    bytesBefore,
    bytesAfter,
  }
}

function newlines(text: string): number {
  let n = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++
  return n
}

/** The end of `text` from the start of the line `lines − 1` lines above its last line. */
function lastLines(text: string, lines: number): string {
  let at = text.length
  for (let i = 0; i < lines; i++) {
    // (lastIndexOf clamps a negative start to 0, which would find a newline at 0 again)
    at = at === 0 ? -1 : text.lastIndexOf('\n', at - 1)
    if (at === -1) return text
  }
  return text.slice(at + 1)
}

/** The index just past the `lines`-th newline from `from` (the rest of its line counts as one), or the end. */
function endOfLines(text: string, from: number, lines: number): number {
  let at = from
  for (let i = 0; i < lines; i++) {
    const lf = text.indexOf('\n', at)
    if (lf === -1) return text.length
    at = lf + 1
  }
  return at
}
