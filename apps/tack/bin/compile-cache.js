// Node's module compile cache for the commands that load tack's code (docs/decisions/0325-start-up-steps.md):
// V8's compiled form of every module tack loads is kept on disk, so a start after the first skips most
// of the parse and compile (about a fifth of `tack run`'s time to its first request).
//
// - Where: `<TACK_HOME>/cache/compile` — the person's own folder. Not Node's default (`os.tmpdir()`): a
//   folder every local user can write into would let another user plant compiled code that tack runs.
// - Private like the rest of TACK_HOME (docs/decisions/0145-private-files.md): the folders and files are
//   created under umask 077 — when the cache is enabled (Node makes its folders then) and when it is
//   written, at exit; between the two the person's own umask stands for everything tack writes.
// - Harmless when stale or unusable: Node checks each entry against the source's hash and V8's version
//   and flags and recompiles on a mismatch; an unwritable or broken folder only means no cache. Node's
//   own switches keep working: `NODE_COMPILE_CACHE=dir` (Node enables it before tack does; that folder
//   is used) and `NODE_DISABLE_COMPILE_CACHE=1` (off).
import { mkdirSync, statSync } from 'node:fs'
import { enableCompileCache, flushCompileCache } from 'node:module'
import { join } from 'node:path'
import { resolveTackHome } from 'tack-home'

/** @param {NodeJS.ProcessEnv} env */
export function useCompileCache(env = process.env) {
  let home
  try {
    home = resolveTackHome(env)
  } catch {
    return // no home to keep it in: the run goes on without
  }
  // Only in a home that exists (tack makes it, with its own errors, on the run that needs it), and the two
  // folders made here one level at a time: Node makes a missing cache folder with a recursive mkdir, which
  // never returns on some file systems (TACK_HOME=/proc/x hung every command).
  if (!isFolder(home)) return
  const directory = join(home, 'cache', 'compile')
  const mask = process.umask(0o077)
  try {
    if (!madeOrThere(join(home, 'cache')) || !madeOrThere(directory)) return
    const { status } = enableCompileCache(directory)
    if (status !== 1) return // ENABLED; ALREADY_ENABLED (NODE_COMPILE_CACHE), DISABLED or FAILED: nothing to add
  } finally {
    process.umask(mask)
  }
  process.once('exit', () => {
    process.umask(0o077)
    try {
      flushCompileCache()
    } catch {
      // a cache that cannot be written is no cache; the run's own outcome stands
    }
  })
}

/** @param {string} dir */
function madeOrThere(dir) {
  try {
    mkdirSync(dir, { mode: 0o700 })
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EEXIST' && isFolder(dir)
  }
}

/** Whether `path` is a folder; any failure to tell (no entry, no permission, a file on the way) is no. */
function isFolder(path) {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
