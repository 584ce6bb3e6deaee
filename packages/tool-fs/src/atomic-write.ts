// Atomic writes: the content goes to a temporary file in the same folder (same file system), is
// flushed to disk, gets the mode of the file it replaces, and is renamed over the target — so a
// reader (or a crash) sees either the old file or the new one, never a partial write.
import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Writes `data` to `path` atomically; `mode` (permission bits) is preserved when given. */
export async function writeFileAtomic(path: string, data: string, mode?: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.tack-${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', mode ?? 0o666)
  let renamed = false
  try {
    try {
      await handle.writeFile(data, 'utf8')
      // The umask applies to open's mode; chmod sets the preserved bits exactly.
      if (mode !== undefined) await handle.chmod(mode)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, path)
    renamed = true
  } finally {
    if (!renamed) await unlink(temp).catch(() => {})
  }
}
