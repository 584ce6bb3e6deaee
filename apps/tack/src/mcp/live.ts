// `tack mcp list`'s live column (docs/decisions/0231-mcp-list-live-state.md): every server this workspace
// would start is started with @tack/mcp's own connection, bounded by its startup bound, its tools
// counted, and closed again — as `claude mcp list` checks health. A server that would not start
// (untrusted, unapproved, disabled…) is not run: its row says why in `state`.
import { McpConfig, probeServer } from '@tack/mcp'
import type { Settings } from '../config/load.ts'
import { isRecord } from './definition.ts'
import { type McpResolution, pluginServers } from './resolve.ts'
import type { McpRow } from './rows.ts'
import { withoutSourceFields } from './sources-config.ts'

/** `rows` with the outcome of starting each server that `starts`, all in parallel. */
export async function withLiveState(
  rows: readonly McpRow[],
  resolution: McpResolution,
  settings: Pick<Settings, 'plugins'>,
): Promise<McpRow[]> {
  const mcp = settings.plugins.mcp
  // The plugin's own Config, so the bounds are the validated ones a run uses (a bad value is the same
  // error the run would give).
  const config = McpConfig.parse(
    { ...withoutSourceFields(isRecord(mcp) ? mcp : {}), servers: pluginServers(resolution) },
    'plugins.mcp',
  )
  return Promise.all(
    rows.map(async (row): Promise<McpRow> => {
      const def = config.servers[row.name]
      if (row.state !== 'starts' || def === undefined || resolution.servers[row.name]?.source !== row.source)
        return row
      // A stdio server gets the SDK's minimal environment plus its own `env` (transport.ts), so no
      // provider key reaches it; there is no session here to declare more secrets.
      const probe = await probeServer(row.name, def, {
        timeoutMs: def.startupTimeoutMs ?? config.startupTimeoutMs,
        stderrMaxBytes: config.stderrMaxBytes,
        maxMessageBytes: config.maxMessageBytes,
      })
      return probe.state === 'connected'
        ? { ...row, live: 'connected', tools: probe.tools }
        : {
            ...row,
            live: 'failed',
            error: probe.stderr ? `${probe.error} (stderr: ${probe.stderr})` : probe.error,
          }
    }),
  )
}
