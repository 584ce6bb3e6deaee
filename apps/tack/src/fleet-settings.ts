// What `tack jobs` and `tack worker` need from config: the database (TACK_STORE_URL, else
// plugins.store.url — the same database as the session store) and `plugins.fleet`, validated. A
// FleetError becomes the CLI's one-line error: bad input exits 2, anything else 1 (main.ts).
import type { FleetConfig as FleetConfigValue, FleetError as FleetErrorType } from '@tack/fleet'
import { CliError, CommandError } from './errors.ts'
import type { CommandIO } from './io.ts'
import { type Resolved, resolveSettings } from './settings.ts'
import { storeUrl } from './store-url.ts'

export interface FleetFlags {
  readonly config?: string
  readonly profile?: string
}

export interface FleetSettings {
  readonly url: string
  readonly config: FleetConfigValue
  readonly resolved: Resolved
}

export async function fleetSettings(flags: FleetFlags, io: CommandIO): Promise<FleetSettings> {
  const resolved = await resolveSettings(
    {
      ...(flags.config !== undefined ? { config: flags.config } : {}),
      ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    },
    io.env,
    io.cwd,
  )
  const url = storeUrl(resolved.settings, io.env)?.url
  if (!url)
    throw new CliError(
      'jobs need the shared database: set TACK_STORE_URL or plugins.store.url to a postgres:// URL',
    )
  const { FleetConfig } = await import('@tack/fleet')
  const fleet = resolved.settings.plugins.fleet
  const config = FleetConfig.parse(fleet === false ? {} : (fleet ?? {}), 'plugins.fleet')
  return { url, config, resolved }
}

/** The CLI's error for a fleet failure (one line; the URL's password never in it). */
export function cliErrorOf(error: unknown): unknown {
  const e = error as FleetErrorType
  if (e?.name !== 'FleetError') return error
  return e.isUsage ? new CliError(e.message) : new CommandError(e.message)
}
