// AcpPlugin: what an ACP server needs inside tack's kernel. It answers `ask` decisions with the
// client's permission requests (ctx.approval), marks calls `in_progress` as their bodies start
// (tools/execute), provides the client's terminal as the process runner of its sessions' commands when
// offered (`useCommandRunners`: the runner shows its terminal on the call's card), and applies a session's chosen
// model (agent/request), and points the fs tools of its sessions at the client's file system when
// offered. Agents that belong to no ACP session pass through untouched.
import { definePlugin } from '@tack/kernel'
import { type CommandRunner, useCommandRunners } from '@tack/tool-bash'
import { type FileBackend, useFileBackends } from '@tack/tool-fs'
import type { ApprovalRequest, ToolExecution, ToolExecutionResult } from '@tack/tools'
import type { Context } from 'cordis'
import type { AcpSession } from './acp-session.ts'
import { clientFileBackend, offersFileSystem } from './client-fs.ts'
import { runInClientTerminal } from './client-terminal.ts'
import { AcpConfig } from './config.ts'
import { ruleKey } from './permission.ts'
import './log-events.ts'
import { AcpServer, type AcpServerOptions } from './server.ts'

export class AcpService {
  #server: AcpServer | undefined
  readonly #ctx: Context
  readonly config: AcpConfig

  constructor(ctx: Context, config: AcpConfig) {
    this.#ctx = ctx
    this.config = config
  }

  /** A server for one client connection (`tack acp` serves exactly one, on stdio). */
  server(opts: AcpServerOptions): AcpServer {
    this.#server = new AcpServer(this.#ctx, opts)
    return this.#server
  }

  /**
   * Serves the sessions `server` runs in this context: a workspace context the server booted for a
   * session's folder (`AcpServerOptions.workspace`) answers its approvals, terminals and files.
   */
  attach(server: AcpServer): void {
    this.#server = server
  }

  commandsChanged(): void {
    this.#server?.commandsChanged()
  }

  /**
   * The session `agent` belongs to, when that session runs in this service's own boot. One server spans
   * every folder's boot, and file backends and command runners are asked module-wide: only the service
   * of the session's boot answers, with its folder's settings (clientTerminal, the terminal limits).
   */
  sessionOf(agent: ToolExecution['agent']): AcpSession | undefined {
    const session = this.#server?.sessionOf(agent)
    return session && this.#server?.contextOf(session).get('acp') === this ? session : undefined
  }

  /**
   * Whether bash calls of this session run in the client's terminal (requirement 11): the client
   * offers one, config allows it, and the session's mode does not sandbox bash. In workspace-write and
   * read-only tack confines bash in its OS sandbox, which a client terminal would escape, so those
   * modes keep bash local (docs/decisions/0090-acp-server.md).
   */
  usesClientTerminal(session: AcpSession): boolean {
    const sandboxed =
      session.choices.permissionMode === 'workspace-write' || session.choices.permissionMode === 'read-only'
    return this.config.clientTerminal && this.#server?.clientCapabilities.terminal === true && !sandboxed
  }

  /**
   * Where an agent's commands run (requirement 11): the client's terminal when the agent belongs to one
   * of this server's sessions that uses it (`usesClientTerminal`); otherwise none (run locally). The
   * runner shows the terminal on the card of the call it runs for, whichever tool that is.
   */
  commandRunnerOf(agent: ToolExecution['agent']): CommandRunner | undefined {
    const session = this.sessionOf(agent)
    if (!session) return undefined
    if (!this.usesClientTerminal(session)) return undefined
    const limits = {
      timeoutMs: this.config.terminalTimeoutMs,
      outputByteLimit: this.config.terminalOutputBytes,
    }
    return (args, call) =>
      runInClientTerminal(session.client, session.id, args, call, limits, (terminalId) =>
        session.showTerminal(call.callId, terminalId),
      )
  }

  /**
   * The file backend of an agent's calls (requirement 10): the client's `fs/*` methods when the agent
   * belongs to one of this server's sessions and the client offers both; otherwise none (local disk).
   */
  fileBackendOf(agent: ToolExecution['agent']): FileBackend | undefined {
    const session = this.sessionOf(agent)
    if (!session || !this.#server || !offersFileSystem(this.#server.clientCapabilities)) return undefined
    return clientFileBackend(session.client, session.id)
  }
}

export const AcpPlugin = definePlugin({
  name: 'acp',
  Config: AcpConfig,
  inject: ['tools', 'agents', 'sessions', 'sessionStore'],
  apply(ctx, config) {
    const service = new AcpService(ctx, config)
    ctx.provide('acp', service)
    ctx.effect(() => useFileBackends((agent) => service.fileBackendOf(agent)), 'acp: client file system')
    ctx.effect(() => useCommandRunners((agent) => service.commandRunnerOf(agent)), 'acp: client terminal')
    // A plugin's command registered or removed: clients get the new list (50-acp.md requirement 13).
    ctx.on('commands/changed', () => service.commandsChanged())
    ctx.provide('approval', {
      request: async (req: ApprovalRequest) => {
        const session = service.sessionOf(req.agent)
        // Not an ACP session's call (none exist outside `tack acp`): nobody to ask.
        if (!session) return { action: 'deny', by: 'none', reason: 'No ACP client to ask.' }
        return session.requestPermission(req)
      },
      remembered: (req: Omit<ApprovalRequest, 'signal'>) =>
        service.sessionOf(req.agent)?.rules.match(ruleKey(req)),
    })
    ctx.on(
      'tools/execute',
      async (exec: ToolExecution, next: (exec?: ToolExecution) => Promise<ToolExecutionResult>) => {
        const session = service.sessionOf(exec.agent)
        if (!session) return next()
        session.started(exec)
        return next()
      },
    )
    ctx.on('agent/request', async (agent, _info, _config, next) => {
      const chosen = service.sessionOf(agent)?.choices.model
      const given = await next()
      return chosen && chosen !== given.model ? { ...given, model: chosen } : given
    })
  },
})

declare module 'cordis' {
  interface Context {
    acp: AcpService
  }
}
