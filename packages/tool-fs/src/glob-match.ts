// A glob as a path test (picomatch, dot files included). Shared by the tools, which validate a glob
// on the main thread, and the search worker, which runs it: a model-supplied glob compiles to a
// RegExp that can backtrack for a long time on a long name (`*a*a*a*a*a*a*a*a*b`), so it is only
// ever matched off the main thread (docs/decisions/0120-model-patterns-off-thread.md).
import picomatch from 'picomatch'

export interface GlobOptions {
  /** Match the file name only (a glob without a `/`, as `grep`'s `glob` argument). */
  readonly basename?: boolean
}

/** Throws picomatch's error for an invalid glob. */
export function globMatcher(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  return picomatch(pattern, { dot: true, ...(options.basename && { basename: true }) })
}

/** `**​/*X` or `*X` where X is plain text: letters, digits, `.`, `_`, `-`. */
const NAME_TAIL = /^(\*\*\/)?\*([A-Za-z0-9._-]+)$/

/**
 * The most common globs a model sends (`**​/*.ts`, `*.md`) as the string test picomatch's answer
 * amounts to for the relative paths a listing gives (normalised: no `.` or `..` segment, no empty
 * one): the name ends with X (and, for `*X`, the path has no `/`). A comparison of string ends cannot
 * backtrack, so it may run on the main thread, without a round trip to the search worker
 * (docs/decisions/0330-search-at-ripgrep-speed.md); undefined for every other glob. The search
 * tests hold it to picomatch over edge names (`.ts`, `..ts`, `a\nb.ts`).
 */
export function nameTailTest(pattern: string): ((path: string) => boolean) | undefined {
  const shape = NAME_TAIL.exec(pattern)
  if (!shape) return undefined
  const tail = shape[2]
  return shape[1] ? (path) => path.endsWith(tail) : (path) => path.endsWith(tail) && !path.includes('/')
}
