// Files permission deny rules keep out of `grep` and `glob` results (docs/decisions/0118-deny-rules-in-search-results.md).
// The tools skip them in the result step and end with a count, never their names. The count is taken
// from a listing by name only: `grep`'s ripgrep pre-filter lists files by content, and a count of
// withheld files holding the pattern would tell the model, one question at a time, what they hold.
import type { ToolCallContext, WithheldTest } from '@tack/tools'
import type { FsEnv } from './env.ts'
import { filesUnder, type Listing, listsByContent, type SourceOptions } from './file-source.ts'
import { plural } from './present.ts'
import type { SearchJob } from './search-job.ts'
import { type SearchLimits, searchEach } from './search-pool.ts'
import type { WalkEntry } from './walk.ts'

/** The test for this call of `tool`, or undefined when no rule can withhold anything from it. */
export function withheldTest(
  env: FsEnv,
  tool: string,
  call: ToolCallContext,
): Promise<WithheldTest | undefined> {
  return env.withheld ? env.withheld(tool, call) : Promise.resolve(undefined)
}

/** How `grep` leaves withheld files out of its search and counts them (`withheldAlongside`). */
export interface WithheldCount {
  /** The search's filter: regular files not withheld. A withheld file is never read. */
  only(file: WalkEntry): boolean
  /** The listing's files for the search: a walk is handed on so that a search stopped at its cap
   * leaves it open for the count to finish. */
  files(listing: Listing): AsyncIterable<WalkEntry> | readonly WalkEntry[]
  /** The count, once the search is done (grep's `glob` applied in the search worker). */
  count(glob: SearchJob['glob'] | undefined, limits: SearchLimits): Promise<number>
}

/**
 * `grep`'s withheld files, counted with no extra wait where that can be done
 * (docs/decisions/0330-search-at-ripgrep-speed.md): from the search's own listing when it is by name
 * (the walk, `rg --files`), going on past the point where the search stopped; from a second listing
 * by name when the search's is by content (rg's pre-filter), started now so that it runs beside the
 * search instead of after it. Either way the count never depends on content (0118).
 */
export async function withheldAlongside(
  env: FsEnv,
  where: { readonly root: string; readonly start: string; readonly signal: AbortSignal },
  withheld: WithheldTest | undefined,
  literal: SourceOptions['literal'],
): Promise<WithheldCount> {
  if (!withheld) return { only: (file) => file.kind === 'file', files: (l) => l.files, count: async () => 0 }
  const byName = (await listsByContent(env, where.root, where.start, literal))
    ? withheldFiles(env, where, withheld)
    : undefined
  byName?.catch(() => {}) // awaited by `count`; a search that fails first must not leave it unhandled
  const covered: WalkEntry[] = []
  let listing: Listing | undefined
  let walk: AsyncIterator<WalkEntry> | undefined
  const only = (file: WalkEntry) => {
    if (file.kind !== 'file') return false
    if (!withheld(file.path)) return true
    if (walk) covered.push(file)
    return false
  }
  return {
    only,
    files(found) {
      listing = found
      if (found.byContent || Array.isArray(found.files)) return found.files
      const iterator = (found.files as AsyncIterable<WalkEntry>)[Symbol.asyncIterator]()
      walk = iterator
      return { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) }
    },
    async count(glob, limits) {
      let names: readonly WalkEntry[]
      if (walk) {
        for (let next = await walk.next(); !next.done; next = await walk.next()) only(next.value)
        names = covered
      } else if (listing && !listing.byContent && Array.isArray(listing.files)) {
        names = (listing.files as readonly WalkEntry[]).filter(
          (file) => file.kind === 'file' && withheld(file.path),
        )
      } else names = await (byName ?? withheldFiles(env, where, withheld))
      return countKept(names, glob, limits)
    },
  }
}

/** The files under `start` the test withholds, from a listing by name only. */
export async function withheldFiles(
  env: FsEnv,
  where: { readonly root: string; readonly start: string; readonly signal: AbortSignal },
  withheld: WithheldTest,
): Promise<WalkEntry[]> {
  const covered: WalkEntry[] = []
  const { files } = await filesUnder(env, where.root, where.start, where.signal, { unordered: true })
  const test = (file: WalkEntry) => file.kind === 'file' && withheld(file.path)
  // rg's listing is an array: filtered in one go, not one `await` per file.
  if (Array.isArray(files)) return (files as readonly WalkEntry[]).filter(test)
  for await (const file of files) if (test(file)) covered.push(file)
  return covered
}

/**
 * How many withheld files count: all of them, or with a `glob` (grep's) those it keeps, matched in the
 * search worker like every model-given pattern (docs/decisions/0120-model-patterns-off-thread.md).
 */
export async function countKept(
  covered: readonly WalkEntry[],
  glob: SearchJob['glob'] | undefined,
  limits: SearchLimits,
): Promise<number> {
  if (glob === undefined || covered.length === 0) return covered.length
  let count = 0
  await searchEach({ glob }, limits, covered, (_file, kept) => {
    if (kept.count > 0) count++
    return true
  })
  return count
}

/** The closing note of a result some of whose files were withheld ('' for none). */
export function withheldNote(count: number, what: 'searched' | 'listed'): string {
  if (count === 0) return ''
  return `\n\n[${plural(count, 'file')} withheld by permission deny rules: not ${what}.]`
}
