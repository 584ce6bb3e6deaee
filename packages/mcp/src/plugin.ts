// The `mcp` plugin (spec 55-mcp.md M1–M4, M10, M12b): connects every enabled server in `servers` in
// parallel, waits for each at most its startup bound, and goes on; a server that is ready later adds
// its tools (and its prompts as slash commands, server-prompts.ts) then (one line with -v). Disposing the plugin (the session over) closes every connection,
// which ends the stdio servers' processes.
import { setTimeout as sleep } from 'node:timers/promises'
import { registerCommand } from '@tack/commands'
import { definePlugin, secretsOf } from '@tack/kernel'
import { RestartBackoff } from './backoff.ts'
import { McpConfig } from './config.ts'
import { McpConnection } from './connection.ts'
import { ServerInstructions } from './instructions.ts'
import { mcpCommand } from './mcp-command.ts'
import { ServerPrompts } from './server-prompts.ts'
import { ServerTools } from './server-tools.ts'

export const McpPlugin = definePlugin({
  name: 'mcp',
  Config: McpConfig,
  inject: ['tools'],
  async apply(ctx, config) {
    const log = ctx.logger('mcp')
    const warn = (line: string) => log.warn('%s', line)
    const tools = new ServerTools(ctx, warn, config.deferAbove)
    const prompts = new ServerPrompts(ctx, warn)
    const instructions = new ServerInstructions()
    instructions.mount(ctx)
    const started = Object.entries(config.servers)
      .filter(([, def]) => def.enabled !== false)
      .map(([name, def]) => {
        const limits = {
          toolTimeoutMs: def.toolTimeoutMs ?? config.toolTimeoutMs,
          maxResultBytes: config.maxResultBytes,
        }
        let ready = false
        const connection: McpConnection = new McpConnection({
          name,
          def,
          connectTimeoutMs: config.connectTimeoutMs,
          stderrMaxBytes: config.stderrMaxBytes,
          backoff: new RestartBackoff(config.restartBackoffMs, config.restartBackoffMaxMs),
          secretVariables: () => secretsOf(ctx).variables(),
          onTools: (list) => {
            const names = tools.replace(connection, list, limits)
            if (!ready) log.info('server "%s" is ready: %d tools', name, names.length)
          },
          onPrompts: (list) => prompts.replace(connection, list),
          onInstructions: (text) => instructions.set(name, text),
          warn,
        })
        const start = connection.start().then(
          () => {
            ready = true
          },
          () => undefined,
        )
        // The bound's timer is cancelled once the start settles, so it never holds the process open.
        const timer = new AbortController()
        const limit = sleep(def.startupTimeoutMs ?? config.startupTimeoutMs, undefined, {
          signal: timer.signal,
        })
        const bound = Promise.race([start, limit.catch(() => undefined)]).finally(() => timer.abort())
        return { connection, bound }
      })
    registerCommand(
      ctx,
      mcpCommand(
        started.map((s) => s.connection),
        { tools: (name) => tools.count(name), prompts: (name) => prompts.count(name) },
      ),
    )
    // Disposal waits for the servers to end (the SDK's ladder: stdin closed, SIGTERM, SIGKILL, at most
    // about 4 s), so tack does not exit leaving a server that ignores its closed stdin running.
    ctx.effect(
      () => () => Promise.all(started.map(({ connection }) => connection.close())).then(() => undefined),
      'mcp connections',
    )
    await Promise.all(started.map((s) => s.bound))
  },
})
