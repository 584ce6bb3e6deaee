// The tack tools of every connected server, kept in step with each server's list (spec 55-mcp.md M2,
// M3): a new list replaces that server's tools in one synchronous batch, so the request's tool set —
// and the prompt prefix — changes once per list change. A name already taken (two servers whose names
// sanitise alike, two tools that differ only in characters a provider refuses) gets a stable suffix,
// and the person is told. A tool the registry refuses is left out with one line; nothing here throws.
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { registerTool } from '@tack/tools'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'
import { PerServerRegistrations } from './per-server.ts'
import { mcpTool } from './mcp-tool.ts'
import { mcpToolName, unclashedName } from './names.ts'

export interface ToolLimits {
  readonly toolTimeoutMs: number
  readonly maxResultBytes: number
}

export class ServerTools extends PerServerRegistrations {
  /** Replaces `connection`'s tools with `tools`; returns the names they were registered under. */
  replace(connection: McpConnection, tools: readonly Tool[], limits: ToolLimits): string[] {
    const server = connection.name
    this.withdraw(server)
    const disposers: Array<() => void> = []
    const names: string[] = []
    for (const tool of tools) {
      const wanted = mcpToolName(server, tool.name)
      const name = unclashedName(wanted, server, tool.name, (n) => this.ctx.tools.get(n) !== undefined)
      if (name !== wanted)
        this.warn(
          `MCP tool "${tool.name}" of server "${server}" is named ${name}: ${wanted} is already taken`,
        )
      try {
        disposers.push(registerTool(this.ctx, mcpTool({ name, server, tool, connection, ...limits })))
        names.push(name)
      } catch (error) {
        this.warn(`MCP tool "${tool.name}" of server "${server}" is left out: ${errorText(error)}`)
      }
    }
    this.keep(server, disposers)
    return names
  }
}
