// Crash-safe writes (R15): the bytes go to `.<name>.<pid>.<rand>.tmp` beside the target, then a
// rename replaces the target in one step, so a reader sees the old file or the new one, never half.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

export interface AtomicWriteOptions {
  /** Called after the temp file is complete and before the rename (a fault-injection seam for tests). */
  afterTempWrite?: (tempPath: string) => void
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
  mkdirSync(dirname(target), { recursive: true })
  const temp = tempPathFor(target)
  try {
    writeFileSync(temp, data)
    options.afterTempWrite?.(temp)
    renameSync(temp, target)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
