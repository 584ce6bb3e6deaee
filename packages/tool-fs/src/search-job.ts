// One `glob` or `grep` call's per-file step as the search worker runs it (search-worker.ts): the glob
// test on the file's relative path, then, for `grep`, the RegExp over its lines (grep-file.ts). Kept
// apart from the worker entry so the shape of a job and of its answers is one typed place.
import { type GrepMatcher, grepMatcher, type MatchedLine, searchFile } from './grep-file.ts'
import { type GlobOptions, globMatcher } from './glob-match.ts'

export interface SearchJob {
  /** Only files whose relative path matches this glob are searched (or, without `grep`, kept). */
  readonly glob?: { readonly pattern: string; readonly options: GlobOptions }
  /** The RegExp to search each kept file for; without it a kept file just counts 1 (`glob`). */
  readonly grep?: {
    readonly pattern: string
    readonly ignoreCase: boolean
    readonly streamMinSize: number
    readonly searchLength: number
    /** `first`: stop at a file's first match; `lines`: keep up to `maxLines`; `count`: count them all. */
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

/** The per-file step of `job`. The worker is terminated on abort, so the search never needs a signal. */
export function prepareJob(job: SearchJob): (file: SearchFile) => Promise<FileResult> {
  const keep = job.glob ? globMatcher(job.glob.pattern, job.glob.options) : () => true
  const grep = job.grep
  if (!grep) return async (file) => (keep(file.relative) ? KEPT : NONE)
  const regex = new RegExp(grep.pattern, grep.ignoreCase ? 'i' : '')
  const matcher: GrepMatcher = grepMatcher(regex, grep.pattern, grep.ignoreCase)
  const signal = new AbortController().signal
  return async (file) => {
    if (!keep(file.relative)) return NONE
    const seen = { longLines: 0 }
    const lines: MatchedLine[] = []
    let count = 0
    const opts = { streamMinSize: grep.streamMinSize, searchLength: grep.searchLength, seen, signal }
    await searchFile(file.path, matcher, opts, (line) => {
      count++
      if (grep.collect === 'first') return false
      if (grep.collect === 'count') return true
      lines.push(line)
      return lines.length < grep.maxLines
    })
    return count === 0 && seen.longLines === 0 ? NONE : { count, lines, longLines: seen.longLines }
  }
}
