// Which database holds the sessions (95-fleet.md F1, docs/decisions/0340-store-postgres.md): the
// environment's TACK_STORE_URL wins over `plugins.store.url`, as a per-process choice (a worker started
// by a supervisor, one shell pointed at another database) wins over a config file. An empty variable
// counts as unset. Neither set: the SQLite file.
import { isPostgresUrl, redactUrl } from '@tack/store-postgres/config'
import type { Settings } from './config/load.ts'
import { CliError } from './errors.ts'

export interface StoreUrl {
  readonly url: string
  /** Where it came from, for messages and `tack doctor`. */
  readonly from: 'TACK_STORE_URL' | 'plugins.store.url'
}

/** The database URL this run uses, or undefined for the SQLite file; a bad TACK_STORE_URL is one line. */
export function storeUrl(settings: Pick<Settings, 'plugins'>, env: NodeJS.ProcessEnv): StoreUrl | undefined {
  const fromEnv = env.TACK_STORE_URL
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.trim() !== fromEnv && isPostgresUrl(fromEnv.trim()))
      throw new CliError(
        `TACK_STORE_URL has spaces around the URL (${JSON.stringify(redactUrl(fromEnv))}); remove them`,
      )
    if (!isPostgresUrl(fromEnv))
      throw new CliError(
        `TACK_STORE_URL must be a postgres:// or postgresql:// URL (got ${JSON.stringify(redactUrl(fromEnv))})`,
      )
    return { url: fromEnv, from: 'TACK_STORE_URL' }
  }
  const configured = settings.plugins.store
  const url = configured === false ? undefined : configured?.url
  return typeof url === 'string' ? { url, from: 'plugins.store.url' } : undefined
}
