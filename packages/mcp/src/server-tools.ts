// The MCP tools of every server, registered with @tack/tools (spec 55-mcp.md M3, M4). A server's list
// replaces its previous tools in one batch, so the registry's tool set — and with it the request header
// and the prompt prefix — changes once per list change. A name already taken (two servers whose names
// sanitise alike, two tools that differ only in characters a provider refuses) gets a stable suffix,
// and the person is told. A tool the registry refuses is left out with one line; nothing here throws.
// Past `deferAbove` tools in all, every MCP tool is deferred and `mcp_tool_search` offered instead (M11,
// tool-search.ts); crossing the bound re-registers all of them in the same batch.
// With an audience (an ACP session's own servers) the tools are registered for those agents only, and
// deferral is counted for this set alone, with a search tool of its own (`mcp_session_tool_search`).
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { registerTool, type ToolAudience, type ToolDefinition } from '@tack/tools'
import type { Context } from 'cordis'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'
import { mcpTool } from './mcp-tool.ts'
import { mcpToolName, unclashedName } from './names.ts'
import { SESSION_TOOL_SEARCH, TOOL_SEARCH, toolSearch } from './tool-search.ts'

export interface ToolLimits {
  readonly toolTimeoutMs: number
  readonly maxResultBytes: number
  /** Characters of a tool's description kept (`plugins.mcp.maxDescriptionChars`). */
  readonly maxDescriptionChars: number
}

interface ServerList {
  readonly connection: McpConnection
  readonly tools: readonly Tool[]
  readonly limits: ToolLimits
  disposers: Array<() => void>
  /** The tools registered now, by the names they have (a scoped set's names are not in `ctx.tools.get`). */
  defs: ToolDefinition[]
}

export class ServerTools {
  readonly #ctx: Context
  readonly #warn: (line: string) => void
  readonly #deferAbove: number
  readonly #audience: ToolAudience | undefined
  readonly #servers = new Map<string, ServerList>()
  #deferred = false
  #search: (() => void) | undefined

  constructor(ctx: Context, warn: (line: string) => void, deferAbove: number, audience?: ToolAudience) {
    this.#ctx = ctx
    this.#warn = warn
    this.#deferAbove = deferAbove
    this.#audience = audience
  }

  /** Replaces `connection`'s tools with `tools`; returns the names they were registered under. */
  replace(connection: McpConnection, tools: readonly Tool[], limits: ToolLimits): string[] {
    const server = connection.name
    const previous = this.#servers.get(server)
    for (const dispose of previous?.disposers ?? []) dispose()
    const list: ServerList = { connection, tools, limits, disposers: [], defs: [] }
    this.#servers.set(server, list)
    let total = 0
    for (const each of this.#servers.values()) total += each.tools.length
    const deferred = total > this.#deferAbove
    if (deferred !== this.#deferred) {
      // Every server's tools change their `deferred` in this same batch.
      this.#deferred = deferred
      for (const other of this.#servers.values()) {
        if (other === list) continue
        for (const dispose of other.disposers) dispose()
        this.#register(other)
      }
      this.#search?.()
      this.#search = deferred ? this.#registerSearch() : undefined
    }
    this.#register(list)
    return list.defs.map((def) => def.name)
  }

  /** How many of `server`'s tools are registered now (`/mcp` shows it). */
  count(server: string): number {
    return this.#servers.get(server)?.defs.length ?? 0
  }

  /** Removes every server's tools (and the search tool). */
  clear(): void {
    for (const list of this.#servers.values()) for (const dispose of list.disposers) dispose()
    this.#servers.clear()
    this.#search?.()
    this.#search = undefined
    this.#deferred = false
  }

  #registerSearch(): (() => void) | undefined {
    const name = this.#audience ? SESSION_TOOL_SEARCH : TOOL_SEARCH
    try {
      return registerTool(
        this.#ctx,
        toolSearch(() => this.#deferredTools(), name),
        this.#audience,
      )
    } catch (error) {
      this.#warn(`MCP tool search "${name}" is left out: ${errorText(error)}`)
      return undefined
    }
  }

  #taken(name: string): boolean {
    if (this.#ctx.tools.get(name) !== undefined) return true
    for (const list of this.#servers.values()) if (list.defs.some((def) => def.name === name)) return true
    return false
  }

  /** Every server's tools, in name order (the search's order for equal matches). */
  #deferredTools(): ToolDefinition[] {
    return [...this.#servers.values()]
      .flatMap((list) => list.defs)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  #register(list: ServerList): void {
    const { connection, tools, limits } = list
    const server = connection.name
    list.disposers = []
    list.defs = []
    const renamed: string[] = []
    for (const tool of tools) {
      const wanted = mcpToolName(server, tool.name)
      const name = unclashedName(wanted, server, tool.name, (n) => this.#taken(n))
      if (name !== wanted) renamed.push(`${wanted} → ${name}`)
      try {
        const def = mcpTool({ name, server, tool, connection, deferred: this.#deferred, ...limits })
        list.disposers.push(registerTool(this.#ctx, def, this.#audience))
        list.defs.push(def)
      } catch (error) {
        this.#warn(`MCP tool "${tool.name}" of server "${server}" is left out: ${errorText(error)}`)
      }
    }
    // One line per server, not per tool: a server named like another clashes on every tool.
    if (renamed.length > 0)
      this.#warn(
        `MCP server "${server}": ${renamed.length} tool name(s) already taken, renamed: ${renamed.slice(0, 3).join(', ')}${renamed.length > 3 ? `, and ${renamed.length - 3} more` : ''}`,
      )
  }
}
