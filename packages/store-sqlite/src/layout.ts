// The on-disk layout (SL-27) and its version (SL-29). One row per session (id, header JSON) and one
// row per event, keyed (session_id, seq) so a session's log is one ordered index range. The layout
// version lives in `PRAGMA user_version`; a fresh file gets the tables and the version in one
// transaction, so a file with our tables and version 0 cannot exist.
import type { DatabaseSync } from 'node:sqlite'
import { SUMMARY_EVENT_TYPES } from '@tack/session'
import { SqliteStoreError } from './errors.ts'
import { LEASE_TABLE } from './lease.ts'

/** The layout this build reads and writes. There are no migrations in v1. */
export const SQLITE_LAYOUT_VERSION = 1

const SCHEMA = `
CREATE TABLE sessions (
  id     TEXT NOT NULL PRIMARY KEY,
  header TEXT NOT NULL                 -- the SessionHeader, JSON
) STRICT;
CREATE TABLE events (
  session_id TEXT    NOT NULL REFERENCES sessions (id),
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  type       TEXT    NOT NULL,
  time       TEXT    NOT NULL,
  data       TEXT    NOT NULL,         -- the payload, JSON
  op         TEXT,                     -- the SurfaceOp, JSON; NULL on log-only events
  PRIMARY KEY (session_id, seq)
) STRICT;
`

/**
 * The few event types a session summary reads (`SUMMARY_EVENT_TYPES`), as an SQL list. A query uses
 * the summary index only when its WHERE clause repeats this predicate word for word.
 */
export const SUMMARY_TYPES_SQL = `type IN (${SUMMARY_EVENT_TYPES.map((t) => `'${t}'`).join(', ')})`

/**
 * A partial index over the summary's events, so `list` reads a handful of rows per session instead of
 * the log (issue 10 item 1). It is an addition, not a layout change: the layout version stays 1, older
 * builds read and write the file as before (SQLite maintains the index on their inserts too), and a
 * file made before it gets it at the next open, in the same transaction as the layout check.
 */
const SUMMARY_INDEX = `CREATE INDEX IF NOT EXISTS events_summary ON events (session_id, type, seq) WHERE ${SUMMARY_TYPES_SQL};`

export interface LayoutInfo {
  /** `PRAGMA user_version`. */
  readonly version: number
  /** Tables, indexes, views and triggers that are not SQLite's own. */
  readonly objects: number
}

export function readLayout(db: DatabaseSync): LayoutInfo {
  const { user_version } = db.prepare('PRAGMA user_version').get() as { user_version: number }
  const { n } = db
    .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .get() as { n: number }
  return { version: user_version, objects: n }
}

/** Throws `STORE_LAYOUT_MISMATCH` unless the file is ours (version 1) or blank (version 0, no objects). */
export function assertLayout(info: LayoutInfo, path: string): void {
  if (info.version === SQLITE_LAYOUT_VERSION) return
  if (info.version === 0 && info.objects === 0) return
  const what =
    info.version === 0
      ? `holds ${info.objects} schema objects but no tack layout version (not a tack session store)`
      : `has layout version ${info.version}; this build reads only version ${SQLITE_LAYOUT_VERSION}`
  throw new SqliteStoreError('STORE_LAYOUT_MISMATCH', `${path} ${what}; the file was left untouched`, {
    path,
  })
}

/**
 * Inside one `BEGIN IMMEDIATE` transaction (so two processes opening a fresh file cannot both create
 * it): re-checks the version, and on a blank file creates the tables and stamps the version.
 */
export function ensureLayout(db: DatabaseSync, path: string): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    const info = readLayout(db)
    assertLayout(info, path)
    if (info.version === 0) {
      db.exec(SCHEMA)
      db.exec(`PRAGMA user_version = ${SQLITE_LAYOUT_VERSION}`)
    }
    // Writer leases came after layout 1 shipped. The table is additive (a build without it ignores
    // it), so it is created where missing instead of bumping the layout version, which would refuse
    // every existing file (no migrations in v1; docs/decisions/0017-writer-lease.md).
    db.exec(LEASE_TABLE)
    db.exec(SUMMARY_INDEX)
    db.exec('COMMIT')
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}
