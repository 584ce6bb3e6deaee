// Reading a small file a workspace (or anyone but tack) put in place — `.mcp.json`, `.tack/config.yml` —
// without letting the file decide how long tack waits or how much it holds. A FIFO would block a plain
// `readFileSync` forever (deaf to Ctrl-C), `/dev/zero` would fill memory: the file is opened
// non-blocking, checked on the open descriptor (so a swap after a check is no gap), and read only when it
// is a regular file within the bound. Dependency-free (node: only), so any package can share it.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs'

export type BoundedRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly missing: boolean; readonly problem: string }

/**
 * `path`'s UTF-8 text, or why not: `missing` (no such file), or a problem for a person ("is not a regular
 * file", "is larger than N bytes", the system's reason) without the path (the caller names the file).
 */
export function readBoundedText(path: string, maxBytes: number): BoundedRead {
  let fd: number | undefined
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    const info = fstatSync(fd)
    if (!info.isFile()) return { ok: false, missing: false, problem: 'is not a regular file' }
    if (info.size > maxBytes)
      return { ok: false, missing: false, problem: `is larger than ${maxBytes} bytes (${info.size})` }
    return { ok: true, text: readFileSync(fd, 'utf8') }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const missing = code === 'ENOENT' || code === 'ENOTDIR'
    return { ok: false, missing, problem: missing ? 'does not exist' : `cannot be read (${code ?? error})` }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
