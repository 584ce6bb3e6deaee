// The cordis plugin: opens the store (or shares the one this process already has open on the same file
// with the same settings: shared.ts), provides it as `ctx.sessionStore` and lets go of it when the plugin
// is disposed; the last context to let go closes the database. Load `sessionsPlugin` with
// `store: 'external'` beside it, so `ctx.sessions` waits for this store instead of the in-memory one.
import { declareSecrets, definePlugin } from '@tack/kernel'
import type {} from '@tack/session' // the `sessionStore` member of cordis' Context
import { resolveStorePath, SqliteStoreConfig, sqliteFiles } from './config.ts'
import { acquireStore } from './shared.ts'

export const SqliteStorePlugin = definePlugin({
  name: 'store-sqlite',
  Config: SqliteStoreConfig,
  apply(ctx, config) {
    const { store, release } = acquireStore(config)
    // Every session's log is in these files: a sandboxed command must not read them, wherever the
    // config put them (inside $TACK_HOME they are hidden with it anyway).
    declareSecrets(ctx, { files: sqliteFiles(resolveStorePath(config)) })
    // Registered before `provide`, so on dispose the service is withdrawn first, then the store let go of.
    ctx.effect(() => release)
    ctx.provide('sessionStore', store)
  },
})
