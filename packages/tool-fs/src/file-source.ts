// The files `glob` and `grep` visit (issue 12.4): ripgrep's listing when rg is available and can
// apply exactly the walk's rules, else the pure-Node walk. Either way: regular files in path order.
import { join } from 'node:path'
import type { FsEnv } from './env.ts'
import { isAscii } from './literal.ts'
import { ripgrepBinary, ripgrepFiles, ripgrepFilesWith } from './ripgrep.ts'
import { hasRulesAbove, type WalkEntry, walkFiles } from './walk.ts'

export interface SourceOptions {
  /** Only files holding this text may be returned (a pre-filter: more files are fine). */
  readonly literal?: { readonly text: string; readonly ignoreCase: boolean }
}

export async function filesUnder(
  env: FsEnv,
  root: string,
  start: string,
  signal: AbortSignal,
  opts: SourceOptions = {},
): Promise<AsyncIterable<WalkEntry> | Iterable<WalkEntry>> {
  const rg = await ripgrepBinary(env.config.ripgrep)
  if (rg && !(await hasRulesAbove(root, start))) {
    const literal = opts.literal
    const listed =
      literal && (!literal.ignoreCase || isAscii(literal.text))
        ? await ripgrepFilesWith(rg, start, literal.text, literal.ignoreCase, signal)
        : await ripgrepFiles(rg, start, signal)
    if (listed) {
      return listed.map((relative) => ({ path: join(start, relative), relative, kind: 'file' as const }))
    }
  }
  return walkFiles(root, start, signal)
}
