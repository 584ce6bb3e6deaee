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
  /** Any order will do (a count): rg's listing is not sorted. The walk's always is. */
  readonly unordered?: boolean
}

/** What `filesUnder` found. */
export interface Listing {
  readonly files: AsyncIterable<WalkEntry> | readonly WalkEntry[]
  /**
   * Only files holding the literal were listed (rg's content pre-filter): not a listing by name, so
   * not one to count withheld files from (docs/decisions/0118-deny-rules-in-search-results.md).
   */
  readonly byContent: boolean
}

export async function filesUnder(
  env: FsEnv,
  root: string,
  start: string,
  signal: AbortSignal,
  opts: SourceOptions = {},
): Promise<Listing> {
  const rg = await ripgrepFor(env, root, start)
  if (rg) {
    const literal = opts.literal
    const byContent = literal !== undefined && usableLiteral(literal)
    const listed = byContent
      ? await ripgrepFilesWith(rg, start, literal.text, literal.ignoreCase, signal)
      : await ripgrepFiles(rg, start, signal, opts.nameSuffix, !opts.unordered)
    if (listed) {
      // rg's names are normalised and `/`-separated: on POSIX a concatenation is what `join` gives.
      const base = start.endsWith(sep) ? start : start + sep
      const under =
        sep === '/' ? (relative: string) => base + relative : (relative: string) => join(start, relative)
      return {
        files: listed.map((relative) => ({ path: under(relative), relative, kind: 'file' as const })),
        byContent,
      }
    }
  }
  return { files: walkFiles(root, start, signal), byContent: false }
}

/** Whether `filesUnder` with this literal will list by content (rg's pre-filter) — unless rg fails. */
export async function listsByContent(
  env: FsEnv,
  root: string,
  start: string,
  literal: SourceOptions['literal'],
): Promise<boolean> {
  return literal !== undefined && usableLiteral(literal) && (await ripgrepFor(env, root, start)) !== undefined
}

/** rg, when it is configured, present, and can apply exactly the walk's rules below `start`. */
async function ripgrepFor(env: FsEnv, root: string, start: string): Promise<string | undefined> {
  const rg = await ripgrepBinary(env.config.ripgrep)
  return rg && !(await hasRulesAbove(root, start)) ? rg : undefined
}

/** rg's case folding covers JavaScript's for ASCII only. */
const usableLiteral = (literal: NonNullable<SourceOptions['literal']>) =>
  !literal.ignoreCase || isAscii(literal.text)

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
