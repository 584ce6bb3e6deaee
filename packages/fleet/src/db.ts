// The fleet's connection to the shared database: pg-boss (the queue, in its own `pgboss` schema) and a
// small pool for tack's own two tables beside it (schema `tack_fleet`): which queue holds a job and what
// each attempt did (worker, session, outcome, reason). Job state, retries, leases and results are
// pg-boss's; tack never keeps a second copy of them (docs/decisions/0350-jobs-and-worker.md).
import { hostname } from 'node:os'
import pg from 'pg'
import { type Db, PgBoss } from 'pg-boss'
import { explainConnectFailure, FleetError } from './errors.ts'

/** tack_fleet's schema version; a database written by a newer tack is refused. */
export const FLEET_SCHEMA_VERSION = 1

/** NOTIFY'd by `submitJobs` (and `retryJob`) when jobs become ready, so idle workers fetch at once. */
export const WAKE_CHANNEL = 'tack_jobs_ready'

export interface Fleet {
  readonly boss: PgBoss
  readonly pool: pg.Pool
  readonly url: string
  /**
   * Calls `onWake` when jobs were submitted, on a connection of its own (LISTEN); resolves to a stop
   * function. Best effort: a connection that fails is dropped, and the caller's polling goes on.
   */
  onJobsReady(onWake: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface OpenFleetOptions {
  /** A worker supervises (expires jobs whose heartbeat lapsed) and registers as a pg-boss instance. */
  readonly worker?: { readonly name: string; readonly superviseSeconds: number }
  /** Where pg-boss's warnings and errors go (a worker's stderr). */
  readonly warn?: (line: string) => void
}

const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS tack_fleet;
CREATE TABLE IF NOT EXISTS tack_fleet.meta (version int NOT NULL);
CREATE TABLE IF NOT EXISTS tack_fleet.jobs (
  id uuid PRIMARY KEY,
  queue text NOT NULL,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  submitted_by text NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_submitted ON tack_fleet.jobs (submitted_at DESC);
CREATE TABLE IF NOT EXISTS tack_fleet.attempts (
  job_id uuid NOT NULL REFERENCES tack_fleet.jobs(id) ON DELETE CASCADE,
  attempt int NOT NULL,
  worker text NOT NULL,
  session_id text,
  started_at timestamptz NOT NULL DEFAULT now(),
  last_event_at timestamptz,
  ended_at timestamptz,
  outcome text NOT NULL DEFAULT 'running',
  reason text,
  PRIMARY KEY (job_id, attempt)
);
`

/** Connects, creates or checks tack's tables and starts pg-boss (which installs or migrates its own). */
export async function openFleet(url: string, options: OpenFleetOptions = {}): Promise<Fleet> {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new FleetError('NO_URL', 'plugins.store.url (or TACK_STORE_URL) must be a postgres:// URL')
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 })
  // An idle client's error (the server restarted) must not crash the process; the next query reports it.
  pool.on('error', () => {})
  try {
    await ensureSchema(pool)
  } catch (error) {
    await pool.end().catch(() => {})
    throw error instanceof FleetError ? error : explainConnectFailure(error, url)
  }
  const worker = options.worker
  const boss = new PgBoss({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 10_000,
    application_name: worker ? `tack worker ${worker.name}` : 'tack',
    supervise: worker !== undefined,
    schedule: false,
    registerInstance: worker !== undefined,
    ...(worker
      ? {
          instanceName: worker.name,
          superviseIntervalSeconds: worker.superviseSeconds,
          monitorIntervalSeconds: worker.superviseSeconds,
        }
      : {}),
  })
  boss.on('error', (error) => options.warn?.(`tack: the queue: ${error.message.split('\n')[0]}`))
  try {
    await boss.start()
  } catch (error) {
    await pool.end().catch(() => {})
    throw explainConnectFailure(error, url)
  }
  return {
    boss,
    pool,
    url,
    async onJobsReady(onWake) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 })
      client.on('error', () => {})
      client.on('notification', () => onWake())
      try {
        await client.connect()
        await client.query(`LISTEN ${WAKE_CHANNEL}`)
      } catch {
        await client.end().catch(() => {})
        return async () => {}
      }
      return async () => {
        await client.end().catch(() => {})
      }
    },
    async close() {
      await boss.stop({ graceful: false, timeout: 2000 }).catch(() => {})
      await pool.end().catch(() => {})
    },
  }
}

/**
 * Runs `work` in one transaction: tack's statements on `client` and pg-boss's (through `db`, its
 * `{ db }` option) on the same connection, so they land together or not at all.
 */
export async function inTransaction<T>(
  fleet: Fleet,
  work: (db: Db, client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await fleet.pool.connect()
  const db: Db = { executeSql: async (text, values) => client.query(text, values as unknown[]) }
  try {
    await client.query('BEGIN')
    const result = await work(db, client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

async function ensureSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // Two processes starting at once on an empty database would race on CREATE … IF NOT EXISTS.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('tack_fleet schema'))")
    await client.query(SCHEMA_SQL)
    const { rows } = await client.query<{ version: number }>('SELECT version FROM tack_fleet.meta')
    if (rows.length === 0)
      await client.query('INSERT INTO tack_fleet.meta (version) VALUES ($1)', [FLEET_SCHEMA_VERSION])
    else if (rows[0].version > FLEET_SCHEMA_VERSION)
      throw new FleetError(
        'DB_FAILED',
        `the database's jobs were written by a newer tack (schema ${rows[0].version}, this tack knows ${FLEET_SCHEMA_VERSION}): upgrade tack`,
      )
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/** This process as a worker's default name: host and pid, as pg-boss's instance list shows it. */
export function defaultWorkerName(): string {
  return `${hostname()}:${process.pid}`
}
