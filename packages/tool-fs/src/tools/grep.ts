// `grep {pattern, path?, glob?, ignore_case?, output?}` (TL-16): a JavaScript regular expression
// searched line by line in the text files under a folder (or in one file), `.gitignore`d paths,
// `.git`, symlinks and binary files skipped, in path order, stopping after `grepMaxMatches` entries
// (matching lines for `content`, files for `files` and `count`) with a note. ripgrep, when present,
// only finds the files (see file-source.ts); the RegExp decides every match.
import { basename } from 'node:path'
import { defineTool, ToolFailure } from '@tack/tools'
import { grepHost } from './grep-host.ts'
import type { FsEnv } from '../env.ts'
import { filesUnder } from '../file-source.ts'
import { grepMatcher } from '../grep-file.ts'
import { plural } from '../present.ts'
import type { FileResult, SearchJob } from '../search-job.ts'
import { searchEach } from '../search-pool.ts'
import type { WalkEntry } from '../walk.ts'
import { searchRoot } from '../search-root.ts'
import { cutLine, cutMark } from '../text.ts'
import { withheldAlongside, withheldNote, withheldTest } from '../withheld.ts'
import { compileGlob } from './glob.ts'
import { grepPresentation } from './grep-present.ts'

type GrepOutput = 'content' | 'files' | 'count'

const NO_MATCHES = 'No matches found.'

export function createGrepTool(env: FsEnv) {
  return defineTool({
    name: 'grep',
    access: 'read',
    paths: (args) => [args.path ?? '.'],
    host: grepHost,
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
      // Compiled here only to fail an invalid glob at once; it is matched in the worker.
      if (args.glob) compileGlob(args.glob, { basename: !args.glob.includes('/') })
      const matcher = grepMatcher(regex, args.pattern, args.ignore_case === true)
      const root = await searchRoot(call, args.path)
      const withheld = await withheldAlongside(
        env,
        { root: root.path.root, start: root.path.real, signal: call.signal },
        root.isDirectory ? await withheldTest(env, 'grep', call) : undefined,
        matcher.literal,
      )
      const files = withheld.files(
        root.isDirectory
          ? await filesUnder(env, root.path.root, root.path.real, call.signal, {
              ...(matcher.literal && { literal: matcher.literal }),
            })
          : {
              files: [{ path: root.path.real, relative: basename(root.path.real), kind: 'file' as const }],
              byContent: false,
            },
      )
      const output: GrepOutput = args.output
      const max = env.config.grepMaxMatches
      const entries: string[] = []
      const searchLength = env.config.grepMaxLineLength
      const seen = { longLines: 0 }
      // The RegExp (and the glob) run in a worker, never on this thread: a pattern that backtracks
      // for minutes must not block the event loop (docs/decisions/0120-model-patterns-off-thread.md).
      const glob = args.glob
        ? { pattern: args.glob, options: { basename: !args.glob.includes('/') } }
        : undefined
      const job: SearchJob = {
        ...(glob && { glob }),
        grep: {
          pattern: args.pattern,
          ignoreCase: args.ignore_case === true,
          streamMinSize: env.config.readStreamMinSize,
          chunkBytes: env.config.streamChunkBytes,
          searchLength,
          showLength: env.config.readMaxLineLength,
          collect: output === 'files' ? 'first' : output === 'count' ? 'count' : 'lines',
          maxLines: max + 1,
        },
      }
      let more = false
      /** Adds one file's result; false once the cap is reached. */
      const take = (file: WalkEntry, result: FileResult): boolean => {
        const name = root.name(file.path)
        seen.longLines += result.longLines
        if (result.count === 0) return true
        if (output === 'content') {
          for (const line of result.lines) {
            if (entries.length === max) return !(more = true)
            const shown = cutLine(line.text, env.config.readMaxLineLength)
            entries.push(
              `${name}:${line.number}:${shown.text}${cutMark({ text: shown.text, length: line.length })}`,
            )
          }
          return true
        }
        if (entries.length === max) return !(more = true)
        entries.push(output === 'files' ? name : `${name}:${result.count}`)
        return true
      }
      const limits = { signal: call.signal, timeoutMs: env.config.searchTimeoutMs, tool: 'grep' }
      // A file a deny rule withholds is never sent to the worker, so never read (0118).
      await searchEach(job, limits, files, take, withheld.only)
      const hidden = withheldNote(await withheld.count(glob, limits), 'searched')
      const long =
        seen.longLines > 0
          ? `[${plural(seen.longLines, 'line')} longer than ${searchLength} characters (grepMaxLineLength) ${seen.longLines === 1 ? 'was' : 'were'} searched only in ${seen.longLines === 1 ? 'its' : 'their'} first ${searchLength}.]`
          : ''
      if (entries.length === 0) return (long ? `${NO_MATCHES}\n\n${long}` : NO_MATCHES) + hidden
      const unit = output === 'content' ? 'matching line' : 'file'
      const note = more
        ? `\n\n[Stopped at ${plural(max, unit)} (grepMaxMatches); there are more. Narrow the pattern, path or glob.]`
        : ''
      return entries.join('\n') + note + (long ? `\n\n${long}` : '') + hidden
    },
    present: grepPresentation,
  })
}
