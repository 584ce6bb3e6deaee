// Files permission deny rules keep out of `grep` and `glob` results (docs/decisions/0118-deny-rules-in-search-results.md).
// The tools skip them in the result step and end with a count, never their names. The count is taken
// from a listing by name only: `grep`'s ripgrep pre-filter lists files by content, and a count of
// withheld files holding the pattern would tell the model, one question at a time, what they hold.
import type { ToolCallContext, WithheldTest } from '@tack/tools'
import type { FsEnv } from './env.ts'
import { filesUnder } from './file-source.ts'
import { plural } from './present.ts'

/** The test for this call of `tool`, or undefined when no rule can withhold anything from it. */
export function withheldTest(
  env: FsEnv,
  tool: string,
  call: ToolCallContext,
): Promise<WithheldTest | undefined> {
  return env.withheld ? env.withheld(tool, call) : Promise.resolve(undefined)
}

/** How many files under `start` whose relative name passes `wanted` the test withholds, by name only. */
export async function countWithheld(
  env: FsEnv,
  root: string,
  start: string,
  signal: AbortSignal,
  wanted: (relative: string) => boolean,
  withheld: WithheldTest,
): Promise<number> {
  let count = 0
  for await (const file of await filesUnder(env, root, start, signal)) {
    if (file.kind === 'file' && wanted(file.relative) && withheld(file.path)) count++
  }
  return count
}

/** The closing note of a result some of whose files were withheld ('' for none). */
export function withheldNote(count: number, what: 'searched' | 'listed'): string {
  if (count === 0) return ''
  return `\n\n[${plural(count, 'file')} withheld by permission deny rules: not ${what}.]`
}
