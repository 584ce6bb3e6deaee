// The `mcp` plugin (spec 55-mcp.md M1–M4, M5, M10, M12b): starts the configured servers for every agent
// (server-set.ts: their tools, their prompts as slash commands, their resources for `@server:uri`
// mentions) and registers `/mcp` and the completion of `@server:uri` in the prompt box
// (mention-completion.ts). Its `apply` does not wait for the servers: the rest of the boot goes on while
// they start, and the wait — each server at most its startup bound, counted from its spawn — comes just
// before the first model request, on the first prompt's `agent/prompt-submit`
// (docs/decisions/0240-mcp-early-start.md). Whatever lists tools or commands before a request (`/mcp`, a
// headless `/name`, an ACP session's start) waits on `ready` too. Disposing the plugin (the session
// over) closes every connection, which ends the stdio servers' process groups. It provides `ctx.mcp`:
// its tunables, which an ACP session's own servers use (docs/decisions/0232-acp-mcp-servers.md), and
// `ready`.
import { ABORTED, type Agent, type Prompt, type PromptDecision, settledOrAborted } from '@tack/agent'
import { registerCommand } from '@tack/commands'
import { definePlugin } from '@tack/kernel'
import { McpConfig } from './config.ts'
import { endUntakenServers } from './early-spawn.ts'
import { ServerInstructions } from './instructions.ts'
import { mcpCommand } from './mcp-command.ts'
import { registerResourceMentions } from './mention-completion.ts'
import { startServers } from './server-set.ts'

/** What the loaded plugin offers other plugins. */
export interface McpService {
  readonly config: McpConfig
  /**
   * Settles when every configured server is ready or past its startup bound; never rejects. Awaited
   * before anything that shows the servers' tools or commands.
   */
  readonly ready: Promise<void>
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
  apply(ctx, config) {
    const instructions = new ServerInstructions()
    instructions.mount(ctx)
    const set = startServers(ctx, { config, servers: config.servers, instructions })
    // Early-spawned servers this set did not take (a definition that changed since) end now.
    void endUntakenServers()
    ctx.provide('mcp', { config, ready: set.ready } satisfies McpService)
    registerCommand(ctx, mcpCommand(set.connections, set.counts, set.ready))
    registerResourceMentions(ctx)
    // The first request goes out once the servers are ready or past their bound; later prompts find
    // `ready` settled. Last phase: a hook that blocks the prompt does not wait for servers.
    ctx.on(
      'agent/prompt-submit',
      async (agent: Agent, _prompt: Prompt, next: () => Promise<PromptDecision>) => {
        // A cancel stops the wait at once: the admission ends, and the agent's end does not sit out
        // the servers' bound.
        const signal = agent.turnSignal
        if (!signal) await set.ready
        else if ((await settledOrAborted(set.ready, signal)) === ABORTED) return { action: 'allow' }
        return next()
      },
      { phase: 'plugins' },
    )
    // Disposal waits for the servers to end (stdin closed, then the group's SIGTERM, SIGKILL: at most
    // about 4 s), so tack does not exit leaving a server, or what it started, running.
    ctx.effect(() => () => set.close(), 'mcp connections')
  },
})
