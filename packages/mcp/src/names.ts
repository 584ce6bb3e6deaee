// Tool names as Claude Code gives them (spec 55-mcp.md M3): `mcp__<server>__<tool>`, every character
// outside [A-Za-z0-9_-] of the server name made `_`. The tool name is kept too, except characters a
// provider refuses in a tool name (MCP allows `.` and `/`), which become `_` the same way. The whole is
// bounded to 64 characters (OpenAI's and Anthropic's tool-name limit): a longer name keeps its head and
// ends in 8 hex digits of its SHA-256, so it stays stable across sessions and distinct from its neighbours.
import { createHash } from 'node:crypto'

export const MCP_TOOL_NAME_MAX = 64

const unsafe = /[^A-Za-z0-9_-]/g

export function sanitizeServerName(server: string): string {
  return server.replace(unsafe, '_')
}

/** The tack name of `tool` of `server`, before any clash with another name is resolved. */
export function mcpToolName(server: string, tool: string): string {
  return bounded(`mcp__${sanitizeServerName(server)}__${tool.replace(unsafe, '_')}`)
}

function bounded(name: string): string {
  if (name.length <= MCP_TOOL_NAME_MAX) return name
  return `${name.slice(0, MCP_TOOL_NAME_MAX - 9)}_${digest(name)}`
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8)

/**
 * A name for `wanted` not in `taken`: `wanted` itself, else it with a suffix from the server's and the
 * tool's own names (so the same pair always gets the same name), bounded like the rest.
 */
export function unclashedName(
  wanted: string,
  server: string,
  tool: string,
  taken: (name: string) => boolean,
): string {
  if (!taken(wanted)) return wanted
  for (let attempt = 0; ; attempt++) {
    const tail = `_${digest(`${server}\u0000${tool}\u0000${attempt}`)}`
    const name = `${wanted.slice(0, MCP_TOOL_NAME_MAX - tail.length)}${tail}`
    if (!taken(name)) return name
  }
}

/**
 * Why `server` cannot name an MCP server, or undefined when it can. `__` separates the server from the
 * tool in `mcp__<server>__<tool>`: a server `a__b` would make a rule for `mcp__a__*` match its tools too,
 * and the empty name leaves nothing to match on (docs/decisions/0260-mcp-hostile-sources.md). Every
 * source checks it — tack config, `.mcp.json`, Codex, `tack mcp add`, an ACP editor — and skips the server.
 */
export function serverNameProblem(server: string): string | undefined {
  if (server === '') return 'a server name must not be empty'
  if (server.includes('__'))
    return 'a server name must not contain "__" (it separates server from tool in mcp__<server>__<tool>)'
  return undefined
}
