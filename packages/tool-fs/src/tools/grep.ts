// `grep {pattern, path?, glob?, ignore_case?, output?}` (TL-16): a JavaScript regular expression
// searched line by line in the text files under a folder (or in one file), `.gitignore`d paths,
// `.git`, symlinks and binary files skipped, in path order, stopping after `grepMaxMatches` entries
// (matching lines for `content`, files for `files` and `count`) with a note. Pure Node.
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { defineTool, type RenderIntent, ToolFailure } from '@tack/tools'
import type { FsEnv } from '../env.ts'
import { readHead } from '../files.ts'
import { streamLines } from '../line-stream.ts'
import { failedIntent, plural, textOf } from '../present.ts'
import { searchRoot } from '../search-root.ts'
import { cutLine, cutMark, linesOf, looksBinary } from '../text.ts'
import { walkFiles } from '../walk.ts'
import { compileGlob } from './glob.ts'

type GrepOutput = 'content' | 'files' | 'count'

const NO_MATCHES = 'No matches found.'

export function createGrepTool(env: FsEnv) {
  return defineTool({
    name: 'grep',
    access: 'read',
    paths: (args) => [args.path ?? '.'],
    hostNames: { claude: 'Grep' },
    description:
      'Search file contents with a JavaScript regular expression, line by line. Skips .gitignored and binary files. output: `files` (default) lists matching files, `content` shows `path:line:text`, `count` shows `path:count`.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'A JavaScript regular expression.' },
        path: {
          type: 'string',
          minLength: 1,
          description: 'The folder or file to search. Default: the working directory.',
        },
        glob: {
          type: 'string',
          minLength: 1,
          description: 'Only search files matching this glob (without a `/` it matches the file name).',
        },
        ignore_case: { type: 'boolean', default: false, description: 'Match case-insensitively.' },
        output: { enum: ['content', 'files', 'count'], default: 'files', description: 'What to return.' },
      },
      required: ['pattern'],
    },
    async execute(args, call) {
      let regex: RegExp
      try {
        regex = new RegExp(args.pattern, args.ignore_case ? 'i' : '')
      } catch (error) {
        throw new ToolFailure('INVALID_PATTERN', `Invalid regular expression: ${(error as Error).message}`)
      }
      const keep = args.glob ? compileGlob(args.glob, { basename: !args.glob.includes('/') }) : () => true
      const root = await searchRoot(call, args.path)
      const files = root.isDirectory
        ? walkFiles(root.path.root, root.path.real, call.signal)
        : single(root.path.real)
      const output: GrepOutput = args.output
      const max = env.config.grepMaxMatches
      const entries: string[] = []
      const seen = { longLines: 0 }
      const searchLength = env.config.grepMaxLineLength
      let more = false
      search: for await (const file of files) {
        if (file.kind !== 'file' || !keep(file.relative)) continue
        const name = root.name(file.path)
        let count = 0
        const lines = matchingLines(file.path, regex, {
          streamMinSize: env.config.readStreamMinSize,
          searchLength,
          seen,
          signal: call.signal,
        })
        for await (const line of lines) {
          count++
          if (output === 'files') break
          if (output === 'content') {
            if (entries.length === max) {
              more = true
              break search
            }
            const shown = cutLine(line.text, env.config.readMaxLineLength)
            entries.push(
              `${name}:${line.number}:${shown.text}${cutMark({ text: shown.text, length: line.length })}`,
            )
          }
        }
        if (count === 0 || output === 'content') continue
        if (entries.length === max) {
          more = true
          break
        }
        entries.push(output === 'files' ? name : `${name}:${count}`)
      }
      const long =
        seen.longLines > 0
          ? `[${plural(seen.longLines, 'line')} longer than ${searchLength} characters (grepMaxLineLength) ${seen.longLines === 1 ? 'was' : 'were'} searched only in ${seen.longLines === 1 ? 'its' : 'their'} first ${searchLength}.]`
          : ''
      if (entries.length === 0) return long ? `${NO_MATCHES}\n\n${long}` : NO_MATCHES
      const unit = output === 'content' ? 'matching line' : 'file'
      const note = more
        ? `\n\n[Stopped at ${plural(max, unit)} (grepMaxMatches); there are more. Narrow the pattern, path or glob.]`
        : ''
      return entries.join('\n') + note + (long ? `\n\n${long}` : '')
    },
    presentCall(args): RenderIntent {
      const where = args.path ? ` in ${args.path}` : ''
      const only = args.glob ? ` (${args.glob})` : ''
      return { kind: 'generic', title: `Grep ${args.pattern}${where}${only}` }
    },
    presentResult(args, result): RenderIntent {
      if (result.isError) return failedIntent(`Grep ${args.pattern}`, result)
      const body = textOf(result)
      const count = body === NO_MATCHES ? 0 : body.split('\n\n')[0].split('\n').length
      const unit = args.output === 'content' ? 'matching line' : 'file'
      return { kind: 'generic', title: `Grep ${args.pattern} (${plural(count, unit)})`, body }
    },
  })
}

async function* single(path: string) {
  yield { path, relative: basename(path), kind: 'file' as const }
}

interface SearchOptions {
  readonly streamMinSize: number
  /** Characters of a line searched (and kept): a longer line is searched in its head only. */
  readonly searchLength: number
  /** Counts the lines longer than `searchLength`, for the result's note. */
  readonly seen: { longLines: number }
  readonly signal: AbortSignal
}

/**
 * The matching lines of a text file (none for a binary or unreadable one); big files are streamed.
 * `text` is at most `searchLength` characters, `length` the whole line's: memory stays bounded however
 * long a line is (a 600 MB one-line file used to fail the whole search with a RangeError).
 */
async function* matchingLines(
  path: string,
  regex: RegExp,
  opts: SearchOptions,
): AsyncGenerator<{ number: number; text: string; length: number }> {
  const { signal, searchLength, seen } = opts
  signal.throwIfAborted()
  let handle: Awaited<ReturnType<typeof open>>
  try {
    // Only regular files: opening a FIFO would block.
    if (!(await stat(path)).isFile()) return
    handle = await open(path, 'r')
  } catch {
    return
  }
  try {
    const info = await handle.stat()
    if (!info.isFile() || looksBinary(await readHead(handle))) return
    const lines =
      info.size < opts.streamMinSize
        ? linesOf((await handle.readFile()).toString('utf8'), searchLength)
        : streamLines(handle, searchLength, signal)
    let number = 0
    for await (const line of lines) {
      number++
      if (line.length > line.text.length) seen.longLines++
      if (regex.test(line.text)) yield { number, text: line.text, length: line.length }
    }
  } finally {
    await handle.close()
  }
}
