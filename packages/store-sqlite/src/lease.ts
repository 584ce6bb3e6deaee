// Writer leases (issue 9 item 5, docs/decisions/0017-writer-lease.md). The process that appends to a
// session holds a row naming it; a reader in another process recovers (closes) an open turn only when
// that holder is gone, so `tack sessions show` never cuts the turn of a tack that is still running.
//
// Whether a holder is alive: on the same machine (same host name and, on Linux, the same boot and pid
// namespace) the process is looked up by pid, and its start time must match the one recorded, so a pid
// reused after a crash does not keep a dead writer's lease alive. Where that cannot be checked (another
// host sharing the file, no /proc), the holder's heartbeat decides: it refreshes the row every third of
// `leaseTimeoutMs`, and a row older than `leaseTimeoutMs` is abandoned.
import { randomUUID } from 'node:crypto'
import { readFileSync, readlinkSync } from 'node:fs'
import { hostname } from 'node:os'

/** Who holds (or asks for) a lease. */
export interface WriterIdentity {
  /** Unique per store connection, so two stores in one process are told apart. */
  readonly owner: string
  readonly pid: number
  /** Host name, plus boot id and pid namespace on Linux: where a pid means the same process. */
  readonly machine: string
  /** The process's start time as the kernel reports it; '' where it cannot be read. */
  readonly started: string
}

/** A stored lease row. */
export interface LeaseRow extends WriterIdentity {
  readonly session_id: string
  /** ISO time the lease was taken. */
  readonly since: string
  /** Epoch ms of the holder's last heartbeat. */
  readonly heartbeat: number
}

export const LEASE_TABLE = `
CREATE TABLE IF NOT EXISTS writers (
  session_id TEXT    NOT NULL PRIMARY KEY,
  owner      TEXT    NOT NULL,        -- the store connection holding the lease
  pid        INTEGER NOT NULL,
  machine    TEXT    NOT NULL,        -- host (+ boot id and pid namespace on Linux)
  started    TEXT    NOT NULL,        -- the holder process's start time, '' when unknown
  since      TEXT    NOT NULL,        -- when the lease was taken (ISO)
  heartbeat  INTEGER NOT NULL         -- epoch ms of the last refresh
) STRICT;
`

let machineId: string | undefined

/** This machine as far as pids are concerned (memoised: it does not change while we run). */
export function currentMachine(): string {
  if (machineId !== undefined) return machineId
  let id = hostname()
  if (process.platform === 'linux') {
    try {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
      const pidNs = readlinkSync('/proc/self/ns/pid')
      id = `${id}/${boot}/${pidNs}`
    } catch {
      // no /proc: the host name alone, and liveness falls back on heartbeats
    }
  }
  machineId = id
  return id
}

export function currentIdentity(): WriterIdentity {
  return {
    owner: randomUUID(),
    pid: process.pid,
    machine: currentMachine(),
    started: probeProcess(process.pid)?.started ?? '',
  }
}

/**
 * What the OS says about `pid`: undefined when no such process runs (or only its zombie remains),
 * else its start time when readable (Linux), '' otherwise.
 */
export function probeProcess(pid: number): { started: string } | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // The command name (field 2) is in parentheses and may hold spaces or ')': count after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] === 'Z' || fields[0] === 'X') return undefined // a zombie is a dead writer
      return { started: fields[19] ?? '' } // field 22 of proc(5): start time in clock ticks since boot
    } catch {
      // No such process — or /proc hides other users' processes (hidepid): ask kill(0) below.
    }
  }
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined
  }
  return { started: '' }
}

/** Whether `lease` is held by a live writer other than `self`. */
export function heldByOther(
  lease: LeaseRow | undefined,
  self: WriterIdentity,
  now: number,
  timeoutMs: number,
): boolean {
  if (!lease || lease.owner === self.owner) return false
  if (lease.machine === self.machine) {
    const probe = probeProcess(lease.pid)
    if (!probe) return false
    // Same pid, other start time: the writer died and its pid was reused.
    if (lease.started !== '' && probe.started !== '') return probe.started === lease.started
  }
  return now - lease.heartbeat < timeoutMs
}

/** The one-line explanation of a `SESSION_BUSY` refusal. */
export function describeHolder(lease: LeaseRow, self: WriterIdentity): string {
  const where = lease.machine === self.machine ? '' : ` on ${lease.machine.split('/')[0]}`
  return `another tack process (pid ${lease.pid}${where}) has been writing it since ${lease.since}`
}
