// @tack/store-postgres: the SessionStore on PostgreSQL (issue 28 item 1, 95-fleet.md F1) — a store many
// machines share, its validated configuration and the cordis plugin that provides `ctx.sessionStore`.
// The testing export (a throw-away cluster) is what the fleet's tests share.
export { isPostgresUrl, POSTGRES_SCHEMES, PostgresStoreConfig, redactUrl } from './config.ts'
export { connectionPassword, openPool, poolConfig } from './connect.ts'
export { PostgresStoreError, type PostgresStoreErrorCode } from './errors.ts'
export { explainPostgresFailure, isUnreachable } from './failures.ts'
export {
  lookUpPassword,
  passwordFilePath,
  type PasswordTarget,
  skippedPasswordFile,
} from './password.ts'
export { PostgresStorePlugin } from './plugin.ts'
export { assertReadable, ensureSchema, POSTGRES_SCHEMA_VERSION, readSchemaVersion } from './schema.ts'
export {
  PostgresSessionStore,
  type PostgresStoreOptions,
  type PostgresStoreStatus,
} from './store.ts'
