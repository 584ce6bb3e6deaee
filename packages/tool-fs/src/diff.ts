// Applied-hunk diffs (TL-15), computed with the `diff` package's `structuredPatch`, 3 context lines,
// on LF-normalised sides. Lines keep the package's markers (` `, `-`, `+`, and `\ No newline at end
// of file`).
//
// Bounded work (issue 9.6): a whole-file diff costs time proportional to the file times the number of
// changed lines, so it is tried on the main thread only with a small edit budget; beyond that it runs
// in a worker thread, stopped at `diffTimeoutMs` or on abort. Sides larger than `diffMaxChars` are not
// diffed at all. Past a cap, the result says what changed in counts (`ChangeSummary`).
import { Worker } from 'node:worker_threads'
import type { DiffHunk } from '@tack/tools'
import { structuredPatch } from 'diff'
import { toLf } from './text.ts'

export const DIFF_CONTEXT_LINES = 3

/** Edit length (changed lines) a diff may reach on the main thread: O(file × this) work at most. */
const INLINE_EDIT_LENGTH = 32

export interface DiffBudget {
  /** Characters of both sides together above which no diff is computed. */
  readonly maxChars: number
  /** Time a diff may take. */
  readonly timeoutMs: number
  readonly signal: AbortSignal
}

/** What changed, in counts, when a diff was skipped. */
export interface ChangeSummary {
  /** Why: the sides were larger than `diffMaxChars`, or the diff took longer than `diffTimeoutMs`. */
  readonly reason: 'size' | 'time'
  /** Lines from the first to the last changed line, before and after (an upper bound of a diff's). */
  readonly linesRemoved: number
  readonly linesAdded: number
  readonly bytesBefore: number
  readonly bytesAfter: number
}

export type FileDiff = { readonly hunks: DiffHunk[] } | { readonly summary: ChangeSummary }

/**
 * The whole-file change from `before` to `after` (an overwriting `write`): its hunks, or its counts
 * past a cap; undefined when `budget.signal` aborted it. The event loop is never held for long.
 */
export async function wholeFileDiff(
  before: string,
  after: string,
  budget: DiffBudget,
): Promise<FileDiff | undefined> {
  if (before.length + after.length > budget.maxChars)
    return summaryOrAbort(before, after, 'size', budget.signal)
  const a = toLf(before)
  const b = toLf(after)
  if (a === b) return { hunks: [] }
  const quick = patch(a, b, INLINE_EDIT_LENGTH)
  if (quick) return { hunks: quick }
  const slow = await patchInWorker(a, b, budget)
  if (budget.signal.aborted) return undefined
  return slow ? { hunks: slow } : summaryOrAbort(before, after, 'time', budget.signal)
}

/** The one-line description of a skipped diff, for the tool's result text. */
export function describeSummary(summary: ChangeSummary, budget: Omit<DiffBudget, 'signal'>): string {
  const why =
    summary.reason === 'size'
      ? `the file is larger than diffMaxChars (${budget.maxChars} characters)`
      : `it would take longer than diffTimeoutMs (${budget.timeoutMs} ms)`
  return (
    `No diff (${why}): ${summary.linesRemoved} lines removed, ${summary.linesAdded} added, ` +
    `${summary.bytesBefore} -> ${summary.bytesAfter} bytes.`
  )
}

async function summaryOrAbort(
  before: string,
  after: string,
  reason: ChangeSummary['reason'],
  signal: AbortSignal,
): Promise<FileDiff | undefined> {
  const summary = await summariseChange(before, after, reason, signal)
  return summary ? { summary } : undefined
}

const CHUNK = 1 << 16

/**
 * Counts the lines between the first and the last difference (common leading and trailing lines
 * trimmed), comparing and counting in chunks and yielding between them, so even a 200 MB file costs
 * the event loop nothing noticeable. Undefined when aborted.
 */
export async function summariseChange(
  before: string,
  after: string,
  reason: ChangeSummary['reason'],
  signal: AbortSignal,
): Promise<ChangeSummary | undefined> {
  const shorter = Math.min(before.length, after.length)
  let head = 0
  while (head < shorter) {
    const end = Math.min(head + CHUNK, shorter)
    if (before.slice(head, end) !== after.slice(head, end)) {
      while (before.charCodeAt(head) === after.charCodeAt(head)) head++
      break
    }
    head = end
    if (await pause(signal)) return undefined
  }
  let tail = 0 // common trailing characters, never overlapping the common head
  const room = shorter - head
  while (tail < room) {
    const step = Math.min(CHUNK, room - tail)
    const a = before.slice(before.length - tail - step, before.length - tail)
    if (a !== after.slice(after.length - tail - step, after.length - tail)) {
      while (before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++
      break
    }
    tail += step
    if (await pause(signal)) return undefined
  }
  // Widen to whole lines: from the start of the first changed line to the end of the last one.
  const from = before.lastIndexOf('\n', head - 1) + 1
  const removed = await countLines(before, from, lineEnd(before, before.length - tail), signal)
  const added = await countLines(after, from, lineEnd(after, after.length - tail), signal)
  if (removed === undefined || added === undefined) return undefined
  return {
    reason,
    linesRemoved: removed,
    linesAdded: added,
    bytesBefore: Buffer.byteLength(before),
    bytesAfter: Buffer.byteLength(after),
  }
}

/** The end of the line holding `at` (just past its newline), or the text's end. */
function lineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at
  const lf = text.indexOf('\n', at)
  return lf === -1 ? text.length : lf + 1
}

/** Lines in `text[from, to)`, which starts at a line start; a last line without a newline counts. */
async function countLines(text: string, from: number, to: number, signal: AbortSignal) {
  let lines = 0
  let at = from
  let budget = CHUNK * 16
  while (at < to) {
    const lf = text.indexOf('\n', at)
    if (lf === -1 || lf >= to) {
      lines++
      break
    }
    lines++
    budget -= lf + 1 - at
    at = lf + 1
    if (budget <= 0) {
      budget = CHUNK * 16
      if (await pause(signal)) return undefined
    }
  }
  return lines
}

/** Lets the event loop run (timers, signals, I/O); true when `signal` aborted meanwhile. */
function pause(signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => setImmediate(() => resolve(signal.aborted)))
}

/** The diff in a worker thread: hunks, or undefined on its timeout or an abort (the worker is killed). */
function patchInWorker(before: string, after: string, budget: DiffBudget): Promise<DiffHunk[] | undefined> {
  if (budget.signal.aborted) return Promise.resolve(undefined)
  // Built copies run as .js, the sources as .ts (scripts/build.ts renames imports, not URLs).
  const file = new URL(`./diff-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)
  const worker = new Worker(file, {
    workerData: { before, after, context: DIFF_CONTEXT_LINES, timeoutMs: budget.timeoutMs },
  })
  return new Promise((resolve) => {
    let settled = false
    const finish = (hunks: DiffHunk[] | undefined) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      budget.signal.removeEventListener('abort', stop)
      void worker.terminate()
      resolve(hunks)
    }
    const stop = () => finish(undefined)
    // jsdiff checks its own timeout between edit lengths; this is the backstop (start-up included).
    const timer = setTimeout(stop, budget.timeoutMs + 1000)
    budget.signal.addEventListener('abort', stop, { once: true })
    worker.once('message', (hunks: DiffHunk[] | null) => finish(hunks ?? undefined))
    worker.once('error', stop)
    worker.once('exit', stop)
  })
}

/**
 * The one hunk of one replaced site: the diff between the file just before and just after that
 * replacement. When a site's change spans more than twice the context, `structuredPatch` splits it;
 * the parts are joined back (the lines between them as context), so each site is exactly one hunk.
 */
export function siteHunk(before: string, after: string): DiffHunk | undefined {
  const lfBefore = toLf(before)
  return joinHunks(lfBefore, patch(lfBefore, toLf(after)))
}

/** Joins the hunks of one site's change into one hunk (the lines between them as context). */
export function joinHunks(lfBefore: string, hunks: readonly DiffHunk[]): DiffHunk | undefined {
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

function patch(before: string, after: string): DiffHunk[]
function patch(before: string, after: string, maxEditLength: number): DiffHunk[] | undefined
function patch(before: string, after: string, maxEditLength?: number): DiffHunk[] | undefined {
  if (before === after) return []
  const result = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
    ...(maxEditLength !== undefined ? { maxEditLength } : {}),
  })
  // jsdiff gives up (undefined) when the change needs more than maxEditLength edits.
  return result?.hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    lines: hunk.lines,
  }))
}
