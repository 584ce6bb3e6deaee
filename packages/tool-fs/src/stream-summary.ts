// What an overwriting `write` changed in a file too big to hold (docs/decisions/0165-streaming-huge-files.md):
// `summariseChange`'s counts (diff.ts) with the old side streamed from disk, `chunkBytes` at a time,
// and the new side (the call's content) in memory. One forward pass hashes the file (read-before-edit),
// counts its newlines and finds the common head; one backward pass finds the common tail, usually
// within its first read. Lines after the last change are counted in the new content, where they are
// the same bytes.
import { createHash } from 'node:crypto'
import type { FileHandle } from 'node:fs/promises'
import type { ChangeSummary } from './diff.ts'

const LF = 10

export interface StreamedSummary {
  readonly summary: ChangeSummary
  /** SHA-256 of the old file, for read-before-edit. */
  readonly inputHash: string
}

/**
 * The counts of replacing the open file (`size` bytes) with `after`, reason `size` (the sides are
 * past `diffMaxChars`). Rejects with the abort reason on abort.
 */
export async function streamedWriteSummary(
  handle: FileHandle,
  size: number,
  after: Buffer,
  chunkBytes: number,
  signal: AbortSignal,
): Promise<StreamedSummary> {
  const buffer = Buffer.allocUnsafe(chunkBytes)
  const hash = createHash('sha256')
  let newlines = 0
  let head = -1 // the first differing byte, once found
  let first = -1 // the old file's first byte
  for (let position = 0; position < size; ) {
    signal.throwIfAborted()
    const { bytesRead } = await handle.read(buffer, 0, Math.min(chunkBytes, size - position), position)
    if (bytesRead === 0) break
    const bytes = buffer.subarray(0, bytesRead)
    hash.update(bytes)
    if (position === 0) first = bytes[0]
    if (head === -1) {
      const same = commonPrefix(bytes, after, position)
      if (same < bytesRead) head = position + same
    }
    newlines += countNewlines(bytes, 0, bytesRead)
    position += bytesRead
  }
  const shorter = Math.min(size, after.length)
  if (head === -1) head = shorter // one side is the other's start
  const { tail, byteBefore, lastByte } = await commonTail(handle, size, after, shorter - head, buffer, signal)

  // `summariseChange`'s line range: from the start of the first changed line (the bytes before it
  // are both sides', so it is found in `after`; at head 0 its `lastIndexOf` looks at the first
  // character too) to the end of the last changed one (the bytes after it are found in `after` too).
  const from = head === 0 ? (first === LF ? 1 : 0) : after.lastIndexOf(LF, head - 1) + 1
  const at = size - tail
  const to = lineEndIn(at, byteBefore, after, after.length - tail, size)
  const newlinesBefore = head === 0 ? from : countNewlines(after, 0, from)
  const newlinesOutside = newlinesBefore + countNewlines(after, after.length - (size - to), after.length)
  const open = from < to && (to === size ? lastByte : LF) !== LF ? 1 : 0
  const afterTo = lineEndIn(
    after.length - tail,
    after[after.length - tail - 1] ?? -1,
    after,
    after.length - tail,
    after.length,
  )
  return {
    inputHash: hash.digest('hex'),
    summary: {
      reason: 'size',
      linesRemoved: from < to ? newlines - newlinesOutside + open : 0,
      linesAdded: countLines(after, from, afterTo),
      bytesBefore: size,
      bytesAfter: after.length,
    },
  }
}

/** Bytes of `bytes` equal to `other` from `offset` on (stops at `other`'s end). */
function commonPrefix(bytes: Buffer, other: Buffer, offset: number): number {
  const room = Math.max(0, Math.min(bytes.length, other.length - offset))
  if (room > 0 && bytes.compare(other, offset, offset + room, 0, room) === 0) return room
  let same = 0
  while (same < room && bytes[same] === other[offset + same]) same++
  return same
}

/**
 * Common trailing bytes of the file and `after`, at most `room`; with the file's byte just before
 * them (-1 at its start) and its last byte.
 */
async function commonTail(
  handle: FileHandle,
  size: number,
  after: Buffer,
  room: number,
  buffer: Buffer,
  signal: AbortSignal,
): Promise<{ tail: number; byteBefore: number; lastByte: number }> {
  let tail = 0
  let lastByte = -1
  while (true) {
    signal.throwIfAborted()
    const step = Math.min(buffer.length, size - tail)
    if (step === 0) return { tail, byteBefore: -1, lastByte }
    const { bytesRead } = await handle.read(buffer, 0, step, size - tail - step)
    const bytes = buffer.subarray(0, bytesRead)
    if (lastByte === -1) lastByte = bytes[bytes.length - 1]
    for (let i = bytes.length - 1; i >= 0; i--) {
      if (tail === room || bytes[i] !== after[after.length - 1 - tail])
        return { tail, byteBefore: bytes[i], lastByte }
      tail++
    }
  }
}

/**
 * `lineEnd` (diff.ts) at `at` of a text whose byte before `at` is `byteBefore` and whose bytes from
 * `at` on are `same[sameFrom…]`: just past the newline ending the line that holds `at`, or `end`.
 */
function lineEndIn(at: number, byteBefore: number, same: Buffer, sameFrom: number, end: number): number {
  if (at > 0 && byteBefore === LF) return at
  const lf = same.indexOf(LF, sameFrom)
  return lf === -1 ? end : at + (lf - sameFrom) + 1
}

function countNewlines(bytes: Buffer, from: number, to: number): number {
  let count = 0
  for (let at = bytes.indexOf(LF, from); at !== -1 && at < to; at = bytes.indexOf(LF, at + 1)) count++
  return count
}

/** `countLines` (diff.ts) on bytes: the lines of `bytes[from, to)`, a last one without a newline included. */
function countLines(bytes: Buffer, from: number, to: number): number {
  if (from >= to) return 0
  return countNewlines(bytes, from, to) + (bytes[to - 1] === LF ? 0 : 1)
}
