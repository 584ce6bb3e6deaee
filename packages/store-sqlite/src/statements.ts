// Every statement the store runs, prepared once per connection and reused (P3: an append or a load
// must not pay for parsing SQL).
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { SUMMARY_PROMPT_READ_CHARS } from '@tack/session'
import { SUMMARY_TYPES_SQL } from './layout.ts'

/** The four events `openTurnAt` reads; a fork point check needs only these rows. */
const STRUCTURE_TYPES = "('turn/start', 'turn/end', 'step/start', 'step/end')"

export interface Statements {
  readonly begin: StatementSync
  readonly commit: StatementSync
  readonly rollback: StatementSync
  /** (id, header) → changes 0 when the id is taken. */
  readonly insertSession: StatementSync
  /** (id) → {header} */
  readonly header: StatementSync
  /** (id) → {last: max seq or null}; no row when the session does not exist. */
  readonly lastSeq: StatementSync
  /** (session_id, seq, type, time, data, op) */
  readonly insertEvent: StatementSync
  /** (id) → [seq, type, time, data, op] rows in seq order (arrays, to spare an object per row). */
  readonly events: StatementSync
  /** (id, before) → {type, data} of turn/step boundaries with seq < before, in seq order. */
  readonly boundaries: StatementSync
  /** (childId, sourceId, before) copies the source's rows with seq < before to the child. */
  readonly copyEvents: StatementSync
  readonly deleteEvents: StatementSync
  readonly deleteSession: StatementSync
  /** () → {id, header, last, lastTime, turns, firstPrompt, model} per session. */
  readonly summaries: StatementSync
  /** (session_id) → the LeaseRow, if any. */
  readonly lease: StatementSync
  /** (session_id, owner, pid, machine, started, since, heartbeat) takes or overwrites the lease. */
  readonly takeLease: StatementSync
  /** (session_id) */
  readonly dropLease: StatementSync
  /** (heartbeat, owner) refreshes every lease of one store connection. */
  readonly heartbeat: StatementSync
  /** (owner) releases every lease of one store connection. */
  readonly releaseLeases: StatementSync
}

// A row whose data is not JSON (a damaged file) must not fail every summary: it reads as NULL here, and
// loading that session names the row (NOT_JSON).
const VALID_DATA = 'CASE WHEN json_valid(data) THEN data END'

export function prepareStatements(db: DatabaseSync): Statements {
  const events = db.prepare('SELECT seq, type, time, data, op FROM events WHERE session_id = ? ORDER BY seq')
  events.setReturnArrays(true)
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    insertSession: db.prepare('INSERT INTO sessions (id, header) VALUES (?, ?) ON CONFLICT (id) DO NOTHING'),
    header: db.prepare('SELECT header FROM sessions WHERE id = ?'),
    lastSeq: db.prepare(
      'SELECT (SELECT max(seq) FROM events WHERE session_id = s.id) AS last FROM sessions AS s WHERE s.id = ?',
    ),
    insertEvent: db.prepare(
      'INSERT INTO events (session_id, seq, type, time, data, op) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    events,
    boundaries: db.prepare(
      `SELECT type, data FROM events WHERE session_id = ? AND seq < ? AND type IN ${STRUCTURE_TYPES} ORDER BY seq`,
    ),
    copyEvents: db.prepare(
      'INSERT INTO events (session_id, seq, type, time, data, op) ' +
        'SELECT ?, seq, type, time, data, op FROM events WHERE session_id = ? AND seq < ? ORDER BY seq',
    ),
    deleteEvents: db.prepare('DELETE FROM events WHERE session_id = ?'),
    deleteSession: db.prepare('DELETE FROM sessions WHERE id = ?'),
    // Seqs are contiguous from 0, so the count is the last seq + 1 and the last time is that row's:
    // two index look-ups per session instead of counting every row.
    // The summary fields (`summarizeLog` in @tack/session) come from the partial summary index: each
    // subquery repeats its predicate so SQLite may use it, and reads only turn, prompt and header rows.
    summaries: db.prepare(
      'SELECT s.id AS id, s.header AS header, e.seq AS last, e.time AS lastTime, ' +
        `(SELECT count(*) FROM events WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} AND type = 'turn/start') AS turns, ` +
        `(SELECT substr(json_extract(${VALID_DATA}, '$.content[0].text'), 1, ${SUMMARY_PROMPT_READ_CHARS}) FROM events ` +
        `WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} AND type = 'user/message' ` +
        `AND json_extract(${VALID_DATA}, '$.content[0].type') = 'text' ORDER BY seq LIMIT 1) AS firstPrompt, ` +
        `(SELECT json_extract(${VALID_DATA}, CASE type WHEN 'request/header' THEN '$.header.config.model' ELSE '$.config.model' END) ` +
        `FROM events INDEXED BY events_summary WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} ` +
        "AND type IN ('request/header', 'request/header-delta') " +
        `AND (type = 'request/header' OR json_extract(${VALID_DATA}, '$.config.model') IS NOT NULL) ` +
        'ORDER BY seq DESC LIMIT 1) AS model ' +
        'FROM sessions AS s LEFT JOIN events AS e ON e.session_id = s.id ' +
        'AND e.seq = (SELECT max(seq) FROM events WHERE session_id = s.id)',
    ),
    lease: db.prepare(
      'SELECT session_id, owner, pid, machine, started, since, heartbeat FROM writers WHERE session_id = ?',
    ),
    takeLease: db.prepare(
      'INSERT INTO writers (session_id, owner, pid, machine, started, since, heartbeat) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, ' +
        'pid = excluded.pid, machine = excluded.machine, started = excluded.started, ' +
        'since = excluded.since, heartbeat = excluded.heartbeat',
    ),
    dropLease: db.prepare('DELETE FROM writers WHERE session_id = ?'),
    heartbeat: db.prepare('UPDATE writers SET heartbeat = ? WHERE owner = ?'),
    releaseLeases: db.prepare('DELETE FROM writers WHERE owner = ?'),
  }
}
