// R8, R9: the single-write-in-flight writer. The snapshot is latest-wins (rendered from the current state
// when its write starts), log lines keep their order, failures are swallowed and retried by the next
// change or beat. Claude Code's `$.fs.write` is not atomic, so there each file goes through `<file>.tmp`
// and `mv -f`; tack's is (65-mod-host.md, Additions), so there it is written directly.
// The files tell what a session is doing, so they are owner-only whatever the umask (tack's
// docs/decisions/0145-private-files.md): tack's `$.fs.write` writes 0600; under Claude Code, whose
// `$.fs.write` follows the umask, the temporary file is made 0600 before the rename. The default folder
// is the mod's own and is made 0700 once per open (a configured `outputDir` keeps the mode its owner gave it).
import type { Host$ } from './host-api.ts'
import { type Files, QUEUE_MAX, type Session, snapshotText } from './state.ts'
import { isRecord } from './values.ts'

/** Starts a write unless one is in flight; resolves when nothing is pending or a write failed. */
export function pump($: Host$, s: Session): Promise<void> {
  if (s.running_write !== null) return s.running_write
  if (!pending(s)) return Promise.resolve()
  s.running_write = drain($, s)
  return s.running_write
}

function pending(s: Session): boolean {
  if (s.files === null) return false
  if (s.batchDue && s.queue.length === 0) s.batchDue = false
  return s.dirty || s.batchDue
}

/**
 * Writes until nothing is pending. The in-flight marker is cleared in the same synchronous step that
 * finds nothing left, so a change made at any moment is either seen by this loop or starts the next one.
 */
async function drain($: Host$, s: Session): Promise<void> {
  for (;;) {
    if (!pending(s)) break
    try {
      await writeOnce($, s, s.files as Files)
    } catch {
      break // R9: swallowed; the next change or heartbeat retries
    }
  }
  s.running_write = null
}

async function writeOnce($: Host$, s: Session, files: Files): Promise<void> {
  if (s.batchDue && s.queue.length > 0) {
    const batch = s.queue.splice(0)
    s.batchDue = false
    try {
      await appendLog($, s, files, batch.join(''))
    } catch (error) {
      // The lines go back in order, and wait for the next beat, turn end or session end to fall due
      // again: retrying a large batch on every change would make an unwritable folder cost every event.
      if (s.files === files) s.queue = batch.concat(s.queue).slice(-QUEUE_MAX)
      throw error
    }
  }
  if (s.dirty) {
    s.dirty = false
    try {
      await writeFile($, s, files.snapshot, snapshotText(s))
    } catch (error) {
      if (s.files === files) s.dirty = true
      throw error
    }
  }
}

/** R7: a batch is appended; past the cap the old log becomes `.jsonl.1` and the batch starts a new one. */
async function appendLog($: Host$, s: Session, files: Files, batch: string): Promise<void> {
  let old = ''
  if ((await $.fs.exists(files.log)) === true) old = text(await $.fs.read(files.log, { as: 'text' }))
  if (old.length > 0 && old.length + batch.length > s.limits.logCapChars) {
    await writeFile($, s, files.previousLog, old)
    await writeFile($, s, files.log, batch)
  } else {
    await writeFile($, s, files.log, old + batch)
  }
}

function text(value: unknown): string {
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return new TextDecoder().decode(value)
  if (isRecord(value) && typeof value.text === 'string') return value.text
  throw new Error('unreadable log')
}

async function writeFile($: Host$, s: Session, path: string, body: string): Promise<void> {
  if (s.host === 'tack' || s.direct) {
    await $.fs.write(path, body)
    await ownFolderPrivate($, s)
    return
  }
  const tmp = `${path}.tmp`
  await $.fs.write(tmp, body)
  await ownFolderPrivate($, s)
  try {
    await run($, ['chmod', '600', tmp])
  } catch {
    // no process noun: the rename below fails the same way and the mod writes directly (R8)
  }
  let moved = false
  try {
    moved = await run($, ['mv', '-f', tmp, path])
  } catch {
    moved = false
  }
  if (moved) return
  // R8: a rename that fails once (no process noun, a sandbox) means direct writes from now on.
  s.direct = true
  await $.fs.write(path, body)
}

/** Runs `argv` through the host; true when it exited 0. */
async function run($: Host$, argv: string[]): Promise<boolean> {
  const r = await $.process.run(argv)
  return isRecord(r) && r.exitCode === 0
}

/** Once per open, after the first write made it exist: the default folder loses group and other bits. */
async function ownFolderPrivate($: Host$, s: Session): Promise<void> {
  const folder = s.files?.ownFolder
  if (s.privateDone || folder == null) return
  s.privateDone = true
  try {
    await run($, ['chmod', '700', folder])
  } catch {
    // R9: a host without the process noun keeps the folder as it is; the files are still written.
  }
}
