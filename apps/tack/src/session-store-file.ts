// Where the session store lives, computed in ONE place for `boot` (every run, `tack sessions …`) and
// `tack doctor`, so doctor prints the file a run uses. tack's home is the store's default `dataDir`; the
// user's `plugins.store` (`dataDir`, `path`) goes over it, and the store's own resolver decides the file
// (a relative `path` against `dataDir`, packages/store-sqlite/src/config.ts `resolveStorePath`).
import type { Settings } from './config/load.ts'
import type { TackPaths } from './paths.ts'

/** The config the store plugin is loaded with: tack's home as `dataDir`, then the user's `plugins.store`. */
export function storeConfig(settings: Settings, paths: Pick<TackPaths, 'home'>): Record<string, unknown> {
  const configured = settings.plugins.store
  return { dataDir: paths.home, ...(configured === false ? {} : configured) }
}

/** The absolute database file a run opens under these settings. */
export async function sessionStoreFile(settings: Settings, paths: Pick<TackPaths, 'home'>): Promise<string> {
  const { resolveStorePath, SqliteStoreConfig } = await import('@tack/store-sqlite')
  return resolveStorePath(SqliteStoreConfig.parse(storeConfig(settings, paths)))
}
