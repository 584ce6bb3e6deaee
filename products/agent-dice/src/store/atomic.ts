// Crash-safe writes (R15): the bytes go to `.<name>.<pid>.<rand>.tmp` beside the target, then a
// rename replaces the target in one step, so a reader sees the old file or the new one, never half.
// The dice store's own files are private (0600 in 0700 folders, whatever the umask), as tack's are
// (tack's docs/decisions/0145-private-files.md; agent-dice cannot import tack's helper, being standalone).
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

export interface AtomicWriteOptions {
  /** Called after the temp file is complete and before the rename (a fault-injection seam for tests). */
  afterTempWrite?: (tempPath: string) => void
  /** Owner-only: the file 0600 and missing folders 0700 (the store's state; not a user's config file). */
  private?: boolean
}

/** Creates `dir` owner-only, or removes group and other bits from it when it exists. */
export function privateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const mode = statSync(dir).mode
  if ((mode & 0o077) !== 0) chmodSync(dir, mode & 0o7700)
}

/** The temp file name used for `target`; readers skip names starting with a dot. */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  )
}

/** Writes `data` to `target` atomically, creating the parent folder. */
export function writeFileAtomic(target: string, data: string, options: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(target), { recursive: true, ...(options.private ? { mode: 0o700 } : {}) })
  const temp = tempPathFor(target)
  try {
    // `wx`: a new file, so the mode applies (the umask can only take bits away from 0600).
    writeFileSync(temp, data, options.private ? { flag: 'wx', mode: 0o600 } : {})
    options.afterTempWrite?.(temp)
    renameSync(temp, target)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
