// The SessionStore on PostgreSQL (95-fleet.md F1). Many processes on many machines share one database:
// an append is ONE statement that bumps the session's `next_seq` only when it still equals the batch's
// first seq and inserts the batch in the same statement, so a raced append stores nothing and fails
// SEQ_CONFLICT, without a lock held across round trips. Operations that must read before they write
// (crash recovery, fork, remove, the lease) lock the session's row for their transaction.
import { deepFreeze, type ConfigInput } from '@tack/kernel'
import {
  cutPrompt,
  type Clock,
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
import { currentIdentity, type WriterIdentity } from '@tack/store-sqlite/lease'
import type pg from 'pg'
import { PostgresStoreConfig, redactUrl } from './config.ts'
import { connectionPassword, openPool } from './connect.ts'
import { PostgresStoreError } from './errors.ts'
import { explainPostgresFailure } from './failures.ts'
import { describeHolder, heldByOther, LEASE_COLUMNS, type LeaseRow } from './lease.ts'
import { skippedPasswordFile } from './password.ts'
import { ensureSchema, readSchemaVersion } from './schema.ts'
import { jsonCopy, parseStored, toRows } from './rows.ts'
import { SQL } from './statements.ts'

export interface PostgresStoreOptions {
  /** Stamps `time` on the events crash recovery appends; default the system clock. */
  clock?: Clock
  /** Where PGPASSWORD, PGPASSFILE, PGUSER, … are read; default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/** What `tack doctor` reports about the database. */
export interface PostgresStoreStatus {
  /** The URL with its password redacted. */
  readonly url: string
  readonly serverVersion: string
  readonly schemaVersion: number
  readonly sessions: number
}

type Queryable = pg.Pool | pg.PoolClient
type EventRow = [seq: number, type: string, time: string, data: string, op: string | null]

export class PostgresSessionStore implements SessionStore {
  /** The database URL with its password redacted: the only form errors and output ever show. */
  readonly url: string
  readonly config: PostgresStoreConfig
  /** The schema version the database had before this store opened it (0: created now). */
  readonly schemaFound: number
  #pool: pg.Pool | undefined
  readonly #clock: Clock
  readonly #self: WriterIdentity = currentIdentity()
  /** Refreshes this store's leases while it holds any (unref'd: it never keeps tack alive). */
  #heartbeat: ReturnType<typeof setInterval> | undefined

  /**
   * Validates `config` (throwing `ConfigError` naming the field), connects, and creates or migrates the
   * schema; a database that cannot be reached, refuses the password or holds a newer schema fails
   * with a one-line `PostgresStoreError`.
   */
  static async open(
    config: ConfigInput<typeof PostgresStoreConfig>,
    opts: PostgresStoreOptions = {},
  ): Promise<PostgresSessionStore> {
    const valid = PostgresStoreConfig.parse(config)
    const where = redactUrl(valid.url)
    const pool = openPool(valid, opts.env)
    try {
      const client = await pool.connect()
      let found: number
      try {
        found = await ensureSchema(client)
      } finally {
        client.release()
      }
      return new PostgresSessionStore(pool, where, valid, found, opts.clock ?? systemClock)
    } catch (error) {
      await pool.end().catch(() => {})
      const explained = prefixed(explainPostgresFailure(error, where, 'opening the session store'), where)
      throw withPasswordFileNote(explained, valid.url, opts.env)
    }
  }

  private constructor(pool: pg.Pool, url: string, config: PostgresStoreConfig, found: number, clock: Clock) {
    this.#pool = pool
    this.url = url
    this.config = config
    this.schemaFound = found
    this.#clock = clock
  }

  async create(header: SessionHeader, access: SessionAccess = {}): Promise<void> {
    const pool = this.#open()
    const copy = jsonCopy(header, 'header') as SessionHeader
    if (typeof copy?.id !== 'string' || copy.id === '')
      throw new TypeError('session header needs a non-empty id')
    refuseNul(copy.id, 'session id')
    const insert = async (db: Queryable) => {
      const r = await db.query(SQL.insertSession, [copy.id, JSON.stringify(copy), 0])
      if (r.rowCount === 0) throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
    }
    if (!access.writer) return this.#run('creating a session', () => insert(pool))
    await this.#transaction('creating a session', async (c) => {
      await insert(c)
      await this.#takeLease(c, copy.id)
    })
  }

  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    const pool = this.#open()
    if (id.includes(NUL)) throw notFound(id)
    if (events.length === 0) {
      await this.#run(`appending to session ${id}`, () => this.#count(pool, id))
      return
    }
    const first = events[0]?.seq
    for (let i = 0; i < events.length; i++) {
      const seq = events[i]?.seq
      if (typeof first !== 'number' || seq !== first + i)
        throw new SessionEventError(
          'SEQ_CONFLICT',
          `session ${id}: batch event ${i} has seq ${String(seq)}, expected ${typeof first === 'number' ? first + i : 'a number'}`,
        )
    }
    const rows = toRows(events)
    await this.#run(`appending to session ${id}`, async () => {
      // Named: each connection parses and plans the append once (P12: it is the hot statement).
      const r = await pool.query({
        name: 'tack-append',
        text: SQL.append,
        values: [id, first, events.length, ...rows],
      })
      if (r.rowCount === events.length) return
      // Nothing was stored (one statement): say why.
      const next = await this.#count(pool, id)
      throw new SessionEventError(
        'SEQ_CONFLICT',
        `session ${id}: batch event 0 has seq ${String(first)}, expected ${next}`,
      )
    })
  }

  async load(
    id: string,
    access: SessionAccess = {},
  ): Promise<{ header: SessionHeader; events: readonly SessionEvent[] }> {
    const pool = this.#open()
    if (id.includes(NUL)) throw notFound(id)
    const doing = `loading session ${id}`
    const row = await this.#run(doing, () => pool.query<{ header: string }>(SQL.header, [id]))
    if (row.rows.length === 0) throw notFound(id)
    const header = deepFreeze(
      parseStored(row.rows[0]?.header ?? '', this.url, id, 'its header') as SessionHeader,
    )
    // Before touching anything: a format we cannot read is refused, not "recovered" (SL-21).
    validateSessionHeader(header)
    let events = await this.#run(doing, () => this.#readEvents(pool, id))
    // A reader leaves a turn alone while its writer lives (9.5): it is running, not interrupted.
    if (
      !access.writer &&
      (recoverLog(events, this.#clock).length === 0 ||
        (await this.#run(doing, () => this.#heldByOther(pool, id))))
    )
      return { header, events: Object.freeze(events) }
    let tail: SessionEvent[] = []
    // Close the open turn durably in one transaction (SL-25), with the session's row locked and the
    // lease taken or checked there, so a writer starting elsewhere cannot slip in between. Another
    // process may have appended since the read; then recovery is worked out on what is stored now.
    await this.#transaction(doing, async (c) => {
      const count = await this.#count(c, id, true)
      if (access.writer) await this.#takeLease(c, id)
      else if (await this.#heldByOther(c, id)) return
      else await c.query(SQL.dropLease, [id]) // a dead writer's lease
      if (count !== events.length) events = await this.#readEvents(c, id)
      tail = recoverLog(events, this.#clock)
      if (tail.length > 0) {
        const r = await c.query(SQL.append, [id, count, tail.length, ...toRows(tail)])
        if (r.rowCount !== tail.length)
          throw new Error(`session ${id}: recovery stored ${r.rowCount} of ${tail.length} events`)
      }
    })
    if (tail.length > 0) events = events.concat(tail)
    return { header, events: Object.freeze(events) }
  }

  async list(): Promise<readonly SessionSummary[]> {
    const pool = this.#open()
    const r = await this.#run('listing sessions', () =>
      pool.query<{
        id: string
        header: string
        count: number
        lastTime: string | null
        turns: number
        firstPrompt: string | null
        model: string | null
      }>(SQL.summaries),
    )
    const out = r.rows.map((row): SessionSummary => {
      const header = parseStored(row.header, this.url, row.id, 'its header') as SessionHeader
      return {
        id: row.id,
        createdAt: header.createdAt,
        cwd: header.cwd,
        ...(header.parentSession !== undefined ? { parentSession: header.parentSession } : {}),
        ...(header.seedLength !== undefined ? { seedLength: header.seedLength } : {}),
        eventCount: row.count,
        ...(row.lastTime !== null ? { lastTime: row.lastTime } : {}),
        turns: row.turns,
        ...(row.firstPrompt !== null ? { firstPrompt: cutPrompt(row.firstPrompt) } : {}),
        ...(row.model !== null ? { model: row.model } : {}),
      }
    })
    // In JS, not SQL: code-unit order, the same as the other stores (a database's collation is its own).
    out.sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.id, b.id))
    return out
  }

  async fork(sourceId: string, child: SessionHeader, atSeq: number): Promise<void> {
    this.#open()
    if (sourceId.includes(NUL)) throw notFound(sourceId)
    await this.#transaction(`forking session ${sourceId}`, async (c) => {
      // Shared lock: the source may not grow or vanish while its prefix is copied.
      const count = await this.#count(c, sourceId, 'share')
      const copy = jsonCopy(child, 'child') as SessionHeader
      if (typeof copy?.id !== 'string' || copy.id === '')
        throw new TypeError('child header needs a non-empty id')
      refuseNul(copy.id, 'session id')
      if ((await c.query(SQL.header, [copy.id])).rows.length > 0)
        throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
      if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > count)
        throw new SessionEventError('BAD_FORK_POINT', `fork point ${atSeq} is outside 0..${count}`)
      const rows = await c.query<{ type: string; data: string }>(SQL.boundaries, [sourceId, atSeq])
      // openTurnAt reads only turn and step boundaries, so the filtered rows decide it alone.
      const boundaries = rows.rows.map((r, i) => ({
        type: r.type,
        seq: i,
        time: '',
        data: JSON.parse(r.data),
      }))
      if (openTurnAt(boundaries as SessionEvent[], boundaries.length))
        throw new SessionEventError('BAD_FORK_POINT', `fork point ${atSeq} is inside an open turn`)
      const made = await c.query(SQL.insertSession, [copy.id, JSON.stringify(copy), atSeq])
      if (made.rowCount === 0)
        throw new SessionEventError('SESSION_EXISTS', `session ${copy.id} already exists`)
      await c.query(SQL.copyEvents, [copy.id, sourceId, atSeq])
    })
  }

  async remove(id: string): Promise<void> {
    this.#open()
    if (id.includes(NUL)) throw notFound(id)
    await this.#transaction(`removing session ${id}`, async (c) => {
      await this.#count(c, id, true)
      await this.#refuseIfHeld(c, id)
      // The events and the lease go with the row (ON DELETE CASCADE).
      await c.query(SQL.deleteSession, [id])
    })
  }

  /** Server version, schema version and session count, read live (for `tack doctor` and tests). */
  async status(): Promise<PostgresStoreStatus> {
    const pool = this.#open()
    return this.#run('reading its status', async () => {
      const client = await pool.connect()
      try {
        const server = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")
        const schemaVersion = await readSchemaVersion(client)
        const n = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM tack.sessions')
        return {
          url: this.url,
          serverVersion: server.rows[0]?.v ?? '?',
          schemaVersion,
          sessions: n.rows[0]?.n ?? 0,
        }
      } finally {
        client.release()
      }
    })
  }

  async close(): Promise<void> {
    const pool = this.#pool
    if (!pool) return
    this.#pool = undefined
    clearInterval(this.#heartbeat)
    this.#heartbeat = undefined
    try {
      await pool.query(SQL.releaseLeases, [this.#self.owner])
    } catch {
      // The database is gone: the leases lapse after leaseTimeoutMs without heartbeats.
    }
    await pool.end().catch(() => {})
  }

  #open(): pg.Pool {
    if (!this.#pool) throw new PostgresStoreError('STORE_CLOSED', `the session store ${this.url} is closed`)
    return this.#pool
  }

  /** Runs `body`; a driver or server failure comes out as one explained line naming the database. */
  async #run<T>(doing: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body()
    } catch (error) {
      throw explainPostgresFailure(error, this.url, doing)
    }
  }

  /** Runs `body` in one transaction on one connection: committed when it returns, else rolled back. */
  async #transaction(doing: string, body: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    const pool = this.#open()
    await this.#run(doing, async () => {
      const client = await pool.connect()
      let broken: unknown
      try {
        await client.query('BEGIN')
        await body(client)
        await client.query('COMMIT')
      } catch (error) {
        try {
          await client.query('ROLLBACK')
        } catch (rollback) {
          broken = rollback // the connection is unusable: the pool must not hand it out again
        }
        throw error
      } finally {
        client.release(broken instanceof Error ? broken : undefined)
      }
    })
  }

  /** The number of stored events; `SESSION_NOT_FOUND` when absent. `lock` locks the session's row. */
  async #count(db: Queryable, id: string, lock: boolean | 'share' = false): Promise<number> {
    const sql = lock === 'share' ? SQL.countShare : lock ? SQL.countForUpdate : SQL.count
    const r = await db.query<{ next_seq: number }>(sql, [id])
    const row = r.rows[0]
    if (!row) throw notFound(id)
    return row.next_seq
  }

  async #lease(db: Queryable, id: string): Promise<LeaseRow | undefined> {
    const r = await db.query<LeaseRow>(`SELECT ${LEASE_COLUMNS} FROM tack.writers WHERE session_id = $1`, [
      id,
    ])
    return r.rows[0]
  }

  async #heldByOther(db: Queryable, id: string): Promise<boolean> {
    return heldByOther(await this.#lease(db, id), this.#self, this.config.leaseTimeoutMs)
  }

  async #refuseIfHeld(db: Queryable, id: string): Promise<void> {
    const lease = await this.#lease(db, id)
    if (lease && heldByOther(lease, this.#self, this.config.leaseTimeoutMs)) {
      throw new SessionEventError(
        'SESSION_BUSY',
        `session ${id} is in use: ${describeHolder(lease, this.#self)}; wait for it to end (or stop it) first`,
      )
    }
  }

  /** Inside a transaction holding the session's row: makes this store its writer, unless a live one is. */
  async #takeLease(c: pg.PoolClient, id: string): Promise<void> {
    await this.#refuseIfHeld(c, id)
    const { owner, pid, machine, started } = this.#self
    await c.query(SQL.takeLease, [id, owner, pid, machine, started])
    if (this.#heartbeat) return
    this.#heartbeat = setInterval(
      () => {
        this.#pool?.query(SQL.heartbeat, [owner]).catch(() => {
          // The database is unreachable for a moment: the next beat tries again.
        })
      },
      Math.max(250, Math.floor(this.config.leaseTimeoutMs / 3)),
    )
    this.#heartbeat.unref()
  }

  /** The stored log, deep-frozen, in seq order (the same objects a `Session` then adopts unchanged). */
  async #readEvents(db: Queryable, id: string): Promise<SessionEvent[]> {
    const r = await db.query<EventRow>({
      name: 'tack-events',
      text: SQL.events,
      values: [id],
      rowMode: 'array',
    })
    const events = new Array<SessionEvent>(r.rows.length)
    for (let i = 0; i < r.rows.length; i++) {
      const [seq, type, time, data, op] = r.rows[i] as EventRow
      if (seq !== i)
        throw new SessionEventError(
          'SEQ_CONFLICT',
          `session ${id}: the stored log has seq ${seq} at index ${i}`,
        )
      const payload = parseStored(data, this.url, id, `event ${seq}`)
      const event =
        op === null
          ? { type, seq, time, data: payload }
          : { type, seq, time, data: payload, op: parseStored(op, this.url, id, `event ${seq}`) }
      events[i] = deepFreeze(event) as SessionEvent
    }
    return events
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * PostgreSQL's text holds no NUL character. Payloads are JSON, where it is the escape `\u0000`; an id, an
 * event type or a time is stored as it is, so one holding NUL cannot exist here (a lookup finds nothing)
 * and is refused by name on the way in, rather than as the server's "invalid byte sequence".
 */
const NUL = '\u0000'

function refuseNul(value: string, what: string): void {
  if (value.includes(NUL))
    throw new SessionEventError(
      'NOT_JSON',
      `${what} ${JSON.stringify(value)} holds a NUL character (\\u0000)`,
    )
}

const notFound = (id: string) =>
  new SessionEventError('SESSION_NOT_FOUND', `no session ${JSON.stringify(id)}`)

/** A refused login with no password found says so when a password file was passed over (its mode). */
function withPasswordFileNote(error: unknown, url: string, env: NodeJS.ProcessEnv | undefined): unknown {
  if (!(error instanceof PostgresStoreError) || error.code !== 'STORE_AUTH_FAILED') return error
  const note = connectionPassword(url, env) === undefined ? skippedPasswordFile(env) : undefined
  if (note === undefined) return error
  return new PostgresStoreError(error.code, `${error.message.slice(error.code.length + 2)}; ${note}`, {
    driverError: error.driverError,
  })
}

/** A schema refusal names the database it is about (the others already do). */
function prefixed(error: unknown, where: string): unknown {
  if (error instanceof PostgresStoreError && !error.message.includes(where))
    return new PostgresStoreError(error.code, `${where}: ${error.message.slice(error.code.length + 2)}`, {
      driverError: error.driverError,
    })
  return error
}
