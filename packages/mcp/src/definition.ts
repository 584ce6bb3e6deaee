// One MCP server as the plugin receives it (spec 55-mcp.md M1, M5): already expanded, trusted and
// approved by whoever gathered it (tack config, a project's .mcp.json, Codex's config.toml). The
// plugin never reads files of its own. This type is the contract with apps/tack's MCP configuration.
export type McpServerDefinition =
  | {
      type: 'stdio'
      command: string
      args?: string[]
      env?: Record<string, string>
      cwd?: string
      startupTimeoutMs?: number
      toolTimeoutMs?: number
      enabled?: boolean
    }
  | {
      type: 'http' | 'sse'
      url: string
      headers?: Record<string, string>
      startupTimeoutMs?: number
      toolTimeoutMs?: number
      enabled?: boolean
    }

export type McpServers = Record<string, McpServerDefinition>
