// `tack doctor`'s session store lines (80-cli §1.3, 95-fleet.md F6): the SQLite file, or — when
// TACK_STORE_URL or plugins.store.url names PostgreSQL — whether the database answers and which tack
// schema it holds, without creating or migrating anything. Further checks on the same connection run
// after the schema's, in `DATABASE_CHECKS` order: the fleet's queue check (95-fleet.md F6: queue
// present, workers seen recently) belongs in that list.
import { existsSync, statSync } from 'node:fs'
import type pg from 'pg'
import type { Settings } from '../config/load.ts'
import type { TackPaths } from '../paths.ts'
import { sessionStoreFile } from '../session-store-file.ts'
import { storeUrl } from '../store-url.ts'

type Line = (label: string, value: string) => void

/** What a check gets: an open connection to the store's database and where to report. */
export interface DatabaseCheckContext {
  readonly client: pg.Client
  /** The URL with its password redacted. */
  readonly url: string
  readonly line: Line
  readonly problems: string[]
}

export type DatabaseCheck = (check: DatabaseCheckContext) => Promise<void>

/** The tack schema's version against this build's: missing (made by the first run), current, or newer. */
export const schemaCheck: DatabaseCheck = async ({ client, line, problems }) => {
  const { assertReadable, POSTGRES_SCHEMA_VERSION, readSchemaVersion } = await import('@tack/store-postgres')
  const version = await readSchemaVersion(client)
  try {
    assertReadable(version)
  } catch (error) {
    line('tack schema', `version ${version} — NEWER than this tack's ${POSTGRES_SCHEMA_VERSION}`)
    problems.push((error as Error).message)
    return
  }
  line(
    'tack schema',
    version === 0
      ? `not created yet (the first run creates version ${POSTGRES_SCHEMA_VERSION})`
      : version === POSTGRES_SCHEMA_VERSION
        ? `version ${version} (current)`
        : `version ${version} (the next run migrates it to ${POSTGRES_SCHEMA_VERSION})`,
  )
}

/** What the store does to each table (store.ts); the events go with their session's row by cascade. */
const TABLE_RIGHTS: ReadonlyArray<readonly [table: string, rights: readonly string[]]> = [
  ['tack.schema_version', ['SELECT']],
  ['tack.sessions', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
  ['tack.events', ['SELECT', 'INSERT']],
  ['tack.writers', ['SELECT', 'INSERT', 'UPDATE', 'DELETE']],
]

/**
 * Whether the URL's user may do what the store does: create the schema when it is missing, else read and
 * write its tables. A user who may only read passes the schema check, and `tack run` would then fail at
 * its first write; doctor names the missing rights instead.
 */
export const privilegesCheck: DatabaseCheck = async ({ client, line, problems }) => {
  const who = await client.query<{ u: string; schema: boolean }>(
    "SELECT current_user AS u, EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'tack') AS schema",
  )
  const user = who.rows[0]?.u ?? '?'
  const missing: string[] = []
  // pg_namespace, not the version row: a user without USAGE on the schema may not read that row.
  if (!who.rows[0]?.schema) {
    const r = await client.query<{ ok: boolean }>(
      "SELECT has_database_privilege(current_database(), 'CREATE') AS ok",
    )
    if (!r.rows[0]?.ok) missing.push('CREATE on the database (to create the schema `tack`)')
  } else {
    const usage = await client.query<{ ok: boolean }>("SELECT has_schema_privilege('tack', 'USAGE') AS ok")
    if (!usage.rows[0]?.ok) missing.push('USAGE on the schema tack')
    else
      for (const [table, rights] of TABLE_RIGHTS)
        for (const right of rights) {
          const r = await client.query<{ ok: boolean }>('SELECT has_table_privilege($1, $2) AS ok', [
            table,
            right,
          ])
          if (!r.rows[0]?.ok) missing.push(`${right} on ${table}`)
        }
  }
  if (missing.length === 0) {
    line('privileges', `${user} may read and write the sessions`)
    return
  }
  line('privileges', `MISSING for ${user} — ${missing.join(', ')}`)
  problems.push(
    `STORE_PERMISSION: the database user ${user} lacks ${missing.join(', ')}; tack cannot store sessions there`,
  )
}

/** Every check on the database, in order; a check that throws is reported and the others still run. */
export const DATABASE_CHECKS: readonly DatabaseCheck[] = [
  schemaCheck,
  privilegesCheck,
  async (check) => (await import('./doctor-fleet.ts')).fleetCheck(check),
]

export async function reportSessionStore(
  settings: Settings,
  paths: Pick<TackPaths, 'home'>,
  env: NodeJS.ProcessEnv,
  line: Line,
  problems: string[],
  checks: readonly DatabaseCheck[] = DATABASE_CHECKS,
): Promise<void> {
  let chosen: ReturnType<typeof storeUrl>
  try {
    chosen = storeUrl(settings, env)
  } catch (error) {
    line('session store', `UNUSABLE — ${(error as Error).message}`)
    problems.push((error as Error).message)
    return
  }
  if (!chosen) {
    const db = await sessionStoreFile(settings, paths)
    line(
      'session store',
      existsSync(db) ? `${db} (${formatBytes(statSync(db).size)})` : `${db} (not created yet)`,
    )
    return
  }
  const {
    connectionPassword,
    explainPostgresFailure,
    poolConfig,
    PostgresStoreConfig,
    redactUrl,
    skippedPasswordFile,
  } = await import('@tack/store-postgres')
  const { default: pgModule } = await import('pg')
  const url = redactUrl(chosen.url)
  line('session store', `PostgreSQL ${url} (from ${chosen.from})`)
  const configured = settings.plugins.store
  const timeout = configured === false ? undefined : configured?.connectTimeoutMs
  const config = PostgresStoreConfig.parse({
    url: chosen.url,
    ...(timeout !== undefined ? { connectTimeoutMs: timeout } : {}),
  })
  const client = new pgModule.Client(poolConfig(config, env))
  client.on('error', () => {}) // a connection dropped mid-check: the check in progress reports it
  try {
    await client.connect()
  } catch (error) {
    let why = (explainPostgresFailure(error, url, 'connecting') as Error).message
    // No password found, and a password file passed over for its mode: say so, as the store does.
    const skipped = connectionPassword(chosen.url, env) === undefined ? skippedPasswordFile(env) : undefined
    if (skipped && why.startsWith('STORE_AUTH_FAILED')) why = `${why}; ${skipped}`
    line('database', `UNREACHABLE — ${why}`)
    problems.push(why)
    await client.end().catch(() => {})
    return
  }
  try {
    const server = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")
    line('database', `reachable, PostgreSQL ${server.rows[0]?.v ?? '?'}`)
    for (const check of checks) {
      try {
        await check({ client, url, line, problems })
      } catch (error) {
        const why = (explainPostgresFailure(error, url, 'checking it') as Error).message
        line('database', `CHECK FAILED — ${why}`)
        problems.push(why)
      }
    }
  } finally {
    await client.end().catch(() => {})
  }
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`
  return `${(n / 1024 / 1024).toFixed(1)} MiB`
}
