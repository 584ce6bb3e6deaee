// The tack tools of every connected server, kept in step with each server's list (spec 55-mcp.md M2,
// M3): a new list replaces that server's tools in one synchronous batch, so the request's tool set —
// and the prompt prefix — changes once per list change. A name already taken (two servers whose names
// sanitise alike, two tools that differ only in characters a provider refuses) gets a stable suffix,
// and the person is told. A tool the registry refuses is left out with one line; nothing here throws.
// Past `deferAbove` tools in all, every MCP tool is deferred and `mcp_tool_search` offered instead (M11,
// tool-search.ts); crossing the bound re-registers all of them in the same batch.
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { registerTool, type ToolDefinition } from '@tack/tools'
import type { Context } from 'cordis'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'
import { mcpTool } from './mcp-tool.ts'
import { mcpToolName, unclashedName } from './names.ts'
import { toolSearch } from './tool-search.ts'

export interface ToolLimits {
  readonly toolTimeoutMs: number
  readonly maxResultBytes: number
}

interface ServerList {
  readonly connection: McpConnection
  readonly tools: readonly Tool[]
  readonly limits: ToolLimits
  disposers: Array<() => void>
  defs: ToolDefinition[]
}

export class ServerTools {
  readonly #ctx: Context
  readonly #warn: (line: string) => void
  readonly #deferAbove: number
  readonly #servers = new Map<string, ServerList>()
  #deferred = false
  #search: (() => void) | undefined

  constructor(ctx: Context, warn: (line: string) => void, deferAbove: number) {
    this.#ctx = ctx
    this.#warn = warn
    this.#deferAbove = deferAbove
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
      this.#search = deferred
        ? registerTool(
            this.#ctx,
            toolSearch(() => this.#deferredTools()),
          )
        : undefined
    }
    this.#register(list)
    return list.defs.map((def) => def.name)
  }

  /** How many of `server`'s tools are registered now (`/mcp` shows it). */
  count(server: string): number {
    return this.#servers.get(server)?.defs.length ?? 0
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
    for (const tool of tools) {
      const wanted = mcpToolName(server, tool.name)
      const name = unclashedName(wanted, server, tool.name, (n) => this.#ctx.tools.get(n) !== undefined)
      if (name !== wanted)
        this.#warn(
          `MCP tool "${tool.name}" of server "${server}" is named ${name}: ${wanted} is already taken`,
        )
      try {
        const def = mcpTool({ name, server, tool, connection, deferred: this.#deferred, ...limits })
        list.disposers.push(registerTool(this.#ctx, def))
        list.defs.push(def)
      } catch (error) {
        this.#warn(`MCP tool "${tool.name}" of server "${server}" is left out: ${errorText(error)}`)
      }
    }
  }
}
