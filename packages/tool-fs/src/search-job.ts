// One `glob` or `grep` call's per-file step as the search worker runs it (search-worker.ts): the glob
// test on the file's relative path, then, for `grep`, the RegExp over its lines (grep-file.ts). Kept
// apart from the worker entry so the shape of a job and of its answers is one typed place.
import { type GrepMatcher, grepMatcher, type MatchedLine, searchFile } from './grep-file.ts'
import { type GlobOptions, globMatcher } from './glob-match.ts'
import { cutLine } from './text.ts'

export interface SearchJob {
  /** Only files whose relative path matches this glob are searched (or, without `grep`, kept). */
  readonly glob?: { readonly pattern: string; readonly options: GlobOptions }
  /** The RegExp to search each kept file for; without it a kept file just counts 1 (`glob`). */
  readonly grep?: {
    readonly pattern: string
    readonly ignoreCase: boolean
    readonly streamMinSize: number
    readonly chunkBytes: number
    readonly searchLength: number
    /**
     * Characters of a kept line (`readMaxLineLength`): a matching line is stored cut to what the
     * result can show, never at `searchLength` — 500 matching 1 MiB lines held whole (and copied
     * to the main thread) cost about a gigabyte.
     */
    readonly showLength: number
    /**
     * `first`: stop at a file's first match; `lines`: keep up to `maxLines` a batch (the result
     * shows no more, whichever files they are in); `count`: count them all.
     */
    readonly collect: 'first' | 'lines' | 'count'
    readonly maxLines: number
  }
}

export interface SearchFile {
  readonly path: string
  readonly relative: string
}

export interface FileResult {
  /** Matching lines (1 for a file `glob` keeps, 0 for one it drops). */
  readonly count: number
  /** Only for `collect: 'lines'`. */
  readonly lines: readonly MatchedLine[]
  /** Lines longer than `searchLength`, searched in their head only. */
  readonly longLines: number
}

const NONE: FileResult = { count: 0, lines: [], longLines: 0 }
const KEPT: FileResult = { count: 1, lines: [], longLines: 0 }

/** One batch's step: each file's result in order (search-worker.ts answers a batch with it). */
export type BatchStep = (files: readonly SearchFile[]) => Promise<FileResult[]>

/**
 * The per-batch step of `job`. The worker is terminated on abort, so the search never needs a signal.
 * With `collect: 'lines'`, a batch keeps at most `maxLines` lines in all: the caller stops at that
 * many, so files after them in the batch are not searched.
 */
export function prepareJob(job: SearchJob): BatchStep {
  const one = fileStep(job)
  return async (files) => {
    const results: FileResult[] = []
    let room = job.grep?.maxLines ?? 0
    for (const file of files) {
      if (job.grep?.collect === 'lines' && room <= 0) {
        results.push(NONE)
        continue
      }
      const result = await one(file, room)
      room -= result.lines.length
      results.push(result)
    }
    return results
  }
}

/** One file's step; `room`: the lines it may keep (`collect: 'lines'`). */
function fileStep(job: SearchJob): (file: SearchFile, room: number) => Promise<FileResult> {
  const keep = job.glob ? globMatcher(job.glob.pattern, job.glob.options) : () => true
  const grep = job.grep
  if (!grep) return async (file) => (keep(file.relative) ? KEPT : NONE)
  const regex = new RegExp(grep.pattern, grep.ignoreCase ? 'i' : '')
  const matcher: GrepMatcher = grepMatcher(regex, grep.pattern, grep.ignoreCase)
  const signal = new AbortController().signal
  return async (file, room) => {
    if (!keep(file.relative)) return NONE
    const seen = { longLines: 0 }
    const lines: MatchedLine[] = []
    let count = 0
    const opts = {
      streamMinSize: grep.streamMinSize,
      chunkBytes: grep.chunkBytes,
      searchLength: grep.searchLength,
      seen,
      signal,
    }
    await searchFile(file.path, matcher, opts, (line) => {
      count++
      if (grep.collect === 'first') return false
      if (grep.collect === 'count') return true
      lines.push({ ...line, text: detached(cutLine(line.text, grep.showLength).text) })
      return lines.length < room
    })
    return count === 0 && seen.longLines === 0 ? NONE : { count, lines, longLines: seen.longLines }
  }
}

/**
 * A copy of `text` that keeps no larger string alive: V8 makes a long `slice` a view into its
 * parent, so a kept 2,000-character head would pin the whole megabyte line it was cut from.
 * (A JSON round trip copies every unit, lone surrogates included.)
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
