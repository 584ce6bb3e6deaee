// `read {file_path, offset?, limit?}` (TL-12): numbered lines from `offset` (1-based), each line cut
// at `readMaxLineLength`, stopping at `limit` lines or `readMaxBytes` of output, whichever comes
// first, and ending with the next offset when more remains. Files of at least `readStreamMinSize`
// bytes are streamed line by line. A successful read is an observation for read-before-edit (TL-13).
import { defineTool, type ToolAgent } from '@tack/tools'
import { readHost } from './read-host.ts'
import { fileBackendOf, textFingerprint } from '../backend.ts'
import type { FsEnv } from '../env.ts'
import { openText } from '../files.ts'
import { streamLines } from '../line-stream.ts'
import { fingerprintOf } from '../observations.ts'
import { cutMark, type Line, linesOf } from '../text.ts'
import { type ResolvedPath, resolveScoped } from '../workspace.ts'
import { readPresentation } from './read-present.ts'
import { readImageAt } from './read-image.ts'

export interface ReadWindow {
  readonly offset: number
  readonly limit: number
  readonly maxBytes: number
}

/** Formats the window of `lines`; stops reading as soon as it knows whether more remains. */
export async function formatWindow(
  lines: Iterable<Line> | AsyncIterable<Line>,
  window: ReadWindow,
): Promise<string> {
  const out: string[] = []
  let bytes = 0
  let index = 0
  let stopped: 'limit' | 'bytes' | undefined
  for await (const line of lines) {
    index++
    if (index < window.offset) continue
    if (out.length === window.limit) {
      stopped = 'limit'
      break
    }
    const entry = `${index}\t${line.text}${cutMark(line)}\n`
    const size = Buffer.byteLength(entry)
    // The first line of the window is always shown, so the next offset always moves forward.
    if (out.length > 0 && bytes + size > window.maxBytes) {
      stopped = 'bytes'
      break
    }
    out.push(entry)
    bytes += size
  }
  if (index === 0) return '[The file is empty.]'
  if (out.length === 0) return `[The file has ${index} lines; offset ${window.offset} is past its end.]`
  const text = out.join('').slice(0, -1)
  if (!stopped) return text
  const last = window.offset + out.length - 1
  const why =
    stopped === 'limit' ? `the ${window.limit}-line limit` : `the ${window.maxBytes}-byte output limit`
  return `${text}\n\n[Showing lines ${window.offset}-${last}, stopped at ${why}. The file continues: read again with offset ${last + 1}.]`
}

/**
 * The window of a resolved text file as `read` shows it, recorded as the agent's observation (TL-13).
 * `read` and an `@path` mention (mentions/attach.ts) both go through here, so a mention is shaped,
 * bounded and guarded exactly as the tool's result would be.
 */
export async function readFileWindow(
  env: FsEnv,
  path: ResolvedPath,
  agent: ToolAgent | undefined,
  window: ReadWindow,
  signal: AbortSignal,
): Promise<string> {
  const { config } = env
  const { handle, stat } = await openText(path)
  const backend = fileBackendOf(agent)
  if (backend) {
    // The disk answered existence, kind and binary; the backend (an editor's buffer) the text.
    await handle.close()
    const text = await backend.readText(path, signal)
    env.observations.record(agent, path.real, textFingerprint(text))
    return formatWindow(linesOf(text, config.readMaxLineLength), window)
  }
  try {
    if (stat.size >= config.readStreamMinSize) {
      const text = await formatWindow(
        streamLines(handle, config.readMaxLineLength, config.streamChunkBytes, signal),
        window,
      )
      // A partial streamed read observes size and mtime (hashing would read the whole file).
      env.observations.record(agent, path.real, fingerprintOf(stat))
      return text
    }
    const bytes = await handle.readFile()
    const text = await formatWindow(linesOf(bytes.toString('utf8'), config.readMaxLineLength), window)
    env.observations.record(agent, path.real, fingerprintOf(stat, bytes))
    return text
  } finally {
    await handle.close()
  }
}

export function createReadTool(env: FsEnv) {
  return defineTool({
    name: 'read',
    access: 'read',
    paths: (args) => [args.file_path],
    host: readHost,
    description:
      'Read a text file of the workspace. Returns numbered lines (`N<TAB>text`, from 1). Use offset and limit to page through long files. A PNG, JPEG, GIF or WebP file is returned as an image.',
    parameters: {
      type: 'object',
      properties: {
        file_path: {
          type: 'string',
          minLength: 1,
          description: 'The file to read, relative to the working directory or absolute.',
        },
        offset: { type: 'integer', minimum: 1, description: 'The first line to show (1-based). Default 1.' },
        limit: { type: 'integer', minimum: 1, description: 'How many lines to show at most.' },
      },
      required: ['file_path'],
    },
    async execute(args, call) {
      const path = await resolveScoped(call, args.file_path)
      const window: ReadWindow = {
        offset: args.offset ?? 1,
        limit: args.limit ?? env.config.readLimit,
        maxBytes: env.config.readMaxBytes,
      }
      // An image file is answered as an image (read-image.ts); it is no observation for edit.
      const image = await readImageAt(path, env.config)
      if (image !== undefined) return image
      return readFileWindow(env, path, call.agent, window, call.signal)
    },
    present: readPresentation,
  })
}
