// The ledger of sandbox placeholders: one empty file per (placeholder, holding process) in a folder the
// sandbox cannot see (`$TACK_HOME/placeholders`), named `<hash of the path>-<pid>-<start time>` and holding
// the path. A process is identified by its pid *and* its start time (from /proc), so a recycled pid is
// not mistaken for the holder. A placeholder none of whose holders is alive is a leftover of a killed
// tack: `sweepPlaceholders` removes it (if still empty) and its records.
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rmdir, unlink, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface LedgerHold {
  /** The placeholder folder. */
  readonly path: string
  /** The record's file name. */
  readonly file: string
  /** Held by this process. */
  readonly mine: boolean
  /** Its holder is still running. */
  readonly alive: boolean
}

/**
 * Records that this process holds the placeholder `path` (idempotent). A ledger that cannot be written
 * (a read-only `$TACK_HOME`) must not stop the command: the placeholder then works as without a ledger,
 * and only its clean-up after a crash is lost.
 *
 * An existing record is never written again: rewriting truncates it first, and a kill between the
 * truncation and the write left an empty record for a folder that existed — the sweep could not tell
 * which folder it was, dropped the record, and the placeholder stayed in the workspace for good (R1 caught
 * it once in CI). Made with `wx`, a record can only be partial while it is first written, which is
 * before its folder is made.
 */
export async function recordHold(ledger: string, path: string): Promise<void> {
  try {
    await mkdir(ledger, { recursive: true, mode: 0o700 })
    await writeFile(join(ledger, recordName(path, self())), path, { mode: 0o600, flag: 'wx' })
  } catch {
    // EEXIST: already recorded; anything else: see above
  }
}

/** Removes this process's record for `path`, if any. */
export async function forgetHold(ledger: string, path: string): Promise<void> {
  await unlink(join(ledger, recordName(path, self()))).catch(() => {})
}

/** Every record in the ledger (none when it does not exist yet). */
export async function ledgerHolds(ledger: string): Promise<LedgerHold[]> {
  let files: string[]
  try {
    files = await readdir(ledger)
  } catch {
    return []
  }
  const me = self()
  const holds: LedgerHold[] = []
  for (const file of files) {
    const match = /^[0-9a-f]{16}-(\d+)-(\d+)$/.exec(file)
    if (!match) continue
    let path: string
    try {
      path = await readFile(join(ledger, file), 'utf8')
    } catch {
      continue // removed while we looked
    }
    const holder = { pid: Number(match[1]), start: match[2] }
    const mine = holder.pid === me.pid && holder.start === me.start
    holds.push({ path, file, mine, alive: mine || isRunning(holder) })
  }
  return holds
}

/** How many *other* living processes hold `path`. */
export async function otherLivingHolders(ledger: string, path: string): Promise<number> {
  return (await ledgerHolds(ledger)).filter((h) => h.path === path && !h.mine && h.alive).length
}

/**
 * Removes every placeholder whose holders have all died (unless something was put into it: then it is
 * no longer a placeholder, and only its records go), and the records of dead holders. Returns the
 * folders removed. Best effort: a record it cannot act on stays for the next sweep.
 */
export async function sweepPlaceholders(ledger: string): Promise<string[]> {
  const byPath = new Map<string, LedgerHold[]>()
  for (const hold of await ledgerHolds(ledger))
    byPath.set(hold.path, [...(byPath.get(hold.path) ?? []), hold])
  const removed: string[] = []
  for (const [path, holds] of byPath) {
    const dead = holds.filter((h) => !h.alive)
    if (dead.length === 0) continue
    if (dead.length === holds.length) {
      try {
        await rmdir(path)
        removed.push(path)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'ENOTDIR') continue // retry next sweep
      }
    }
    for (const hold of dead) await unlink(join(ledger, hold.file)).catch(() => {})
  }
  return removed
}

interface ProcessId {
  readonly pid: number
  /** Start time in clock ticks since boot (Linux), or `0` where it cannot be read. */
  readonly start: string
}

let me: ProcessId | undefined
function self(): ProcessId {
  me ??= { pid: process.pid, start: startTime(process.pid) ?? '0' }
  return me
}

function recordName(path: string, holder: ProcessId): string {
  const hash = createHash('sha256').update(path).digest('hex').slice(0, 16)
  return `${hash}-${holder.pid}-${holder.start}`
}

/** The process's start time, field 22 of /proc/<pid>/stat; undefined when it is gone (or no /proc). */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // `pid (comm) state …`; comm may contain spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined // dead, not yet reaped
    return fields[19]
  } catch {
    return undefined
  }
}

function isRunning(holder: ProcessId): boolean {
  if (holder.start !== '0') return startTime(holder.pid) === holder.start
  try {
    process.kill(holder.pid, 0) // no /proc: a recycled pid cannot be told apart
    return true
  } catch {
    return false
  }
}
