// Streams a file's lines (TL-12): memory stays bounded by the chunk size (`streamChunkBytes`) plus the
// kept part of one line, whatever the file's size or its longest line. Lines are cut to `maxLength` as they are read;
// the rest of a long line is only counted.
import type { FileHandle } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { cutLine, type Line } from './text.ts'

/** Streams the lines of an open file from its start; the caller keeps (and closes) the handle. */
export async function* streamLines(
  handle: FileHandle,
  maxLength: number,
  chunkBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<Line> {
  const stream = handle.createReadStream({
    start: 0,
    autoClose: false,
    highWaterMark: chunkBytes,
    ...(signal && { signal }),
  })
  const decoder = new StringDecoder('utf8')
  // The kept head of the current line (at most maxLength + 1 units, so a final CR can be dropped),
  // its full length so far, and whether its last unit was a CR.
  let kept = ''
  let length = 0
  let endsWithCr = false
  let pending = false
  const finish = (): Line => {
    const full = endsWithCr ? length - 1 : length
    const text = kept.length > full ? kept.slice(0, full) : kept
    const line = cutLine(text, maxLength)
    kept = ''
    length = 0
    endsWithCr = false
    pending = false
    return { text: line.text, length: full }
  }
  const take = (piece: string) => {
    if (piece === '') return
    pending = true
    if (kept.length <= maxLength) kept += piece.slice(0, maxLength + 1 - kept.length)
    length += piece.length
    endsWithCr = piece.endsWith('\r')
  }
  try {
    for await (const chunk of stream) {
      const text = decoder.write(chunk as Buffer)
      let start = 0
      for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', start)) {
        take(text.slice(start, lf))
        yield finish()
        start = lf + 1
      }
      take(text.slice(start))
    }
    take(decoder.end())
    if (pending) yield finish()
  } finally {
    stream.destroy()
  }
}
