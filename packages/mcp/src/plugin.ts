// The `mcp` plugin (spec 55-mcp.md M1–M4, M5, M10, M12b): starts the configured servers for every agent
// (server-set.ts: their tools, their prompts as slash commands, their resources for `@server:uri`
// mentions) and waits for them at most their startup bound, and registers `/mcp` and the completion
// of `@server:uri` in the prompt box (mention-completion.ts). Disposing the plugin (the session over)
// closes every connection, which ends the stdio servers' processes. It provides `ctx.mcp`, whose
// tunables an ACP session's own servers use (docs/decisions/0232-acp-mcp-servers.md).
import { registerCommand } from '@tack/commands'
import { definePlugin } from '@tack/kernel'
import { McpConfig } from './config.ts'
import { ServerInstructions } from './instructions.ts'
import { mcpCommand } from './mcp-command.ts'
import { registerResourceMentions } from './mention-completion.ts'
import { startServers } from './server-set.ts'

/** What the loaded plugin offers other plugins: its validated tunables. */
export interface McpService {
  readonly config: McpConfig
}

declare module 'cordis' {
  interface Context {
    mcp: McpService
  }
}

export const McpPlugin = definePlugin({
  name: 'mcp',
  Config: McpConfig,
  inject: ['tools'],
  async apply(ctx, config) {
    ctx.provide('mcp', { config } satisfies McpService)
    const instructions = new ServerInstructions()
    instructions.mount(ctx)
    const set = startServers(ctx, { config, servers: config.servers, instructions })
    registerCommand(ctx, mcpCommand(set.connections, set.counts))
    registerResourceMentions(ctx)
    // Disposal waits for the servers to end (the SDK's ladder: stdin closed, SIGTERM, SIGKILL, at most
    // about 4 s), so tack does not exit leaving a server that ignores its closed stdin running.
    ctx.effect(() => () => set.close(), 'mcp connections')
    await set.ready
  },
})
