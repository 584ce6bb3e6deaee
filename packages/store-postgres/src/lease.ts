// Writer leases on PostgreSQL (docs/decisions/0017-writer-lease.md, 95-fleet.md F1). The process that
// appends to a session holds a row in tack.writers naming it; a reader elsewhere recovers (closes) an
// open turn only when that holder is gone. On the holder's own machine the process is looked up by pid
// (as the SQLite store does, with the same identity); elsewhere its heartbeat decides, aged by the
// database's clock, so machines whose clocks disagree still agree on when a lease lapsed.
import { probeProcess, type WriterIdentity } from '@tack/store-sqlite/lease'

/** A lease row as read back, with its age measured by the server. */
export interface LeaseRow {
  readonly owner: string
  readonly pid: number
  readonly machine: string
  readonly started: string
  /** ISO time the lease was taken. */
  readonly since: string
  /** Milliseconds since the holder's last heartbeat, by the database's clock. */
  readonly age_ms: number
}

export const LEASE_COLUMNS =
  'owner, pid, machine, started, ' +
  `to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS since, ` +
  '(extract(epoch FROM clock_timestamp() - heartbeat) * 1000)::float8 AS age_ms'

/** Whether `lease` is held by a live writer other than `self`. */
export function heldByOther(lease: LeaseRow | undefined, self: WriterIdentity, timeoutMs: number): boolean {
  if (!lease || lease.owner === self.owner) return false
  if (lease.machine === self.machine) {
    const probe = probeProcess(lease.pid)
    if (!probe) return false
    // Same pid, other start time: the writer died and its pid was reused.
    if (lease.started !== '' && probe.started !== '') return probe.started === lease.started
  }
  return lease.age_ms < timeoutMs
}

/** The one-line explanation of a `SESSION_BUSY` refusal. */
export function describeHolder(lease: LeaseRow, self: WriterIdentity): string {
  const where = lease.machine === self.machine ? '' : ` on ${lease.machine.split('/')[0]}`
  return `another tack process (pid ${lease.pid}${where}) has been writing it since ${lease.since}`
}
