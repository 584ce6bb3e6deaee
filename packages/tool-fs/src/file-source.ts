// The files `glob` and `grep` visit (issue 12.4): ripgrep's listing when rg is available and can
// apply exactly the walk's rules, else the pure-Node walk. Either way: regular files in path order.
import { join, sep } from 'node:path'
import type { FsEnv } from './env.ts'
import { isAscii } from './literal.ts'
import { ripgrepBinary, ripgrepFiles, ripgrepFilesWith } from './ripgrep.ts'
import { hasRulesAbove, type WalkEntry, walkFiles } from './walk.ts'

export interface SourceOptions {
  /** Only files holding this text may be returned (a pre-filter: more files are fine). */
  readonly literal?: { readonly text: string; readonly ignoreCase: boolean }
  /** Only files whose name ends with this text may be returned (a pre-filter, as above). */
  readonly nameSuffix?: string
}

export async function filesUnder(
  env: FsEnv,
  root: string,
  start: string,
  signal: AbortSignal,
  opts: SourceOptions = {},
): Promise<AsyncIterable<WalkEntry> | WalkEntry[]> {
  const rg = await ripgrepBinary(env.config.ripgrep)
  if (rg && !(await hasRulesAbove(root, start))) {
    const literal = opts.literal
    const listed =
      literal && (!literal.ignoreCase || isAscii(literal.text))
        ? await ripgrepFilesWith(rg, start, literal.text, literal.ignoreCase, signal)
        : await ripgrepFiles(rg, start, signal, opts.nameSuffix)
    if (listed) {
      // rg's names are normalised and `/`-separated: on POSIX a concatenation is what `join` gives.
      const base = start.endsWith(sep) ? start : start + sep
      const under =
        sep === '/' ? (relative: string) => base + relative : (relative: string) => join(start, relative)
      return listed.map((relative) => ({ path: under(relative), relative, kind: 'file' as const }))
    }
  }
  return walkFiles(root, start, signal)
}

/**
 * The literal end every path a glob matches shares (`**​/*.d.ts` → `.d.ts`), for rg's `--glob`:
 * the text after the pattern's last special character or `/`, if any.
 */
export function literalSuffix(pattern: string): string | undefined {
  let at = pattern.length
  while (at > 0 && !/[*?[\]{}()!+@/\\,|:]/.test(pattern[at - 1])) at--
  const suffix = pattern.slice(at)
  return suffix === '' ? undefined : suffix
}
