// Files permission deny rules keep out of `grep` and `glob` results (docs/decisions/0118-deny-rules-in-search-results.md).
// The tools skip them in the result step and end with a count, never their names. The count is taken
// from a listing by name only: `grep`'s ripgrep pre-filter lists files by content, and a count of
// withheld files holding the pattern would tell the model, one question at a time, what they hold.
import type { ToolCallContext, WithheldTest } from '@tack/tools'
import type { FsEnv } from './env.ts'
import { filesUnder } from './file-source.ts'
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

/**
 * How many files under `where.start` the test withholds, by name only; with a `glob` (grep's), only
 * those it keeps, matched in the search worker like every model-given pattern
 * (docs/decisions/0120-model-patterns-off-thread.md).
 */
export async function countWithheld(
  env: FsEnv,
  where: {
    readonly root: string
    readonly start: string
    readonly glob: SearchJob['glob'] | undefined
    readonly limits: SearchLimits
  },
  withheld: WithheldTest,
): Promise<number> {
  const covered: WalkEntry[] = []
  for await (const file of await filesUnder(env, where.root, where.start, where.limits.signal)) {
    if (file.kind === 'file' && withheld(file.path)) covered.push(file)
  }
  if (where.glob === undefined || covered.length === 0) return covered.length
  let count = 0
  await searchEach({ glob: where.glob }, where.limits, covered, (_file, kept) => {
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
