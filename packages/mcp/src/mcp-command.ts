// `/mcp` (spec 55-mcp.md M5): the session's servers, each with its state, its tools and prompts count and
// the error of its last start; `/mcp reconnect NAME` ends a server and starts it again now, without the
// restart backoff. One command in the @tack/commands registry, so every host (the TUI, `tack run`, ACP)
// has it; it answers with text and sends nothing to the model.
import { ABORTED, settledOrAborted } from '@tack/agent'
import type { CommandDefinition, CommandResult } from '@tack/commands'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'

export interface ServerCounts {
  tools(server: string): number
  prompts(server: string): number
}

/** `ready`: the set's start (each server ready or past its bound), awaited before a listing. */
export function mcpCommand(
  connections: readonly McpConnection[],
  counts: ServerCounts,
  ready: Promise<void>,
): CommandDefinition {
  return {
    name: 'mcp',
    description: 'MCP servers of this session: state, tools, last error; reconnect NAME starts one again',
    args: '[reconnect NAME]',
    run: async ({ args, signal }): Promise<CommandResult> => {
      const words = args.split(/\s+/).filter((w) => w !== '')
      // `tack run "/mcp"` right after the boot: the servers are still starting (plugin.ts); Ctrl-C
      // stops the wait.
      if ((await settledOrAborted(ready, signal)) === ABORTED)
        return { kind: 'error', message: '/mcp: interrupted while the MCP servers were starting' }
      if (words.length === 0) return { kind: 'text', text: listing(connections, counts) }
      const [verb, name, ...rest] = words
      if (verb !== 'reconnect' || name === undefined || rest.length > 0)
        return { kind: 'error', message: 'usage: /mcp, or /mcp reconnect NAME' }
      const connection = connections.find((c) => c.name === name)
      if (!connection)
        return { kind: 'error', message: `/mcp: no MCP server named ${name} (${namesOf(connections)})` }
      try {
        await connection.reconnect()
        return { kind: 'text', text: `reconnected ${name}: ${countsOf(name, counts)}` }
      } catch (error) {
        return { kind: 'error', message: `/mcp reconnect ${name}: it did not start: ${errorText(error)}` }
      }
    },
  }
}

function listing(connections: readonly McpConnection[], counts: ServerCounts): string {
  if (connections.length === 0)
    return 'no MCP servers in this session (tack mcp list shows the configured ones)'
  return connections
    .map((c) => {
      const state = c.state()
      switch (state.kind) {
        case 'connected':
          return `${c.name}: connected, ${countsOf(c.name, counts)}`
        case 'starting':
          return `${c.name}: starting`
        case 'failed':
          return `${c.name}: failed — ${state.error}`
        case 'closed':
          return `${c.name}: closed`
        default:
          return state satisfies never
      }
    })
    .join('\n')
}

const countsOf = (name: string, counts: ServerCounts) =>
  `${plural(counts.tools(name), 'tool')}, ${plural(counts.prompts(name), 'prompt')}`

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

const namesOf = (connections: readonly McpConnection[]) =>
  connections.length === 0 ? 'none in this session' : `servers: ${connections.map((c) => c.name).join(', ')}`
