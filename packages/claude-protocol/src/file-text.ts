// Reading a file a Claude tool_response reports (Read's content, Edit's file after the call, the file a
// Write or Edit replaced), bounded and never blocking.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'

/** Past this a file's text is not copied into a hook payload (`null`, as for a missing file). */
export const MAX_PAYLOAD_FILE_BYTES = 16 * 1024 * 1024

/**
 * A regular file's text, or null: missing, not a regular file, or larger than MAX_PAYLOAD_FILE_BYTES.
 * Opened non-blocking and checked on the open descriptor: a FIFO the model names must not block tack's
 * main thread (a `readFileSync` on one waits for a writer forever, deaf to Ctrl-C and SIGTERM).
 */
export function readTextOrNull(path: string): string | null {
  let fd: number | undefined
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const info = fstatSync(fd)
    if (!info.isFile() || info.size > MAX_PAYLOAD_FILE_BYTES) return null
    return readFileSync(fd, 'utf8')
  } catch {
    return null
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
