// @tack/store-sqlite: session persistence on node:sqlite — the SessionStore backend, its validated
// configuration and the cordis plugin that provides `ctx.sessionStore`.
export {
  JOURNAL_MODES,
  type JournalMode,
  resolveStorePath,
  SqliteStoreConfig,
  sqliteFiles,
  SYNCHRONOUS_MODES,
  type SynchronousMode,
  synchronousFor,
} from './config.ts'
export { SqliteStoreError, type SqliteStoreErrorCode } from './errors.ts'
export { SQLITE_LAYOUT_VERSION } from './layout.ts'
export { applyJournalMode, openDatabase } from './open.ts'
export { SqliteStorePlugin } from './plugin.ts'
export { SqliteSessionStore, type SqliteStoreOptions, type StoreSettings } from './store.ts'
