// The `plugins.mcp` fields that say where servers come from and who may start them, validated like
// every config field. `servers` itself is `@tack/mcp`'s (its Config checks each definition); the two
// below are read by apps/tack alone (resolve.ts) and merged into the plugin's Config by the catalog
// entry (catalog-entry.ts), so one `plugins.mcp` mapping holds both.
import { Schema } from '@tack/kernel'

export const MCP_SOURCE_FIELDS = {
  approve: Schema.enum(['none', 'all'], {
    default: 'none',
    description:
      "'all': every server in a trusted workspace's .mcp.json starts without being approved (no question at start, no `tack mcp approve`); the user's own config only — a project config, trusted or not, cannot set it",
  }),
  codexServers: Schema.boolean({
    default: false,
    description:
      "also start Codex's MCP servers ([mcp_servers.*] in $CODEX_HOME/config.toml, default ~/.codex)",
  }),
}

/** Without the source fields: what the plugin itself is given. */
export function withoutSourceFields(config: Record<string, unknown>): Record<string, unknown> {
  const { approve: _a, codexServers: _c, ...rest } = config
  return rest
}
