// The tables in the database (95-fleet.md F1), created and migrated by tack. Everything lives in the
// schema `tack` (pg-boss keeps its own), one row per session and one per event keyed (session_id, seq),
// so a session's log is one index range and sessions partition by id. The version row says which
// migrations ran; a tack meeting a newer version refuses to touch the database. Event payloads are
// stored as text, byte for byte what tack wrote (jsonb would reorder keys and refuse `\u0000`).
import type pg from 'pg'
import { SUMMARY_EVENT_TYPES } from '@tack/session'
import { PostgresStoreError } from './errors.ts'

/** The event types a summary reads, as an SQL list (the summary index's predicate, word for word). */
export const SUMMARY_TYPES_SQL = `type IN (${SUMMARY_EVENT_TYPES.map((t) => `'${t}'`).join(', ')})`

/**
 * Migration `i` takes the schema from version `i` to `i + 1`; each runs in the one transaction that
 * also bumps the version row. Append only: a shipped step is never edited.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE SCHEMA IF NOT EXISTS tack;
  CREATE TABLE tack.schema_version (
    one        boolean     PRIMARY KEY DEFAULT true CHECK (one),  -- a single row
    version    integer     NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  INSERT INTO tack.schema_version (version) VALUES (0);
  CREATE TABLE tack.sessions (
    id       text    PRIMARY KEY,
    header   text    NOT NULL,                          -- the SessionHeader, JSON
    next_seq integer NOT NULL DEFAULT 0 CHECK (next_seq >= 0)  -- events stored (seqs are 0..next_seq-1)
  );
  CREATE TABLE tack.events (
    session_id text    NOT NULL REFERENCES tack.sessions (id) ON DELETE CASCADE,
    seq        integer NOT NULL CHECK (seq >= 0),
    type       text    NOT NULL,
    time       text    NOT NULL,
    data       text    NOT NULL,                        -- the payload, JSON
    op         text,                                    -- the SurfaceOp, JSON; NULL on log-only events
    PRIMARY KEY (session_id, seq)
  );
  CREATE INDEX events_summary ON tack.events (session_id, type, seq) WHERE ${SUMMARY_TYPES_SQL};
  CREATE TABLE tack.writers (
    session_id text        PRIMARY KEY REFERENCES tack.sessions (id) ON DELETE CASCADE,
    owner      text        NOT NULL,                    -- the store connection holding the lease
    pid        integer     NOT NULL,
    machine    text        NOT NULL,                    -- host (+ boot id and pid namespace on Linux)
    started    text        NOT NULL,                    -- the holder's start time, '' when unknown
    since      timestamptz NOT NULL,
    heartbeat  timestamptz NOT NULL                     -- the database's clock, never the holder's
  );
  CREATE INDEX writers_owner ON tack.writers (owner);
  `,
]

/** The schema version this build reads and writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length

/** Any constant both racing tacks agree on: serialises schema creation across machines. */
const MIGRATION_LOCK = 0x7461636b // 'tack'

/** The version row, or 0 for a database without tack's schema. */
export async function readSchemaVersion(client: pg.PoolClient | pg.Client): Promise<number> {
  const exists = await client.query<{ t: string | null }>(
    "SELECT to_regclass('tack.schema_version')::text AS t",
  )
  if (exists.rows[0]?.t == null) {
    const other = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'tack'",
    )
    if ((other.rows[0]?.n ?? 0) > 0)
      throw new PostgresStoreError(
        'STORE_SCHEMA_DAMAGED',
        'the schema `tack` holds tables but no tack version row (not made by tack); tack left it unchanged',
      )
    return 0
  }
  const row = await client.query<{ version: number }>('SELECT version FROM tack.schema_version')
  const version = row.rows[0]?.version
  if (typeof version !== 'number')
    throw new PostgresStoreError(
      'STORE_SCHEMA_DAMAGED',
      'tack.schema_version has no row; tack left it unchanged',
    )
  return version
}

/** Refuses a schema newer than this build, naming both versions. */
export function assertReadable(version: number): void {
  if (version > POSTGRES_SCHEMA_VERSION)
    throw new PostgresStoreError(
      'STORE_SCHEMA_NEWER',
      `the database holds tack schema version ${version}, newer than version ${POSTGRES_SCHEMA_VERSION} ` +
        'that this tack reads; upgrade tack (the database was left unchanged)',
    )
}

/**
 * Brings the schema to this build's version: a quick read when it is current, else the missing
 * migrations in one transaction under an advisory lock (two tacks starting on a fresh database do
 * not both create it). Returns the version found before.
 */
export async function ensureSchema(client: pg.PoolClient | pg.Client): Promise<number> {
  // The quick look decides only the common case (current, or newer: refused). Anything else is judged
  // again under the lock: a tack migrating right now makes the tables before it commits the version.
  const quick = await client
    .query<{ version: number }>(
      "SELECT version FROM tack.schema_version WHERE to_regclass('tack.schema_version') IS NOT NULL",
    )
    .catch(() => undefined)
  const seen = quick?.rows[0]?.version
  if (typeof seen === 'number') {
    assertReadable(seen)
    if (seen === POSTGRES_SCHEMA_VERSION) return seen
  }
  let found = 0
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    found = await readSchemaVersion(client)
    assertReadable(found)
    for (let v = found; v < POSTGRES_SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v] as string)
    await client.query('UPDATE tack.schema_version SET version = $1, updated_at = now()', [
      POSTGRES_SCHEMA_VERSION,
    ])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
  return found
}
