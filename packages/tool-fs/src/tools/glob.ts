// `glob {pattern, path?}` (TL-16): files under a folder whose path (relative to that folder) matches
// a glob (`*`, `**`, `?`, `[…]`, `{a,b}`; dot files included), `.gitignore`d paths and `.git`
// skipped, sorted by path, at most `globMaxResults` with a note when more exist.
import { defineTool, ToolFailure } from '@tack/tools'
import { globHost } from './glob-host.ts'
import type { FsEnv } from '../env.ts'
import { type GlobOptions, globMatcher, nameTailTest } from '../glob-match.ts'
import { plural } from '../present.ts'
import { searchRoot } from '../search-root.ts'
import { filesUnder, literalSuffix } from '../file-source.ts'
import { filterEach, searchEach } from '../search-pool.ts'
import type { WalkEntry } from '../walk.ts'
import { withheldNote, withheldTest } from '../withheld.ts'
import { globPresentation } from './glob-present.ts'

const NO_FILES = 'No files matched.'

export function createGlobTool(env: FsEnv) {
  return defineTool({
    name: 'glob',
    access: 'read',
    paths: (args) => [args.path ?? '.'],
    host: globHost,
    description:
      'Find files by path pattern (e.g. `**/*.ts`, `src/*.{js,ts}`), relative to `path` (default: the working directory). Skips .gitignored files. Results are sorted by path.',
    parameters: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          minLength: 1,
          description: 'The glob, matched against paths relative to `path`.',
        },
        path: {
          type: 'string',
          minLength: 1,
          description: 'The folder to search. Default: the working directory.',
        },
      },
      required: ['pattern'],
    },
    async execute(args, call) {
      const root = await searchRoot(call, args.path)
      if (!root.isDirectory) {
        throw new ToolFailure('NOT_A_DIRECTORY', `${root.path.requested} is a file; glob searches a folder.`)
      }
      // Compiled here only to fail an invalid glob at once: a glob like `*a*a*a*a*a*a*b` backtracks for
      // minutes on a long name, so it is matched in the search worker (docs/decisions/0120-model-patterns-off-thread.md),
      // unless it is a plain name ending (`**​/*.ts`), which is a string test (glob-match.ts `nameTailTest`).
      compileGlob(args.pattern)
      const withheld = await withheldTest(env, 'glob', call)
      let hidden = 0
      const max = env.config.globMaxResults
      const found: string[] = []
      let more = false
      const { files: entries } = await filesUnder(env, root.path.root, root.path.real, call.signal, {
        ...(literalSuffix(args.pattern) !== undefined && { nameSuffix: literalSuffix(args.pattern) }),
      })
      const limits = { signal: call.signal, timeoutMs: env.config.searchTimeoutMs, tool: 'glob' }
      const keep = (entry: WalkEntry): boolean => {
        // A match a deny rule covers is counted, never named (docs/decisions/0118-deny-rules-in-search-results.md).
        if (withheld?.(entry.path)) {
          hidden++
          return true
        }
        if (found.length === max) return !(more = true)
        found.push(root.name(entry.path))
        return true
      }
      const tail = nameTailTest(args.pattern)
      if (tail) await filterEach(limits, entries, tail, keep)
      else {
        const job = { glob: { pattern: args.pattern, options: {} } }
        await searchEach(job, limits, entries, (entry, kept) => kept.count === 0 || keep(entry))
      }
      const withheldLine = withheldNote(hidden, 'listed')
      if (found.length === 0) return NO_FILES + withheldLine
      const note = more
        ? `\n\n[Stopped at ${plural(max, 'result')} (globMaxResults); more files match. Narrow the pattern or the path.]`
        : ''
      return found.join('\n') + note + withheldLine
    },
    present: globPresentation,
  })
}

export function compileGlob(pattern: string, options: GlobOptions = {}): (path: string) => boolean {
  try {
    return globMatcher(pattern, options)
  } catch (error) {
    throw new ToolFailure(
      'INVALID_PATTERN',
      `Invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`,
    )
  }
}
