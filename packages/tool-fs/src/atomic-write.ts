// Atomic writes: the content goes to a temporary file in the same folder (same file system), is
// flushed to disk, gets the mode of the file it replaces, and is renamed over the target — so a
// reader (or a crash) sees either the old file or the new one, never a partial write. A streamed
// `edit` writes its temporary file piece by piece (`openAtomic`); a `write` hands its content whole.
import { randomBytes } from 'node:crypto'
import { type FileHandle, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** A temporary file beside a target: `commit` renames it over the target, `discard` removes it. */
export interface AtomicFile {
  write(bytes: Uint8Array): Promise<void>
  /** Flushes, sets the preserved mode and renames over the target. */
  commit(): Promise<void>
  /** Closes and removes the temporary file (after a failure); never throws. */
  discard(): Promise<void>
}

/** Opens the temporary file that will replace `path`; `mode` (permission bits) is preserved when given. */
export async function openAtomic(path: string, mode?: number): Promise<AtomicFile> {
  const temp = join(dirname(path), `.${basename(path)}.tack-${randomBytes(6).toString('hex')}.tmp`)
  const handle: FileHandle = await open(temp, 'wx', mode ?? 0o666)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await handle.close()
  }
  const discard = async () => {
    await close().catch(() => {})
    await unlink(temp).catch(() => {})
  }
  return {
    async write(bytes) {
      let at = 0
      while (at < bytes.length) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten
    },
    async commit() {
      try {
        // The umask applies to open's mode; chmod sets the preserved bits exactly.
        if (mode !== undefined) await handle.chmod(mode)
        await handle.sync()
        await close()
        await rename(temp, path)
      } catch (error) {
        await discard()
        throw error
      }
    },
    discard,
  }
}

/** Writes `data` to `path` atomically; `mode` (permission bits) is preserved when given. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const file = await openAtomic(path, mode)
  try {
    await file.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
  } catch (error) {
    await file.discard()
    throw error
  }
  await file.commit()
}
