// `edit`'s replacement on a huge file, streamed (docs/decisions/0165-streaming-huge-files.md): the file
// is read `chunkBytes` at a time, matched on its bytes with the last `old_string.length − 1` bytes
// carried into the next chunk (a site split across two reads is still found), and the result goes to
// a sink piece by piece. Memory is a chunk, the carried bytes and the strings, whatever the file's
// size. Sites are the whole-file path's: left to right, non-overlapping. A CRLF file is matched on its
// LF-normalised bytes and written back with CRLF throughout, as `edit` does with a loaded file.
import { createHash } from 'node:crypto'
import type { FileHandle } from 'node:fs/promises'

export interface StreamReplace {
  readonly handle: FileHandle
  readonly chunkBytes: number
  /** The file's first line ending is CRLF (`usesCrlf`): `oldBytes` and `newBytes` are LF-normalised. */
  readonly crlf: boolean
  readonly oldBytes: Uint8Array
  readonly newBytes: Uint8Array
  /** Without it, writing stops at a second site (the call fails `AMBIGUOUS_MATCH`); counting goes on. */
  readonly replaceAll: boolean
  readonly signal: AbortSignal
  /** Receives the new content in order; absent: count and hash only. */
  readonly sink?: (bytes: Uint8Array) => Promise<void>
}

export interface StreamReplaced {
  /** Every site in the file, counted to its end. */
  readonly found: number
  /** SHA-256 of the file as read, for read-before-edit. */
  readonly inputHash: string
  /** SHA-256 and size of what went to the sink. */
  readonly outputHash: string
  readonly outputBytes: number
  /** Size of the LF-normalised input (what a loaded `edit` reports as `bytesBefore`). */
  readonly normalisedBytes: number
}

const CR = 13
const LF = 10
const CRLF = Buffer.from('\r\n')

/** Replaces the sites of `oldBytes` in the open file, streaming it from its start to `sink`. */
export async function streamReplace(opts: StreamReplace): Promise<StreamReplaced> {
  const needle = Buffer.from(opts.oldBytes)
  // What a site becomes on disk (CRLF applied once, not at every site).
  const replacement = opts.crlf ? lfToCrlf(Buffer.from(opts.newBytes)) : Buffer.from(opts.newBytes)
  const input = createHash('sha256')
  const output = createHash('sha256')
  // One buffer for the whole pass, laid out [carried bytes][a waiting CR][the read]: nothing is
  // allocated per read, so a 200 MB file leaves no 200 MB of garbage behind.
  const buffer = Buffer.allocUnsafe(needle.length + opts.chunkBytes)
  let outputBytes = 0
  let normalisedBytes = 0
  let found = 0
  let writing = opts.sink !== undefined
  let pendingCr = false
  let carried = 0
  let pieces: Buffer[] = []
  let piecesBytes = 0

  const flush = async () => {
    if (pieces.length === 0) return
    const bytes = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, piecesBytes)
    pieces = []
    piecesBytes = 0
    output.update(bytes)
    outputBytes += bytes.length
    await opts.sink?.(bytes)
  }
  /** Queues output: file bytes (LF-normalised for a CRLF file), or the replacement as written. */
  const emit = async (bytes: Buffer, asWritten = false) => {
    if (bytes.length === 0) return
    const out = opts.crlf && !asWritten ? lfToCrlf(bytes) : bytes
    pieces.push(out)
    piecesBytes += out.length
    // Many sites with a long new_string must not pile up: what is held stays about a chunk.
    if (piecesBytes >= opts.chunkBytes) await flush()
  }

  for (let position = 0; ; ) {
    opts.signal.throwIfAborted()
    const start: number = carried + (pendingCr ? 1 : 0)
    if (pendingCr) buffer[carried] = CR
    const { bytesRead }: { bytesRead: number } = await opts.handle.read(
      buffer,
      start,
      opts.chunkBytes,
      position,
    )
    position += bytesRead
    const last: boolean = bytesRead === 0
    input.update(buffer.subarray(start, start + bytesRead))
    let end = start + bytesRead
    if (opts.crlf) {
      // A CR ending a read may pair with the LF that starts the next one: it waits for it.
      pendingCr = !last && end > carried && buffer[end - 1] === CR
      end = crlfToLfInPlace(buffer, carried, pendingCr ? end - 1 : end)
    }
    normalisedBytes += end - carried
    const text = buffer.subarray(0, end)
    let pos = 0
    for (let at = text.indexOf(needle, pos); at !== -1; at = text.indexOf(needle, pos)) {
      found++
      if (writing && !opts.replaceAll && found > 1) writing = false
      if (writing) {
        await emit(text.subarray(pos, at))
        await emit(replacement, true)
      }
      pos = at + needle.length
    }
    // A site may start in the last `needle.length − 1` bytes and end in the next read: they wait.
    const keep = last ? end : Math.max(pos, end - (needle.length - 1))
    if (writing) await emit(text.subarray(pos, keep))
    await flush() // before the buffer is reused
    buffer.copyWithin(0, keep, end)
    carried = end - keep
    if (last) break
  }
  return {
    found,
    inputHash: input.digest('hex'),
    outputHash: output.digest('hex'),
    outputBytes,
    normalisedBytes,
  }
}

/** Whether the first line ending of the open file is CRLF (`usesCrlf` on its bytes), reading up to it. */
export async function startsWithCrlf(handle: FileHandle, chunkBytes: number): Promise<boolean> {
  const buffer = Buffer.allocUnsafe(chunkBytes)
  let previous = -1
  for (let position = 0; ; ) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position)
    if (bytesRead === 0) return false
    const lf = buffer.subarray(0, bytesRead).indexOf(LF)
    if (lf !== -1) return position + lf > 0 && (lf > 0 ? buffer[lf - 1] : previous) === CR
    previous = buffer[bytesRead - 1]
    position += bytesRead
  }
}

/** `toLf` on `bytes[from, to)` in place (every CRLF becomes LF); returns the region's new end. */
function crlfToLfInPlace(bytes: Buffer, from: number, to: number): number {
  let write = from
  let read = from
  for (let at = bytes.indexOf(CRLF, read); at !== -1 && at + 1 < to; at = bytes.indexOf(CRLF, read)) {
    write += bytes.copy(bytes, write, read, at)
    read = at + 1 // keep the LF
  }
  write += bytes.copy(bytes, write, read, to)
  return write
}

/** `toCrlf` on bytes: every LF becomes CRLF. */
function lfToCrlf(bytes: Buffer): Buffer {
  let at = bytes.indexOf(LF)
  if (at === -1) return bytes
  const parts: Buffer[] = []
  let from = 0
  for (; at !== -1; at = bytes.indexOf(LF, from)) {
    parts.push(bytes.subarray(from, at), CRLF)
    from = at + 1
  }
  parts.push(bytes.subarray(from))
  return Buffer.concat(parts)
}
