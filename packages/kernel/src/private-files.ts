// Files that hold session content — the conversation, what tools read and printed, hook payloads, a
// mod's state — are owner-only whatever the umask: files 0600, folders 0700, like the session store
// (docs/decisions/0145-private-files.md; docs/security.md). Every writer of such a file goes through
// these few functions rather than its own chmod, and each also tightens a file or folder an older tack
// (or a lax umask) left open. Dependency-free (node: only), so low-level packages can share it.
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { makeOwnerOnlyFolder } from './home.ts'

export const PRIVATE_FILE_MODE = 0o600
/** The group and other bits: a private file or folder has none. */
const OPEN_BITS = 0o077

/** `mode` without group and other bits, or undefined when it has none (nothing to tighten). */
const tightened = (mode: number): number | undefined => ((mode & OPEN_BITS) === 0 ? undefined : mode & 0o7700)

/** Removes group and other bits from an open file (the owner's bits stay: an executable stays one). */
function tightenOpenFile(fd: number): void {
  const mode = tightened(fstatSync(fd).mode)
  if (mode !== undefined) fchmodSync(fd, mode)
}

/**
 * Makes `dir` a private folder: creates it and its missing parents owner-only (level by level, see
 * `makeOwnerOnlyFolder`), and removes group and other bits from `dir` itself when it already exists.
 * Only for a folder tack owns (parents it did not create are left as they are). Returns `dir`.
 */
export function privateFolder(dir: string): string {
  makeOwnerOnlyFolder(dir, { what: `the folder ${dir}`, fix: 'check that folder and its permissions' })
  tightenPath(dir)
  return dir
}

/** Creates the missing parents of `path` owner-only; existing ones are left as they are. */
function parentsOf(path: string): void {
  makeOwnerOnlyFolder(dirname(path), {
    what: `the folder of ${path}`,
    fix: 'check that folder and its permissions',
  })
}

/**
 * Writes (or with `append`, appends) `data` to `path` as a private file: created 0600, an existing file
 * tightened before a byte is written. The folder must exist (`privateFolder` makes one tack owns): a
 * path the user named in a missing folder fails with ENOENT rather than growing folders.
 */
export function writePrivateFile(path: string, data: string, opts: { append?: boolean } = {}): void {
  const fd = openSync(path, opts.append ? 'a' : 'w', PRIVATE_FILE_MODE)
  try {
    tightenOpenFile(fd)
    writeFileSync(fd, data)
  } finally {
    closeSync(fd)
  }
}

const tempPath = (path: string) => `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`

/**
 * Replaces `path` with `data` through a new 0600 temporary file and a rename, so a reader never sees a
 * partial file and the result is private whatever the old file's mode. Missing parents are created 0700.
 */
export function replacePrivateFile(path: string, data: string): void {
  parentsOf(path)
  const temp = tempPath(path)
  try {
    // `wx`: a new file, so the mode applies (the umask can only take bits away from 0600).
    writeFileSync(temp, data, { flag: 'wx', mode: PRIVATE_FILE_MODE })
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

/** `replacePrivateFile` without blocking the event loop on the write. */
export async function replacePrivateFileAsync(path: string, data: string): Promise<void> {
  parentsOf(path)
  const temp = tempPath(path)
  try {
    const handle = await open(temp, 'wx', PRIVATE_FILE_MODE)
    try {
      await handle.writeFile(data, 'utf8')
    } finally {
      await handle.close()
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Removes group and other bits from an existing file or folder; a missing one is left missing. */
export function tightenPath(path: string): void {
  const info = statSync(path, { throwIfNoEntry: false })
  if (!info) return
  const mode = tightened(info.mode)
  if (mode !== undefined) chmodSync(path, mode)
}
