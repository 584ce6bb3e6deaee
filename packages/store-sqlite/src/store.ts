// The SessionStore on node:sqlite (SL-26, SL-27). Every operation runs synchronously inside its
// promise (DatabaseSync), so within one process operations never interleave; across processes each
// write is one `BEGIN IMMEDIATE` transaction, which SQLite serialises (waiting up to busyTimeoutMs).
import type { DatabaseSync } from 'node:sqlite'
import { deepFreeze, type ConfigInput } from '@tack/kernel'
import {
  cutPrompt,
  type Clock,
  checkJson,
  openTurnAt,
  recoverLog,
  type SessionAccess,
  type SessionEvent,
  SessionEventError,
  type SessionHeader,
  type SessionStore,
  type SessionSummary,
  systemClock,
  validateSessionHeader,
} from '@tack/session'
import { resolveStorePath, SqliteStoreConfig } from './config.ts'
import { SqliteStoreError } from './errors.ts'
import { explainSqliteFailure } from './failures.ts'
import { currentIdentity, describeHolder, heldByOther, type LeaseRow, type WriterIdentity } from './lease.ts'
import { openDatabase } from './open.ts'
import { prepareStatements, type Statements } from './statements.ts'

export interface SqliteStoreOptions {
  /** Stamps `time` on the events crash recovery appends; default the system clock. */
  clock?: Clock
  /** Where `$TACK_HOME` is read when the config has no `dataDir`; default `process.env`. */
  env?: NodeJS.ProcessEnv
}

export interface StoreSettings {
  readonly path: string
  readonly journalMode: string
  readonly synchronous: string
  readonly busyTimeoutMs: number
  readonly foreignKeys: boolean
  readonly layoutVersion: number
}

const SYNCHRONOUS_NAMES = ['off', 'normal', 'full', 'extra']

type EventRow = [seq: number, type: string, time: string, data: string, op: string | null]

export class SqliteSessionStore implements SessionStore {
  /** The absolute path of the database file. */
  readonly path: string
  /** The validated configuration the store was opened with. */
  readonly config: SqliteStoreConfig
  #db: DatabaseSync | undefined
  readonly #sql: Statements
  readonly #clock: Clock
  /** This connection as a lease holder. */
  readonly #self: WriterIdentity = currentIdentity()
  /** Refreshes this connection's leases while it holds any (unref'd: it never keeps tack alive). */
  #heartbeat: ReturnType<typeof setInterval> | undefined

  /**
   * Validates `config` (throwing `ConfigError` naming the field and the allowed values), opens or
   * creates the file and checks its layout (SL-28, SL-29).
   */
  static open(
    config: ConfigInput<typeof SqliteStoreConfig> = {},
    opts: SqliteStoreOptions = {},
  ): SqliteSessionStore {
    const valid = SqliteStoreConfig.parse(config)
    const path = resolveStorePath(valid, opts.env)
    return new SqliteSessionStore(openDatabase(path, valid), path, valid, opts.clock ?? systemClock)
  }

  private constructor(db: DatabaseSync, path: string, config: SqliteStoreConfig, clock: Clock) {
    this.#db = db
    this.path = path
    this.config = config
    this.#clock = clock
    this.#sql = prepareStatements(db)
  }

  async create(header: SessionHeader, access: SessionAccess = {}): Promise<void> {
    this.#open()
    const copy = jsonCopy(header, 'header') as SessionHeader
    if (typeof copy?.id !== 'string' || copy.id === '')
      throw new TypeError('session header needs a non-empty id')
    this.#transaction(() => {
      const { changes } = this.#sql.insertSession.run(copy.id, JSON.stringify(copy))
      if (changes === 0) throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
      if (access.writer) this.#takeLease(copy.id)
    })
  }

  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    this.#transaction(() => {
      let next = this.#count(id)
      for (let i = 0; i < events.length; i++, next++) {
        const event = events[i]
        if (event?.seq !== next) {
          throw new SessionEventError(
            'SEQ_CONFLICT',
            `session ${id}: batch event ${i} has seq ${String(event?.seq)}, expected ${next}`,
          )
        }
        this.#insert(id, jsonCopy(event, `/${i}`) as SessionEvent)
      }
    })
  }

  async load(
    id: string,
    access: SessionAccess = {},
  ): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }> {
    this.#open()
    const row = this.#read(() => this.#sql.header.get(id) as { header: string } | undefined)
    if (!row) throw notFound(id)
    const header = deepFreeze(parseStored(row.header, this.path, id, 'its header') as SessionHeader)
    // Before touching anything: a format we cannot read is refused, not "recovered" (SL-21).
    validateSessionHeader(header)
    let events = this.#read(() => this.#readEvents(id))
    // A reader leaves a turn alone while its writer lives (9.5): it is running, not interrupted.
    if (
      !access.writer &&
      (recoverLog(events, this.#clock).length === 0 || this.#read(() => this.#heldByOther(id)))
    )
      return { header, events: Object.freeze(events) }
    let tail: SessionEvent[] = []
    // Close the open turn durably, in one transaction (SL-25), after taking or checking the lease
    // there, so a writer starting in another process cannot slip in between. Another process may
    // also have appended since the read; then recovery is worked out again on what is stored now.
    this.#transaction(() => {
      if (access.writer) this.#takeLease(id)
      else if (this.#heldByOther(id)) return
      else this.#sql.dropLease.run(id) // a dead writer's lease
      if (this.#count(id) !== events.length) events = this.#readEvents(id)
      tail = recoverLog(events, this.#clock)
      for (const event of tail) this.#insert(id, event)
    })
    if (tail.length > 0) events = events.concat(tail)
    return { header, events: Object.freeze(events) }
  }

  async list(): Promise<readonly SessionSummary[]> {
    this.#open()
    const rows = this.#read(() => this.#sql.summaries.all()) as Array<{
      id: string
      header: string
      last: number | null
      lastTime: string | null
      turns: number
      firstPrompt: string | null
      model: string | null
    }>
    const out = rows.map((row): SessionSummary => {
      const header = parseStored(row.header, this.path, row.id, 'its header') as SessionHeader
      return {
        id: row.id,
        createdAt: header.createdAt,
        cwd: header.cwd,
        ...(header.parentSession !== undefined ? { parentSession: header.parentSession } : {}),
        ...(header.seedLength !== undefined ? { seedLength: header.seedLength } : {}),
        eventCount: row.last === null ? 0 : row.last + 1,
        ...(row.lastTime !== null ? { lastTime: row.lastTime } : {}),
        turns: row.turns,
        ...(row.firstPrompt !== null ? { firstPrompt: cutPrompt(row.firstPrompt) } : {}),
        ...(row.model !== null ? { model: row.model } : {}),
      }
    })
    // In JS, not SQL: code-unit order, the same as MemorySessionStore (SQLite compares UTF-8 bytes).
    out.sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id))
    return out
  }

  async fork(sourceId: string, child: SessionHeader, atSeq: number): Promise<void> {
    this.#transaction(() => {
      const count = this.#count(sourceId)
      const copy = jsonCopy(child, 'child') as SessionHeader
      if (typeof copy?.id !== 'string' || copy.id === '')
        throw new TypeError('child header needs a non-empty id')
      if (this.#sql.header.get(copy.id))
        throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
      if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > count)
        throw new SessionEventError('BAD_FORK_POINT', `fork point ${atSeq} is outside 0..${count}`)
      if (this.#openTurnAt(sourceId, atSeq))
        throw new SessionEventError('BAD_FORK_POINT', `fork point ${atSeq} is inside an open turn`)
      this.#sql.insertSession.run(copy.id, JSON.stringify(copy))
      this.#sql.copyEvents.run(copy.id, sourceId, atSeq)
    })
  }

  async remove(id: string): Promise<void> {
    this.#transaction(() => {
      this.#refuseIfHeld(id)
      this.#sql.dropLease.run(id)
      this.#sql.deleteEvents.run(id)
      if (this.#sql.deleteSession.run(id).changes === 0) throw notFound(id)
    })
  }

  /** What the connection actually runs with, read live from SQLite (for `tack doctor` and tests). */
  settings(): StoreSettings {
    const db = this.#open()
    const pragma = (name: string, column = name) =>
      (db.prepare(`PRAGMA ${name}`).get() as Record<string, number | string>)[column]
    return {
      path: this.path,
      journalMode: String(pragma('journal_mode')),
      synchronous: SYNCHRONOUS_NAMES[Number(pragma('synchronous'))] ?? String(pragma('synchronous')),
      busyTimeoutMs: Number(pragma('busy_timeout', 'timeout')),
      foreignKeys: pragma('foreign_keys') === 1,
      layoutVersion: Number(pragma('user_version')),
    }
  }

  async close(): Promise<void> {
    const db = this.#db
    clearInterval(this.#heartbeat)
    this.#heartbeat = undefined
    if (db?.isOpen) {
      try {
        this.#sql.releaseLeases.run(this.#self.owner)
      } catch {
        // A full disk or a read-only file: the lease stays, and dies with this process (its pid).
      }
    }
    this.#db = undefined
    // Closing finalises the prepared statements; in WAL mode the last connection also checkpoints.
    if (db?.isOpen) db.close()
  }

  #open(): DatabaseSync {
    if (!this.#db) throw new SqliteStoreError('STORE_CLOSED', `the session store ${this.path} is closed`)
    return this.#db
  }

  /**
   * Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it
   * (or the commit) throws, so a failed write leaves nothing behind (SL-27).
   */
  #transaction(body: () => void): void {
    const db = this.#open()
    try {
      this.#sql.begin.run()
    } catch (error) {
      throw this.#explain(error, 'writing to it')
    }
    try {
      body()
      this.#sql.commit.run()
    } catch (error) {
      // SQLite may already have rolled back (e.g. after an I/O error); a second ROLLBACK would throw.
      try {
        if (db.isTransaction) this.#sql.rollback.run()
      } catch {
        // The rollback failing too (a failing disk): SQLite rolls back from its journal on next open.
      }
      throw this.#explain(error, 'writing to it')
    }
  }

  /** Runs a read; SQLite's failures come out explained (damaged file, locked, I/O). */
  #read<T>(body: () => T): T {
    try {
      return body()
    } catch (error) {
      throw this.#explain(error, 'reading it')
    }
  }

  #explain(error: unknown, doing: string): unknown {
    return explainSqliteFailure(error, this.path, doing, this.config.busyTimeoutMs)
  }

  #heldByOther(id: string): boolean {
    const lease = this.#sql.lease.get(id) as LeaseRow | undefined
    return heldByOther(lease, this.#self, Date.now(), this.config.leaseTimeoutMs)
  }

  #refuseIfHeld(id: string): void {
    const lease = this.#sql.lease.get(id) as LeaseRow | undefined
    if (lease && heldByOther(lease, this.#self, Date.now(), this.config.leaseTimeoutMs)) {
      throw new SessionEventError(
        'SESSION_BUSY',
        `session ${id} is in use: ${describeHolder(lease, this.#self)}; wait for it to end (or stop it) first`,
      )
    }
  }

  /** Inside a transaction: makes this connection the session's writer, unless a live one holds it. */
  #takeLease(id: string): void {
    this.#refuseIfHeld(id)
    const now = Date.now()
    const { owner, pid, machine, started } = this.#self
    this.#sql.takeLease.run(id, owner, pid, machine, started, new Date(now).toISOString(), now)
    if (this.#heartbeat) return
    this.#heartbeat = setInterval(
      () => {
        try {
          if (this.#db?.isOpen) this.#sql.heartbeat.run(Date.now(), owner)
        } catch {
          // Busy or failing file: the next beat tries again; a lease on this machine is judged by pid.
        }
      },
      Math.max(250, Math.floor(this.config.leaseTimeoutMs / 3)),
    )
    this.#heartbeat.unref()
  }

  /** The number of stored events (seqs are contiguous from 0); `SESSION_NOT_FOUND` when absent. */
  #count(id: string): number {
    const row = this.#sql.lastSeq.get(id) as { last: number | null } | undefined
    if (!row) throw notFound(id)
    return row.last === null ? 0 : row.last + 1
  }

  #insert(id: string, event: SessionEvent): void {
    if (typeof event.type !== 'string')
      throw new SessionEventError('UNKNOWN_EVENT', `seq ${event.seq}: the event type is not a string`)
    if (typeof event.time !== 'string')
      throw new TypeError(`seq ${event.seq}: the event time is not a string`)
    this.#sql.insertEvent.run(
      id,
      event.seq,
      event.type,
      event.time,
      JSON.stringify(event.data),
      event.op === undefined ? null : JSON.stringify(event.op),
    )
  }

  /** The stored log, deep-frozen, in seq order (the same objects a `Session` then adopts unchanged). */
  #readEvents(id: string): SessionEvent[] {
    const rows = this.#sql.events.all(id) as unknown as EventRow[]
    const events = new Array<SessionEvent>(rows.length)
    for (let i = 0; i < rows.length; i++) {
      const [seq, type, time, data, op] = rows[i]
      if (seq !== i) {
        throw new SessionEventError(
          'SEQ_CONFLICT',
          `session ${id}: the stored log has seq ${seq} at index ${i}`,
        )
      }
      const event =
        op === null
          ? { type, seq, time, data: parseStored(data, this.path, id, `event ${seq}`) }
          : {
              type,
              seq,
              time,
              data: parseStored(data, this.path, id, `event ${seq}`),
              op: parseStored(op, this.path, id, `event ${seq}`),
            }
      events[i] = deepFreeze(event) as SessionEvent
    }
    return events
  }

  #openTurnAt(id: string, atSeq: number): boolean {
    const rows = this.#sql.boundaries.all(id, atSeq) as Array<{ type: string; data: string }>
    // openTurnAt reads only turn and step boundaries, so the filtered rows decide it alone.
    const boundaries = rows.map((r, i) => ({ type: r.type, seq: i, time: '', data: JSON.parse(r.data) }))
    return openTurnAt(boundaries as SessionEvent[], boundaries.length)
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const notFound = (id: string) =>
  new SessionEventError('SESSION_NOT_FOUND', `no session ${JSON.stringify(id)}`)

/** A canonical JSON copy (SL-2), or `NOT_JSON` naming the offending path. */
function jsonCopy(value: unknown, what: string): unknown {
  const r = checkJson(value)
  if (!r.ok)
    throw new SessionEventError('NOT_JSON', `${what}${r.path} is ${r.reason}`, { path: `${what}${r.path}` })
  return r.value
}

/** A stored JSON value; `NOT_JSON` naming the file, the session, the value and what to do. */
function parseStored(text: string, path: string, id: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SessionEventError(
      'NOT_JSON',
      `${path}: session ${id}, ${what}, is not valid JSON (the file was changed outside tack, or ` +
        `damaged); tack left it unchanged. Restore the file from a backup, or delete that session ` +
        `with \`tack sessions rm ${id}\``,
      { cause: error },
    )
  }
}
