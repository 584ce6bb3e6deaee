// One open store per database file and settings per process, shared by every context that loads the
// plugin with them: `tack acp` boots each folder its sessions name (docs/decisions/0140-acp-trust-per-session.md), and each boot used to
// open its own connection to the same sessions.db — its own prepared statements, page cache, layout check
// and lease heartbeat. Statements run synchronously and every transaction begins and commits within one
// call (store.ts), so contexts sharing the connection cannot interleave inside a transaction. The last
// context to let go closes it, as a context of its own would have (docs/decisions/0335-many-sessions-per-process.md).
import { resolveStorePath, type SqliteStoreConfig } from './config.ts'
import { SqliteSessionStore } from './store.ts'

interface Open {
  readonly store: SqliteSessionStore
  users: number
}

const open = new Map<string, Open>()

/** The process's store for `config` (opened on first use) and the way to let go of it. */
export function acquireStore(config: SqliteStoreConfig): {
  store: SqliteSessionStore
  release: () => Promise<void>
} {
  // The resolved file plus every setting: two contexts share only a connection they would have opened alike.
  const key = JSON.stringify([resolveStorePath(config), config])
  let entry = open.get(key)
  if (!entry) {
    entry = { store: SqliteSessionStore.open(config), users: 0 }
    open.set(key, entry)
  }
  entry.users++
  const held = entry
  let released = false
  return {
    store: held.store,
    release: async () => {
      if (released) return
      released = true
      if (--held.users > 0) return
      if (open.get(key) === held) open.delete(key)
      await held.store.close()
    },
  }
}
