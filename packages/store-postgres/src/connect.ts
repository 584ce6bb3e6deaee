// The connection pool a store opens: the URL's fields as node-postgres takes them, the password looked
// up the way libpq does (password.ts) and never written into anything printable, and a pool that
// survives the server dropping an idle connection (the next query reports the failure instead).
import { userInfo } from 'node:os'
import pg from 'pg'
import { parseIntoClientConfig } from 'pg-connection-string'
import type { PostgresStoreConfig } from './config.ts'
import { lookUpPassword } from './password.ts'

/** How much longer than the server's statement timeout the client waits before giving up on it. */
export const CLIENT_GRACE_MS = 5000

/**
 * A client that ends its connection when connecting fails. node-postgres leaves the socket open when the
 * failure is on its side (the server asked for a password and none was found): the server closes it only
 * at its authentication_timeout (60 s by default), and the open socket kept tack running that long after
 * it had printed the error.
 */
class ClosingClient extends pg.Client {
  override connect(): Promise<pg.Client>
  override connect(callback: (err: Error) => void): void
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | undefined {
    if (!callback)
      return new Promise((resolve, reject) => this.connect((err) => (err ? reject(err) : resolve(this))))
    super.connect((err: Error) => {
      if (err) this.end().catch(() => {})
      callback(err)
    })
    return undefined
  }
}

/** The pool settings for `config` in environment `env` (PGHOST, PGUSER, PGPASSWORD, … as libpq reads them). */
export function poolConfig(
  config: Pick<PostgresStoreConfig, 'url' | 'poolSize' | 'connectTimeoutMs' | 'queryTimeoutMs'>,
  env: NodeJS.ProcessEnv = process.env,
): pg.PoolConfig {
  const { password, ...fields } = parseIntoClientConfig(config.url)
  const user = fields.user || env.PGUSER || userInfo().username
  const target = {
    host: fields.host || env.PGHOST || 'localhost',
    port: Number(fields.port) || Number(env.PGPORT) || 5432,
    database: fields.database || env.PGDATABASE || user,
    user,
  }
  return {
    ...fields,
    ...target,
    // A function, so the password is read at each connection (a rotated ~/.pgpass applies) and never
    // sits in a config object someone might print. The URL's own password comes first.
    password: password
      ? password
      : // node-postgres treats undefined as "no password" at run time; its type wants a string.
        () => lookUpPassword(target, env) as string,
    Client: ClosingClient,
    max: config.poolSize,
    connectionTimeoutMillis: config.connectTimeoutMs,
    // The server cancels a statement past the timeout, so a timed-out append is never committed later;
    // the client's own limit, a little longer, catches a server that no longer answers at all.
    statement_timeout: config.queryTimeoutMs,
    query_timeout: config.queryTimeoutMs + CLIENT_GRACE_MS,
    application_name: 'tack',
    keepAlive: true,
  }
}

/**
 * The password a connection to `url` would send, from wherever it comes (the URL as node-postgres decodes
 * it, its `password` parameter, PGPASSWORD, the password file), or undefined when there is none: what
 * must be redacted from everything tack prints. Read once, now (the file may change later; the next
 * store opened reads it again).
 */
export function connectionPassword(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const password = poolConfig(
    { url, poolSize: 1, connectTimeoutMs: 1000, queryTimeoutMs: 1000 },
    env,
  ).password
  const value = typeof password === 'function' ? password() : password
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A pool on `config`; an idle connection the server drops is discarded quietly, not a crash. */
export function openPool(
  config: Pick<PostgresStoreConfig, 'url' | 'poolSize' | 'connectTimeoutMs' | 'queryTimeoutMs'>,
  env?: NodeJS.ProcessEnv,
): pg.Pool {
  const pool = new pg.Pool(poolConfig(config, env))
  pool.on('error', () => {
    // An idle client lost its connection (server restart, network): the pool drops it and the next
    // operation opens a new one, or reports why it cannot.
  })
  return pool
}
