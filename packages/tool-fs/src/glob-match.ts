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
