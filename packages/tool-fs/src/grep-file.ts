// Searching one file for `grep` (TL-16, issue 12.4). Files under `readStreamMinSize` are read whole:
// the binary rule and the literal pre-filter run on the bytes, a file without the pattern's required
// literal is never decoded, and lines are scanned in one synchronous loop (no promise per line).
// Bigger files stream line by line, so memory stays bounded. Runs in the search worker (search-job.ts),
// never on tack's main thread: the model's RegExp may backtrack for minutes (docs/decisions/0120-model-patterns-off-thread.md).
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { streamLines } from './line-stream.ts'
import { escapeRegExp, requiredLiteral } from './literal.ts'
import { BINARY_SNIFF_BYTES, cutLine, looksBinary } from './text.ts'

export interface GrepMatcher {
  readonly regex: RegExp
  /** The text every match contains, for the pre-filter (and rg's narrowing). */
  readonly literal?: { readonly text: string; readonly ignoreCase: boolean }
  readonly literalBytes?: Buffer
  readonly literalRegex?: RegExp
}

export function grepMatcher(regex: RegExp, pattern: string, ignoreCase: boolean): GrepMatcher {
  const text = requiredLiteral(pattern)
  if (text === undefined) return { regex }
  return ignoreCase
    ? { regex, literal: { text, ignoreCase }, literalRegex: new RegExp(escapeRegExp(text), 'i') }
    : { regex, literal: { text, ignoreCase }, literalBytes: Buffer.from(text, 'utf8') }
}

export interface MatchedLine {
  readonly number: number
  /** At most `searchLength` characters. */
  readonly text: string
  /** The whole line's length. */
  readonly length: number
}

export interface FileSearch {
  readonly streamMinSize: number
  /** Bytes read at a time from a streamed file (`streamChunkBytes`). */
  readonly chunkBytes: number
  /** Characters of a line searched (and kept): a longer line is searched in its head only. */
  readonly searchLength: number
  /** Counts the lines longer than `searchLength`, for the result's note. */
  readonly seen: { longLines: number }
  readonly signal: AbortSignal
}

/**
 * Calls `onMatch` for each matching line of a text file (none for a binary, unreadable or
 * non-regular one) until it returns false.
 */
export async function searchFile(
  path: string,
  matcher: GrepMatcher,
  opts: FileSearch,
  onMatch: (line: MatchedLine) => boolean,
): Promise<void> {
  opts.signal.throwIfAborted()
  const small = readSmall(path, opts.streamMinSize)
  if (small === 'big') return searchStreamed(path, matcher, opts, onMatch)
  if (small) searchBuffer(small, matcher, opts, onMatch)
}

/**
 * A regular file under `streamMinSize`, read whole with synchronous calls: for thousands of small
 * files the thread-pool round trips of four async calls a file cost more than the reads (issue 12.4;
 * this runs in the search worker, so blocking calls block nobody). `O_NONBLOCK` keeps a FIFO from blocking the open.
 */
function readSmall(path: string, streamMinSize: number): Buffer | 'big' | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    return undefined
  }
  try {
    const info = fstatSync(fd)
    if (!info.isFile()) return undefined
    if (info.size >= streamMinSize) return 'big'
    return readFileSync(fd)
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

async function searchStreamed(
  path: string,
  matcher: GrepMatcher,
  opts: FileSearch,
  onMatch: (line: MatchedLine) => boolean,
): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    return
  }
  try {
    if (!(await handle.stat()).isFile()) return
    const head = Buffer.alloc(BINARY_SNIFF_BYTES)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    if (looksBinary(head.subarray(0, bytesRead))) return
    let number = 0
    for await (const line of streamLines(handle, opts.searchLength, opts.chunkBytes, opts.signal)) {
      number++
      if (line.length > line.text.length) opts.seen.longLines++
      if (matcher.regex.test(line.text) && !onMatch({ number, text: line.text, length: line.length })) return
    }
  } finally {
    await handle.close()
  }
}

function searchBuffer(
  bytes: Buffer,
  matcher: GrepMatcher,
  opts: FileSearch,
  onMatch: (line: MatchedLine) => boolean,
): void {
  if (looksBinary(bytes)) return
  if (matcher.literalBytes && bytes.indexOf(matcher.literalBytes) === -1) return
  const text = bytes.toString('utf8')
  if (matcher.literalRegex && !matcher.literalRegex.test(text)) return
  const { regex } = matcher
  const max = opts.searchLength
  let number = 0
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    number++
    // The line without its LF and a final CR, as `linesOf` gives it.
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end
    const length = stop - start
    let line = text.slice(start, stop)
    if (length > max) {
      opts.seen.longLines++
      line = cutLine(line, max).text
    }
    if (regex.test(line) && !onMatch({ number, text: line, length })) return
    start = end + 1
  }
}
