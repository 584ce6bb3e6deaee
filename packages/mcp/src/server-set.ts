// A set of MCP servers started together (spec 55-mcp.md M1–M4): every enabled server connected in
// parallel, each waited for (`ready`) at most its startup bound, counted from its spawn (boot may have
// spawned it early: early-spawn.ts); a server ready later adds its tools then (one line with -v). The
// plugin starts the configured servers for every agent; an ACP session starts the servers its editor named for its own agents only (`audience`, docs/decisions/0232-acp-mcp-servers.md).
// Closing the set ends every server (a stdio server's process too) and removes its tools and commands.
// Prompts become slash commands (M10) only for a set every agent sees: the command registry has no
// audience, so an ACP session's own servers' prompts would reach every session; deferral (M11) is
// counted per set, and an audience set has its own search tool.
// Each server's resource lists are kept in the kernel's resource directory while the set is up, for
// `@server:uri` mentions and ACP resource links (M10, resource-directory.ts); the set reads them for
// its audience only.
import { setTimeout as sleep } from 'node:timers/promises'
import { declareSecrets, secretsOf } from '@tack/kernel'
import type { ToolAudience } from '@tack/tools'
import type { Context } from 'cordis'
import { RestartBackoff } from './backoff.ts'
import { cutToChars } from './cut.ts'
import type { McpConfig } from './config.ts'
import { McpConnection } from './connection.ts'
import type { McpServers } from './definition.ts'
import { earlySpawnedAt } from './early-spawn.ts'
import { ServerInstructions } from './instructions.ts'
import type { ServerCounts } from './mcp-command.ts'
import { mountMentions } from './mentions.ts'
import { type ResourceServer, resourceServers } from './resource-directory.ts'
import { definitionSecretValues } from './secret-values.ts'
import { ServerPrompts } from './server-prompts.ts'
import { ServerTools } from './server-tools.ts'

export interface ServerSetOptions {
  /** The tunables (`plugins.mcp`); the set's own `servers` are given separately. */
  readonly config: Omit<McpConfig, 'servers'>
  readonly servers: McpServers
  /** The agents that see the servers' tools; absent: every agent. */
  readonly audience?: ToolAudience
  /**
   * Where the servers' `instructions` go (the plugin's section for every agent); absent: a section of
   * the set's own that only the audience reads (none without an audience).
   */
  readonly instructions?: ServerInstructions
}

export interface ServerSet {
  /** Settles when every server is ready or past its startup bound; never rejects. */
  readonly ready: Promise<void>
  /** The set's enabled servers (`/mcp` lists and reconnects them). */
  readonly connections: readonly McpConnection[]
  /** What each server registered now (`/mcp` shows it). */
  readonly counts: ServerCounts
  /** The stdio servers' pids while they run, by server name. */
  pids(): Record<string, number | undefined>
  /** Ends every server and removes its tools; waits for the processes (the SDK's ladder, about 4 s at most). */
  close(): Promise<void>
}

export function startServers(ctx: Context, options: ServerSetOptions): ServerSet {
  const { config } = options
  const log = ctx.logger('mcp')
  const warn = (line: string) => log.warn('%s', line)
  const tools = new ServerTools(ctx, warn, config.deferAbove, options.audience)
  const prompts = options.audience ? undefined : new ServerPrompts(ctx, warn)
  const own = options.instructions || !options.audience ? undefined : new ServerInstructions()
  const unmount = own && options.audience ? own.mountFor(ctx, options.audience) : undefined
  const instructions = options.instructions ?? own
  const directory = resourceServers(ctx)
  const resourceEntries: ResourceServer[] = []
  const unmountMentions = mountMentions(ctx)
  // What tack hands each server through `env`/`headers` is secret for the session (55-mcp.md M7): tack's
  // output and every server's results redact it (docs/decisions/0265-mcp-secret-values.md).
  const values = Object.values(options.servers).flatMap((def) => definitionSecretValues(def))
  if (values.length) declareSecrets(ctx, { values })
  const started = Object.entries(options.servers)
    .filter(([, def]) => def.enabled !== false)
    .map(([name, def]) => {
      const limits = {
        toolTimeoutMs: def.toolTimeoutMs ?? config.toolTimeoutMs,
        maxResultBytes: config.maxResultBytes,
        maxDescriptionChars: config.maxDescriptionChars,
      }
      let ready = false
      /** Past its startup bound while still starting: the person heard so, and hears when it joins. */
      let late = false
      const connection: McpConnection = new McpConnection({
        name,
        def,
        connectTimeoutMs: config.connectTimeoutMs,
        stderrMaxBytes: config.stderrMaxBytes,
        maxMessageBytes: config.maxMessageBytes,
        backoff: new RestartBackoff(config.restartBackoffMs, config.restartBackoffMaxMs),
        secretVariables: () => secretsOf(ctx).variables(),
        secretValues: () => secretsOf(ctx).values(),
        onTools: (list) => {
          const names = tools.replace(connection, list, limits)
          if (late && !ready)
            warn(
              `MCP server "${name}" is ready after all: its ${names.length} tools join from the next request`,
            )
          else if (!ready) log.info('server "%s" is ready: %d tools', name, names.length)
        },
        ...(prompts ? { onPrompts: (list) => prompts.replace(connection, list) } : {}),
        onResources: (lists) => {
          entry.lists = lists
        },
        onInstructions: (text) =>
          instructions?.set(
            name,
            text === undefined
              ? undefined
              : cutToChars(text, config.maxInstructionsChars, 'maxInstructionsChars'),
          ),
        warn,
      })
      // Its lists arrive once the server is ready (onResources, after `start` below).
      const entry: ResourceServer = {
        connection,
        limits,
        lists: { resources: [], templates: [] },
        ...(options.audience ? { audience: options.audience } : {}),
      }
      resourceEntries.push(entry)
      directory.add(entry)
      // The bound counts from the spawn: a server the boot spawned early has had that time already.
      const since = earlySpawnedAt(name)
      const spent = since === undefined ? 0 : performance.now() - since
      const start = connection.start().then(
        () => {
          ready = true
        },
        () => undefined,
      )
      // The bound's timer is cancelled once the start settles, so it never holds the process open.
      const timer = new AbortController()
      const bound = Math.max(0, (def.startupTimeoutMs ?? config.startupTimeoutMs) - spent)
      const limit = sleep(bound, undefined, { signal: timer.signal }).then(() => {
        // Still starting (not failed: a failed start said so itself): the session goes on without it.
        if (ready || connection.state().kind !== 'starting') return
        late = true
        warn(
          `MCP server "${name}" is not ready after ${bound} ms (startupTimeoutMs); going on without it — its tools join when it is`,
        )
      })
      const settled = Promise.race([start, limit.catch(() => undefined)]).finally(() => timer.abort())
      return { connection, bound: settled }
    })
  return {
    ready: Promise.all(started.map((s) => s.bound)).then(() => undefined),
    connections: started.map((s) => s.connection),
    counts: { tools: (name) => tools.count(name), prompts: (name) => prompts?.count(name) ?? 0 },
    pids: () => Object.fromEntries(started.map(({ connection }) => [connection.name, connection.pid()])),
    close: async () => {
      await Promise.all(started.map(({ connection }) => connection.close()))
      for (const entry of resourceEntries) directory.delete(entry)
      unmountMentions()
      tools.clear()
      prompts?.clear()
      unmount?.()
    },
  }
}
