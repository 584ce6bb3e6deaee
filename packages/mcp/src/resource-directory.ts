// Every live MCP server's resources, per kernel (55-mcp.md M10): the servers of the plugin's set (every
// agent) and of each ACP session's own set (its agents only, docs/decisions/0232-acp-mcp-servers.md), each
// with its cached resource and template lists, refreshed when the server says its list changed. Mentions
// (mentions.ts), mention completion and ACP resource links look servers up here, never on the network:
// only reading a resource asks the server.
import type { ToolAgent, ToolAudience } from '@tack/tools'
import type { Context } from 'cordis'
import type { McpConnection, ResourceLists } from './connection.ts'
import type { ToolLimits } from './server-tools.ts'

export interface ResourceServer {
  readonly connection: McpConnection
  /** The agents that may reach the server; absent: every agent. */
  readonly audience?: ToolAudience
  /** The server's per-call bound and the plugin's result bound, as for its tools. */
  readonly limits: ToolLimits
  /** The latest lists (empty until the server is ready). */
  lists: ResourceLists
}

const directories = new WeakMap<object, Set<ResourceServer>>()

/** The kernel's set of resource servers (one per root context). */
export function resourceServers(ctx: Context): Set<ResourceServer> {
  let set = directories.get(ctx.root)
  if (!set) {
    set = new Set()
    directories.set(ctx.root, set)
  }
  return set
}

/**
 * The servers `agent` may reach, by name: a session's own server before a configured one of the same
 * name (the editor named it for this session).
 */
export function serversFor(ctx: Context, agent: ToolAgent | undefined): Map<string, ResourceServer> {
  const all = [...resourceServers(ctx)]
  const own = all.filter((s) => s.audience && agent && s.audience(agent))
  const shared = all.filter((s) => !s.audience)
  const byName = new Map<string, ResourceServer>()
  for (const server of [...own, ...shared])
    if (!byName.has(server.connection.name)) byName.set(server.connection.name, server)
  return byName
}

/**
 * The server among `servers` that offers `uri`: one that lists it, else one with a template it matches
 * (every `{…}` expression of the template standing for any text). Undefined when none does.
 */
export function ownerOf(servers: Iterable<ResourceServer>, uri: string): ResourceServer | undefined {
  const list = [...servers]
  return (
    list.find((s) => s.lists.resources.some((r) => r.uri === uri)) ??
    list.find((s) => s.lists.templates.some((t) => templateMatches(t.uriTemplate, uri)))
  )
}

/** Whether `uri` is an expansion of RFC 6570 template `template`, each expression matching any text. */
export function templateMatches(template: string, uri: string): boolean {
  const pattern = template
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith('{') ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${pattern}$`).test(uri)
}
