// The cordis plugin: opens the store, provides it as `ctx.sessionStore` and closes the database when
// the plugin is disposed. Load `sessionsPlugin` with `store: 'external'` beside it, so `ctx.sessions`
// waits for this store instead of providing the in-memory one.
import { declareSecrets, definePlugin } from '@tack/kernel'
import type {} from '@tack/session' // the `sessionStore` member of cordis' Context
import { resolveStorePath, SqliteStoreConfig, sqliteFiles } from './config.ts'
import { SqliteSessionStore } from './store.ts'

export const SqliteStorePlugin = definePlugin({
  name: 'store-sqlite',
  Config: SqliteStoreConfig,
  apply(ctx, config) {
    const store = SqliteSessionStore.open(config)
    // Every session's log is in these files: a sandboxed command must not read them, wherever the
    // config put them (inside $TACK_HOME they are hidden with it anyway).
    declareSecrets(ctx, { files: sqliteFiles(resolveStorePath(config)) })
    // Registered before `provide`, so on dispose the service is withdrawn first, then the file closed.
    ctx.effect(() => () => store.close())
    ctx.provide('sessionStore', store)
  },
})
