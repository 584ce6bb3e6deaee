// The `store` plugin tack loads (plugins.store): the SQLite file by default, or a PostgreSQL database
// shared by many machines when a URL is given (95-fleet.md F1, docs/decisions/0340-store-postgres.md).
// One config block serves both, so `plugins.store` keeps its meaning; the fields of the backend not in
// use are ignored. The environment's TACK_STORE_URL wins over the config's `url` (store-url.ts).
import { type ConfigOf, declareSecrets, definePlugin, Schema } from '@tack/kernel'
import type {} from '@tack/session' // the `sessionStore` member of cordis' Context
import { PostgresStoreConfig } from '@tack/store-postgres/config'
import { SqliteStoreConfig } from '@tack/store-sqlite'

const { url, poolSize, connectTimeoutMs, queryTimeoutMs } = PostgresStoreConfig.shape

/** `plugins.store`: the SQLite store's fields, and the PostgreSQL store's when `url` is set. */
export const SessionStoreConfig = Schema.object({
  ...SqliteStoreConfig.shape,
  // One key for both stores, described for both (docs/decisions/0340-store-postgres.md).
  leaseTimeoutMs: Schema.integer({
    default: 30_000,
    min: 1000,
    max: 86_400_000,
    description:
      "How long a session's writer lease outlives its holder's last heartbeat (refreshed every third of " +
      'it) when the holder cannot be checked by pid: a holder on another machine (PostgreSQL: timed by ' +
      "the database's clock; SQLite: a shared file), or no /proc. Until then, readers elsewhere leave its " +
      'open turn alone instead of closing it as interrupted.',
  }),
  url: url.optional(),
  poolSize,
  connectTimeoutMs,
  queryTimeoutMs,
})
export type SessionStoreConfig = ConfigOf<typeof SessionStoreConfig>

/** The variables that may carry the database's password: a command the model runs never inherits them. */
export const DATABASE_SECRET_VARIABLES = ['TACK_STORE_URL', 'PGPASSWORD', 'PGPASSFILE'] as const

/** The store plugin, reading PGPASSWORD, ~/.pgpass and PGUSER-style variables from `env`. */
export function createSessionStorePlugin(env: NodeJS.ProcessEnv = process.env) {
  return definePlugin({
    name: 'store',
    Config: SessionStoreConfig,
    async apply(ctx, config) {
      if (config.url !== undefined) {
        const { connectionPassword, passwordFilePath, PostgresSessionStore } = await import(
          '@tack/store-postgres'
        )
        const store = await PostgresSessionStore.open(
          {
            url: config.url,
            poolSize: config.poolSize,
            connectTimeoutMs: config.connectTimeoutMs,
            queryTimeoutMs: config.queryTimeoutMs,
            leaseTimeoutMs: config.leaseTimeoutMs,
          },
          { env },
        )
        // The password, wherever it came from, stays out of what the model's commands see and read, and
        // is redacted from what tack prints: the value node-postgres sends, so a password from the file,
        // from `?password=` or with a `%` that is no escape is the one redacted.
        const password = connectionPassword(config.url, env)
        declareSecrets(ctx, {
          variables: [...DATABASE_SECRET_VARIABLES],
          files: [passwordFilePath(env)],
          values: [password, env.PGPASSWORD].filter((v): v is string => v !== undefined && v !== ''),
        })
        ctx.effect(() => () => store.close())
        ctx.provide('sessionStore', store)
        return
      }
      const { resolveStorePath, SqliteSessionStore, sqliteFiles } = await import('@tack/store-sqlite')
      const { url: _u, poolSize: _p, connectTimeoutMs: _c, queryTimeoutMs: _q, ...sqlite } = config
      const store = SqliteSessionStore.open(sqlite, { env })
      // Every session's log is in these files: a sandboxed command must not read them, wherever the
      // config put them (inside $TACK_HOME they are hidden with it anyway).
      declareSecrets(ctx, { files: sqliteFiles(resolveStorePath(store.config, env)) })
      // Registered before `provide`, so on dispose the service is withdrawn first, then the file closed.
      ctx.effect(() => () => store.close())
      ctx.provide('sessionStore', store)
    },
  })
}
