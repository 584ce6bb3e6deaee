// The `mcp` entry of the plugin catalog (plugin-catalog.ts): `@tack/mcp` with the source fields of
// `plugins.mcp` (sources-config.ts) added to its Config, and its boot role (boot-role.ts).
import type { Context } from 'cordis'
import { type Field, type ObjectSchema, Schema } from '@tack/kernel'
import type { CatalogEntry } from '../plugin-catalog.ts'
import { MCP_BOOT_ROLE } from './boot-role.ts'
import { MCP_SOURCE_FIELDS, withoutSourceFields } from './sources-config.ts'

type AnyConfig = ObjectSchema<Record<string, Field<unknown>>>

interface PluginModule {
  readonly plugin: unknown
  readonly Config: AnyConfig
}

export const MCP_CATALOG_ENTRY: CatalogEntry = {
  key: 'mcp',
  description: 'MCP servers: tack config, the workspace .mcp.json (trusted, approved), Codex (opt-in)',
  defaultOn: true,
  load: async () => withSourceFields(await loadClient()),
  boot: MCP_BOOT_ROLE,
}

/** The MCP client plugin (`@tack/mcp`), imported only by a run that starts or reports a server. */
async function loadClient(): Promise<PluginModule> {
  const m = await import('@tack/mcp')
  return { plugin: m.McpPlugin, Config: m.McpConfig as unknown as AnyConfig }
}

/**
 * `plugins.mcp` accepts the source fields too; the plugin is loaded inside a wrapper that gives it its
 * config without them, so its own Config stays strict.
 */
function withSourceFields(m: PluginModule): { plugin: unknown; Config: AnyConfig } {
  const Config = Schema.object({ ...m.Config.shape, ...MCP_SOURCE_FIELDS })
  const inner = m.plugin as { inject?: unknown }
  const plugin = {
    name: 'mcp',
    Config,
    ...(inner.inject !== undefined ? { inject: inner.inject } : {}),
    // Awaited as any plugin's apply; the client's own apply does not wait for its servers (the first
    // prompt does: docs/decisions/0240-mcp-early-start.md).
    apply: async (ctx: Context, config: Record<string, unknown>) => {
      // biome-ignore lint/suspicious/noExplicitAny: the client plugin's own config type is its package's
      await ctx.plugin(inner as any, withoutSourceFields(config))
    },
  }
  return { plugin, Config }
}
