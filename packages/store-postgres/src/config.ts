// The validated configuration of the PostgreSQL store (95-fleet.md F1). Every field fails at load naming
// the key and its allowed values; the README's table mirrors this schema. The URL is a secret-bearing
// value: it is only ever shown through `redactUrl`.
import { type ConfigOf, Schema } from '@tack/kernel'

/** The URL schemes that select this store (libpq accepts both). */
export const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'] as const

/**
 * Whether `url` names a PostgreSQL database (`postgres://…` or `postgresql://…`). Not with spaces around
 * it: `URL` would trim them, but node-postgres reads ` postgres://…` as a relative URL and connects to a
 * host named `base`.
 */
export function isPostgresUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.trim() !== url) return false
  try {
    return (POSTGRES_SCHEMES as readonly string[]).includes(new URL(url).protocol)
  } catch {
    return false
  }
}

export const PostgresStoreConfig = Schema.object({
  url: Schema.json<string>({
    allowed: 'a postgres:// or postgresql:// URL',
    test: isPostgresUrl,
    description:
      'The database holding the sessions, e.g. postgres://tack@db.example/tack. The password comes from ' +
      'the URL, else PGPASSWORD, else ~/.pgpass (PGPASSFILE); it is never logged or printed. ' +
      'TACK_STORE_URL, when set, wins over this field.',
  }),
  poolSize: Schema.integer({
    default: 4,
    min: 1,
    max: 100,
    description:
      'Connections this process keeps open to the database. Appends to different sessions run in ' +
      'parallel up to this number; each connection costs the server one backend process.',
  }),
  connectTimeoutMs: Schema.integer({
    default: 10_000,
    min: 100,
    max: 600_000,
    description: 'How long opening a connection may take before tack reports the database as unreachable.',
  }),
  queryTimeoutMs: Schema.integer({
    default: 30_000,
    min: 100,
    max: 3_600_000,
    description:
      'How long one database operation may take. The server cancels a statement still running then ' +
      '(statement_timeout: nothing of it is stored), and tack gives up on a connection silent 5 s ' +
      'longer (a lost network); either is STORE_TIMEOUT instead of a run that hangs.',
  }),
  leaseTimeoutMs: Schema.integer({
    default: 30_000,
    min: 1000,
    max: 86_400_000,
    description:
      "How long a session's writer lease outlives its holder's last heartbeat (refreshed every third of " +
      "it, timed by the database's clock). Until then, readers on other machines leave its open turn " +
      'alone instead of closing it as interrupted.',
  }),
})
export type PostgresStoreConfig = ConfigOf<typeof PostgresStoreConfig>

/** `url` with its password replaced by `***`, safe for errors, logs and `tack doctor`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = '***'
    // libpq also takes the password as a query parameter.
    if (u.searchParams.has('password')) u.searchParams.set('password', '***')
    return u.toString()
  } catch {
    return '(a URL that does not parse)'
  }
}
