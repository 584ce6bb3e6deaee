// The cordis plugin: opens the store (connecting and migrating the schema), provides it as
// `ctx.sessionStore`, and closes the pool when the plugin is disposed. Load `sessionsPlugin` with
// `store: 'external'` beside it, so `ctx.sessions` waits for this store.
import { definePlugin } from '@tack/kernel'
import type {} from '@tack/session' // the `sessionStore` member of cordis' Context
import { PostgresStoreConfig } from './config.ts'
import { PostgresSessionStore } from './store.ts'

export const PostgresStorePlugin = definePlugin({
  name: 'store-postgres',
  Config: PostgresStoreConfig,
  async apply(ctx, config) {
    const store = await PostgresSessionStore.open(config)
    // Registered before `provide`, so on dispose the service is withdrawn first, then the pool closed.
    ctx.effect(() => () => store.close())
    ctx.provide('sessionStore', store)
  },
})
