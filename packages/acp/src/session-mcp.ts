// The MCP servers an editor names in `session/new` and `session/load` (55-mcp.md M12,
// docs/decisions/0232-acp-mcp-servers.md): connected for that session's agents only, with the tunables
// of `plugins.mcp` when the session's boot loaded @tack/mcp (else its defaults), and closed with the
// session. The editor is the user's own program, so no project trust or approval applies to them.
import type { McpServer } from '@agentclientprotocol/sdk'
import type { McpConfig, McpServers, ServerSet } from '@tack/mcp'
import { serverNameProblem } from '@tack/mcp/names'
import type { ToolAgent, ToolAudience } from '@tack/tools'
import type { Context } from 'cordis'

/**
 * ACP's server list as @tack/mcp definitions. A stdio server runs in the session's folder (ACP gives
 * it no folder of its own); a name given twice keeps its first definition, and the person is told.
 */
export function mcpDefinitions(
  servers: readonly McpServer[] | undefined,
  cwd: string,
  warn: (line: string) => void,
): McpServers {
  const definitions: McpServers = {}
  for (const server of servers ?? []) {
    const badName = serverNameProblem(server.name)
    if (badName) {
      warn(`tack acp: MCP server "${server.name}" from the client is not used: ${badName}`)
      continue
    }
    if (Object.hasOwn(definitions, server.name)) {
      warn(`tack acp: MCP server "${server.name}" is named twice; the first definition is used`)
      continue
    }
    definitions[server.name] =
      'type' in server && (server.type === 'http' || server.type === 'sse')
        ? { type: server.type, url: server.url, headers: pairs(server.headers) }
        : { type: 'stdio', command: server.command, args: [...server.args], env: pairs(server.env), cwd }
  }
  return definitions
}

/**
 * Starts `servers` for the agents of `audience` and waits for them (each at most its startup bound),
 * after the workspace's own servers.
 */
export async function connectSessionServers(
  ctx: Context,
  servers: McpServers,
  audience: ToolAudience,
): Promise<ServerSet | undefined> {
  const loaded = ctx.get('mcp') as { config: McpConfig; ready: Promise<void> } | undefined
  // The workspace's own servers (`plugins.mcp`) start with its boot and are not waited for there: a
  // session answers once they are ready or past their bound, so its first commands (their prompts) and
  // its first request include them (docs/decisions/0240-mcp-early-start.md).
  await loaded?.ready
  if (Object.keys(servers).length === 0) return undefined
  // Imported when an editor names a server, as the catalog does: `tack acp` alone does not load the SDK.
  const mcp = await import('@tack/mcp')
  const config = loaded?.config ?? mcp.McpConfig.parse({})
  const set = mcp.startServers(ctx, { config, servers, audience })
  await set.ready
  return set
}

/**
 * Reads the resource an editor's link names through the MCP server of `agent`'s that offers it (the
 * session's own or a configured one, 55-mcp.md M10); undefined when none does, or when the read fails
 * (then `warn` says so). A `file:` URI is never read here: it is the editor's file, read as an `@path`
 * mention is (file-links.ts).
 */
export async function readResourceLink(
  ctx: Context,
  agent: ToolAgent,
  uri: string,
  signal: AbortSignal,
  warn: (line: string) => void,
): Promise<string | undefined> {
  if (/^file:/i.test(uri)) return undefined
  // Imported as for the servers themselves: `tack acp` alone does not load the SDK.
  const mcp = await import('@tack/mcp')
  const linked = await mcp.readLinkedResource(ctx, agent, uri, signal)
  if (linked.kind === 'failed')
    warn(
      `tack acp: the resource link ${uri} could not be read from MCP server "${linked.server}": ${linked.error}`,
    )
  return linked.kind === 'text' ? linked.text : undefined
}

function pairs(list: ReadonlyArray<{ name: string; value: string }> | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]))
}
