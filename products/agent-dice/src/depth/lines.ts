// Streams a JSON-lines file in fixed chunks and counts accepted records (R17, R18). A line is parsed
// only when it contains `needle`, so a large transcript is counted without holding it in memory.
import { closeSync, openSync, readSync } from 'node:fs'

const CHUNK = 1 << 20

/**
 * Counts lines that contain `needle` and whose JSON `accept` approves; a missing file counts 0.
 * `chunkSize` only exists so tests can force lines across chunk boundaries.
 */
export function countJsonLines(
  path: string,
  needle: string,
  accept: (value: unknown) => boolean,
  chunkSize: number = CHUNK,
): number {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return 0
  }
  const marker = Buffer.from(needle)
  const chunk = Buffer.allocUnsafe(chunkSize)
  let count = 0
  const consider = (line: Buffer) => {
    if (line.length === 0 || line.indexOf(marker) < 0) return
    try {
      if (accept(JSON.parse(line.toString('utf8')))) count++
    } catch {
      // Malformed lines are skipped.
    }
  }
  let carry: Buffer[] = []
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunkSize, null)
      if (read === 0) break
      const data = chunk.subarray(0, read)
      let start = 0
      for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, start)) {
        const piece = data.subarray(start, nl)
        if (carry.length > 0) {
          consider(Buffer.concat([...carry, piece]))
          carry = []
        } else consider(piece)
        start = nl + 1
      }
      // The chunk buffer is reused, so a partial line is copied.
      if (start < read) carry.push(Buffer.from(data.subarray(start)))
    }
    if (carry.length > 0) consider(Buffer.concat(carry))
  } catch {
    // An unreadable file counts what was read so far.
  } finally {
    closeSync(fd)
  }
  return count
}
