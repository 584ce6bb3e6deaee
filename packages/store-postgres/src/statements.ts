// Every statement the store runs. The hot ones (append, load) are single round trips.
import { SUMMARY_PROMPT_READ_CHARS } from '@tack/session'
import { SUMMARY_TYPES_SQL } from './schema.ts'

/** The four events `openTurnAt` reads; a fork point check needs only these rows. */
const STRUCTURE_TYPES = "('turn/start', 'turn/end', 'step/start', 'step/end')"

/**
 * A stored payload as `json` for the summary. `\u0000` is valid JSON but has no text form in
 * PostgreSQL (`->>` would fail the whole list), so it reads as U+FFFD here; the stored text is untouched.
 */
const PAYLOAD = "replace(data, '\\u0000', '\\ufffd')::json"

export const SQL = {
  insertSession:
    'INSERT INTO tack.sessions (id, header, next_seq) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
  header: 'SELECT header FROM tack.sessions WHERE id = $1',
  count: 'SELECT next_seq FROM tack.sessions WHERE id = $1',
  countForUpdate: 'SELECT next_seq FROM tack.sessions WHERE id = $1 FOR UPDATE',
  countShare: 'SELECT next_seq FROM tack.sessions WHERE id = $1 FOR SHARE',
  /**
   * ($1 id, $2 first seq, $3 batch size, $4..$8 the column arrays): bumps `next_seq` only if it still
   * equals the first seq, and inserts the batch only through that bump, in one statement. A concurrent
   * append to the same session waits on the row and then finds `next_seq` moved: it stores nothing.
   */
  append:
    'WITH bump AS (UPDATE tack.sessions SET next_seq = next_seq + $3::int ' +
    'WHERE id = $1 AND next_seq = $2::int RETURNING id) ' +
    'INSERT INTO tack.events (session_id, seq, type, time, data, op) ' +
    'SELECT bump.id, e.seq, e.type, e.time, e.data, e.op FROM bump CROSS JOIN ' +
    'unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[]) AS e (seq, type, time, data, op)',
  events: 'SELECT seq, type, time, data, op FROM tack.events WHERE session_id = $1 ORDER BY seq',
  boundaries: `SELECT type, data FROM tack.events WHERE session_id = $1 AND seq < $2 AND type IN ${STRUCTURE_TYPES} ORDER BY seq`,
  copyEvents:
    'INSERT INTO tack.events (session_id, seq, type, time, data, op) ' +
    'SELECT $1, seq, type, time, data, op FROM tack.events WHERE session_id = $2 AND seq < $3',
  deleteSession: 'DELETE FROM tack.sessions WHERE id = $1',
  // The summary fields (`summarizeLog` in @tack/session) come from the partial summary index; each
  // subquery repeats its predicate so the planner may use it.
  summaries:
    'SELECT s.id, s.header, s.next_seq AS count, ' +
    '(SELECT time FROM tack.events WHERE session_id = s.id AND seq = s.next_seq - 1) AS "lastTime", ' +
    `(SELECT count(*)::int FROM tack.events WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} AND type = 'turn/start') AS turns, ` +
    `(SELECT substr(p.j -> 'content' -> 0 ->> 'text', 1, ${SUMMARY_PROMPT_READ_CHARS}) ` +
    `FROM tack.events CROSS JOIN LATERAL (SELECT ${PAYLOAD} AS j) AS p ` +
    `WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} AND type = 'user/message' ` +
    `AND p.j -> 'content' -> 0 ->> 'type' = 'text' ORDER BY seq LIMIT 1) AS "firstPrompt", ` +
    "(SELECT CASE type WHEN 'request/header' THEN p.j -> 'header' -> 'config' ->> 'model' " +
    "ELSE p.j -> 'config' ->> 'model' END " +
    `FROM tack.events CROSS JOIN LATERAL (SELECT ${PAYLOAD} AS j) AS p ` +
    `WHERE session_id = s.id AND ${SUMMARY_TYPES_SQL} AND type IN ('request/header', 'request/header-delta') ` +
    "AND (type = 'request/header' OR p.j -> 'config' ->> 'model' IS NOT NULL) " +
    'ORDER BY seq DESC LIMIT 1) AS model ' +
    'FROM tack.sessions AS s',
  takeLease:
    'INSERT INTO tack.writers (session_id, owner, pid, machine, started, since, heartbeat) ' +
    'VALUES ($1, $2, $3, $4, $5, clock_timestamp(), clock_timestamp()) ON CONFLICT (session_id) DO UPDATE ' +
    'SET owner = excluded.owner, pid = excluded.pid, machine = excluded.machine, ' +
    'started = excluded.started, since = excluded.since, heartbeat = excluded.heartbeat',
  dropLease: 'DELETE FROM tack.writers WHERE session_id = $1',
  heartbeat: 'UPDATE tack.writers SET heartbeat = clock_timestamp() WHERE owner = $1',
  releaseLeases: 'DELETE FROM tack.writers WHERE owner = $1',
} as const
