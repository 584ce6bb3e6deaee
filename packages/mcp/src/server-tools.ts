// The tack tools of every connected server, kept in step with each server's list (spec 55-mcp.md M2,
// M3): a new list replaces that server's tools in one synchronous batch, so the request's tool set —
// and the prompt prefix — changes once per list change. A name already taken (two servers whose names
// sanitise alike, two tools that differ only in characters a provider refuses) gets a stable suffix,
// and the person is told. A tool the registry refuses is left out with one line; nothing here throws.
// With an audience (an ACP session's own servers) the tools are registered for those agents only.
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { registerTool, type ToolAudience } from '@tack/tools'
import type { Context } from 'cordis'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'
import { mcpTool } from './mcp-tool.ts'
import { mcpToolName, unclashedName } from './names.ts'

export interface ToolLimits {
  readonly toolTimeoutMs: number
  readonly maxResultBytes: number
}

export class ServerTools {
  readonly #ctx: Context
  readonly #warn: (line: string) => void
  readonly #audience: ToolAudience | undefined
  readonly #registered = new Map<string, Array<() => void>>()
  /** The names each server's tools have now: a scoped set's names are not in `ctx.tools.get`. */
  readonly #names = new Map<string, readonly string[]>()

  constructor(ctx: Context, warn: (line: string) => void, audience?: ToolAudience) {
    this.#ctx = ctx
    this.#warn = warn
    this.#audience = audience
  }

  /** Removes every server's tools. */
  clear(): void {
    for (const disposers of this.#registered.values()) for (const dispose of disposers) dispose()
    this.#registered.clear()
    this.#names.clear()
  }

  #taken(name: string): boolean {
    if (this.#ctx.tools.get(name) !== undefined) return true
    for (const names of this.#names.values()) if (names.includes(name)) return true
    return false
  }

  /** Replaces `connection`'s tools with `tools`; returns the names they were registered under. */
  replace(connection: McpConnection, tools: readonly Tool[], limits: ToolLimits): string[] {
    const server = connection.name
    for (const dispose of this.#registered.get(server) ?? []) dispose()
    this.#names.delete(server)
    const disposers: Array<() => void> = []
    const names: string[] = []
    for (const tool of tools) {
      const wanted = mcpToolName(server, tool.name)
      const name = unclashedName(wanted, server, tool.name, (n) => this.#taken(n) || names.includes(n))
      if (name !== wanted)
        this.#warn(
          `MCP tool "${tool.name}" of server "${server}" is named ${name}: ${wanted} is already taken`,
        )
      try {
        const def = mcpTool({ name, server, tool, connection, ...limits })
        disposers.push(registerTool(this.#ctx, def, this.#audience))
        names.push(name)
      } catch (error) {
        this.#warn(`MCP tool "${tool.name}" of server "${server}" is left out: ${errorText(error)}`)
      }
    }
    this.#registered.set(server, disposers)
    this.#names.set(server, names)
    return names
  }
}
