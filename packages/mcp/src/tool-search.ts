// `mcp_tool_search` (spec 55-mcp.md M11): past `deferAbove` MCP tools, the model is offered this one
// tool instead of all of them. It returns the best matches' names, descriptions and input schemas and
// loads them for the calling agent (`loadTools` of @tack/tools logs `tools/loaded`), so they are on its
// requests — and callable — from the next step on, as Claude Code's tool search does.
import { defineTool, loadTools, type ToolDefinition } from '@tack/tools'

export const TOOL_SEARCH = 'mcp_tool_search'
/** An ACP session's own servers' search (its name is not the one every agent may have). */
export const SESSION_TOOL_SEARCH = 'mcp_session_tool_search'

export function toolSearch(deferred: () => readonly ToolDefinition[], name = TOOL_SEARCH): ToolDefinition {
  return defineTool({
    name,
    description:
      "Search the MCP servers' tools, which are not listed up front because there are many. Give words the tool's name or purpose would contain (or its exact name). The matching tools' names, descriptions and input schemas are returned, and those tools can be called from your next step on.",
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Words to look for, or an exact tool name.' },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Most tools returned.' },
      },
      required: ['query'],
    },
    // It changes nothing outside the session; the tools it loads are each judged when called.
    access: 'session',
    execute({ query, limit }, call) {
      const found = rank(deferred(), query).slice(0, limit)
      if (found.length === 0) return `No MCP tool matches "${query}".`
      const loaded = call.agent
        ? loadTools(
            call.agent,
            found.map((def) => def.name),
          )
        : []
      const tools = found.map((def) => ({
        name: def.name,
        description: def.description,
        input_schema: def.parameters,
      }))
      const note = call.agent
        ? `${found.length} tool(s) found${loaded.length < found.length ? ` (${found.length - loaded.length} already loaded)` : ''}; call them from your next step on.`
        : `${found.length} tool(s) found; no agent to load them for.`
      return `${note}\n${JSON.stringify(tools, null, 2)}`
    },
  }) as ToolDefinition
}

/**
 * Tools matching `query`, best first. A query that names tools — exactly, as the server calls it
 * (`…__<tool>`), or as part of their names — returns only those, so asking for one tool loads one;
 * otherwise tools are ranked by how many of its words hit the name (counting twice) or the description.
 */
function rank(tools: readonly ToolDefinition[], query: string): ToolDefinition[] {
  const phrase = query.trim().toLowerCase()
  const named = tools.filter((def) => {
    const name = def.name.toLowerCase()
    return name === phrase || name.endsWith(`__${phrase}`)
  })
  if (named.length > 0) return named
  const containing = tools.filter((def) => def.name.toLowerCase().includes(phrase))
  if (containing.length > 0) return containing
  const words = phrase.split(/[^a-z0-9]+/).filter(Boolean)
  const scored = tools.flatMap((def) => {
    const name = def.name.toLowerCase()
    const description = def.description.toLowerCase()
    let score = 0
    for (const word of words) score += (name.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0)
    return score > 0 ? [{ def, score }] : []
  })
  // Equal scores keep the registry's name order (the list comes sorted by name).
  return scored.sort((a, b) => b.score - a.score).map(({ def }) => def)
}
