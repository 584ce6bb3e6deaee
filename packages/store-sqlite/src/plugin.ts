// The cordis plugin: opens the store, provides it as `ctx.sessionStore` and closes the database when
// the plugin is disposed. Load `sessionsPlugin` with `store: 'external'` beside it, so `ctx.sessions`
// waits for this store instead of providing the in-memory one.
import { definePlugin } from '@tack/kernel'
import type {} from '@tack/session' // the `sessionStore` member of cordis' Context
import { SqliteStoreConfig } from './config.ts'
import { SqliteSessionStore } from './store.ts'

export const SqliteStorePlugin = definePlugin({
  name: 'store-sqlite',
  Config: SqliteStoreConfig,
  apply(ctx, config) {
    const store = SqliteSessionStore.open(config)
    // Registered before `provide`, so on dispose the service is withdrawn first, then the file closed.
    ctx.effect(() => () => store.close())
    ctx.provide('sessionStore', store)
  },
})
