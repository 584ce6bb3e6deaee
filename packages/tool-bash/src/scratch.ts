// The scratch folder of spill files (issue 12.7): `<scratchRoot>/<session id>/bash-<call id>.log`.
// Spill files are removed with their session (`tack sessions rm`) and, when the bash plugin loads,
// once they are older than `scratchMaxAgeHours`, so `$TACK_HOME/scratch` does not grow forever.
import { readdir, rm, rmdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** One path segment: ids are used as folder and file names, so nothing may climb or nest. */
export function fileSafe(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_')
  return safe === '' || /^\.+$/.test(safe) ? '_' : safe
}

/** The folder holding a session's spill files. */
export function sessionScratchFolder(scratchRoot: string, sessionId: string): string {
  return join(scratchRoot, fileSafe(sessionId))
}

/** Removes a session's spill files (nothing to remove is fine). */
export async function removeSessionScratch(scratchRoot: string, sessionId: string): Promise<void> {
  await rm(sessionScratchFolder(scratchRoot, sessionId), { recursive: true, force: true })
}

/**
 * Removes the spill files last written more than `maxAgeMs` ago, then the session folders this left
 * empty, and empty folders that old (a younger empty one may be about to receive a spill; the spill
 * recreates its folder anyway).
 * Returns how many files went. Files that vanish meanwhile or cannot be removed are skipped.
 */
export async function sweepScratch(scratchRoot: string, maxAgeMs: number, now = Date.now()): Promise<number> {
  const cutoff = now - maxAgeMs
  let removed = 0
  for (const folder of await entries(scratchRoot)) {
    if (!folder.isDirectory()) continue
    const path = join(scratchRoot, folder.name)
    let left = 0
    let gone = 0
    for (const file of await entries(path)) {
      const filePath = join(path, file.name)
      try {
        if (file.isFile() && (await stat(filePath)).mtimeMs < cutoff) {
          await rm(filePath, { force: true })
          gone++
        } else left++
      } catch {
        left++
      }
    }
    removed += gone
    if (left > 0) continue
    try {
      if (gone > 0 || (await stat(path)).mtimeMs < cutoff) await rmdir(path)
    } catch {
      // not empty after all (a spill arrived) or already gone
    }
  }
  return removed
}

async function entries(folder: string) {
  try {
    return await readdir(folder, { withFileTypes: true })
  } catch {
    return []
  }
}
