// `glob {pattern, path?}` (TL-16): files under a folder whose path (relative to that folder) matches
// a glob (`*`, `**`, `?`, `[…]`, `{a,b}`; dot files included), `.gitignore`d paths and `.git`
// skipped, sorted by path, at most `globMaxResults` with a note when more exist.
import { defineTool, type RenderIntent, ToolFailure } from '@tack/tools'
import picomatch from 'picomatch'
import type { FsEnv } from '../env.ts'
import { failedIntent, plural, textOf } from '../present.ts'
import { searchRoot } from '../search-root.ts'
import type { WalkEntry } from '../walk.ts'
import { filesUnder, literalSuffix } from '../file-source.ts'
import { withheldNote, withheldTest } from '../withheld.ts'

const NO_FILES = 'No files matched.'

export function createGlobTool(env: FsEnv) {
  return defineTool({
    name: 'glob',
    access: 'read',
    paths: (args) => [args.path ?? '.'],
    hostNames: { claude: 'Glob' },
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
      const matches = compileGlob(args.pattern)
      const withheld = await withheldTest(env, 'glob', call)
      let hidden = 0
      const max = env.config.globMaxResults
      const found: string[] = []
      let more = false
      const entries = await filesUnder(env, root.path.root, root.path.real, call.signal, {
        ...(literalSuffix(args.pattern) !== undefined && { nameSuffix: literalSuffix(args.pattern) }),
      })
      const take = (entry: WalkEntry): boolean => {
        if (!matches(entry.relative)) return true
        if (withheld?.(entry.path)) {
          hidden++
          return true
        }
        if (found.length === max) {
          more = true
          return false
        }
        found.push(root.name(entry.path))
        return true
      }
      // rg's listing is an array: no promise per path.
      if (Array.isArray(entries)) {
        for (const entry of entries) if (!take(entry)) break
      } else {
        for await (const entry of entries) if (!take(entry)) break
      }
      const withheldLine = withheldNote(hidden, 'listed')
      if (found.length === 0) return NO_FILES + withheldLine
      const note = more
        ? `\n\n[Stopped at ${plural(max, 'result')} (globMaxResults); more files match. Narrow the pattern or the path.]`
        : ''
      return found.join('\n') + note + withheldLine
    },
    presentCall(args): RenderIntent {
      return { kind: 'generic', title: `Glob ${args.pattern}${args.path ? ` in ${args.path}` : ''}` }
    },
    presentResult(args, result): RenderIntent {
      if (result.isError) return failedIntent(`Glob ${args.pattern}`, result)
      const body = textOf(result)
      const count = body.startsWith(NO_FILES) ? 0 : body.split('\n\n')[0].split('\n').length
      return { kind: 'generic', title: `Glob ${args.pattern} (${plural(count, 'file')})`, body }
    },
  })
}

export function compileGlob(
  pattern: string,
  options: { basename?: boolean } = {},
): (path: string) => boolean {
  try {
    return picomatch(pattern, { dot: true, ...(options.basename && { basename: true }) })
  } catch (error) {
    throw new ToolFailure(
      'INVALID_PATTERN',
      `Invalid glob ${JSON.stringify(pattern)}: ${(error as Error).message}`,
    )
  }
}
