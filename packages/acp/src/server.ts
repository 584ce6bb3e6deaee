// `tack acp`: tack as an ACP v1 agent (50-acp.md). One fluent SDK app; every handler translates and
// hands the work to tack's services (agents, sessions, tools, approval) — behaviour stays in tack.
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import {
  type AgentApp,
  type AgentContext,
  agent as agentApp,
  type ClientCapabilities,
  type InitializeResponse,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type SessionConfigOption,
  type SessionModeState,
} from '@agentclientprotocol/sdk'
import {
  type Agent,
  type AgentHandle,
  type EffortChoice,
  errorMessage,
  isEffortChoice,
  switchAgentModel,
  switchedEffortOf,
} from '@tack/agent'
import type { CommandRegistry } from '@tack/commands'
import { type PermissionMode, permissionModeOf } from '@tack/permissions'
import type { AnySessionEvent, SessionEvent } from '@tack/session'
import { TOOLS_MODES, type ToolAgent, type ToolsMode, toolsModeOf } from '@tack/tools'
import type { Context } from 'cordis'
import { AcpSession } from './acp-session.ts'
import type { AcpService } from './plugin.ts'
import { acpCommands } from './commands.ts'
import {
  checkMode,
  choose,
  configOptions,
  modeState,
  type OptionSpace,
  type SessionChoices,
} from './options.ts'
import { slashCommand } from './prompt-content.ts'
import { askProjectServers, type ProjectMcpApprovals } from './project-mcp.ts'
import { connectSessionServers, mcpDefinitions, readResourceLink } from './session-mcp.ts'
import { shapeFileText } from '@tack/tool-fs'
import { readFileLinkText } from './file-links.ts'
import { replayUpdates, type UpdateEnv } from './updates.ts'

export interface AcpServerOptions {
  /** tack's version, for `agentInfo`. */
  readonly version: string
  /** The defaults of a new session in the server's own context (the CLI's settings). */
  readonly model: string
  readonly permissionMode: PermissionMode
  readonly toolsMode: ToolsMode
  /** The reasoning effort of a new session (`--effort`, `effort:`); absent or `default`: none is sent. */
  readonly effort?: EffortChoice
  /** Models a client may switch to besides the session's own. */
  readonly models?: readonly string[]
  /** Where warnings go (stderr). */
  readonly warn: (line: string) => void
  /**
   * The context sessions of the folder `cwd` run in: booted for that folder, with its own settings and
   * workspace trust (project config, hooks, plugins), and with AcpPlugin loaded. Called for every
   * `session/new` and for a `session/load` with the stored session's folder; the embedder caches.
   * Absent: every session runs in the server's own context (an embedder with one workspace).
   */
  readonly workspace?: (cwd: string) => Promise<AcpWorkspace>
}

/** A context booted for one folder, and the defaults of a new session there. */
export interface AcpWorkspace {
  readonly ctx: Context
  readonly defaults: SessionChoices
  /**
   * The folder's `.mcp.json` servers waiting for approval (55-mcp.md M6): asked about through
   * `session/request_permission` after a `session/new` or `session/load` there (project-mcp.ts).
   */
  readonly projectMcp?: ProjectMcpApprovals
}

const NOT_FOUND = -32002

/**
 * Any request no handler took. The SDK's own reply reads `"Method not found": x` (quotes inside the message);
 * JSON-RPC's message is `Method not found`, and the SDK's other errors add the detail as `Invalid params: x`.
 */
function methodNotFound({ method }: { method: string }): never {
  throw new RequestError(-32601, `Method not found: ${method}`, { method })
}

export class AcpServer {
  readonly #ctx: Context
  readonly #opts: AcpServerOptions
  readonly #sessions = new Map<string, AcpSession>()
  /** The workspace context each session runs in. */
  readonly #workspaceOf = new WeakMap<AcpSession, AcpWorkspace>()
  #clientCapabilities: ClientCapabilities = {}

  constructor(ctx: Context, opts: AcpServerOptions) {
    this.#ctx = ctx
    this.#opts = opts
  }

  /** What the client said it can do at `initialize` (anything omitted is unsupported). */
  get clientCapabilities(): ClientCapabilities {
    return this.#clientCapabilities
  }

  /** The context a session runs in: the boot of its folder (`AcpServerOptions.workspace`), or the server's. */
  contextOf(session: AcpSession): Context {
    return this.#workspace(session).ctx
  }

  /** The ACP session an agent belongs to (a subagent's is its root agent's). */
  sessionOf(agent: { id: string; parent?: unknown } | undefined): AcpSession | undefined {
    let current = agent as { id: string; parent?: unknown } | undefined
    while (current) {
      const found = this.#sessions.get(current.id)
      if (found) return found
      current = current.parent as typeof current
    }
    return undefined
  }

  app(): AgentApp {
    return agentApp({ name: 'tack' })
      .onRequest(methods.agent.initialize, ({ params }) => this.#initialize(params.clientCapabilities))
      .onRequest(methods.agent.session.new, async ({ params, client }) => {
        const cwd = checkCwd(params.cwd)
        const workspace = await this.#workspaceFor(cwd)
        const handle = await workspace.ctx.agents.create({
          cwd,
          options: this.#agentOptions(workspace.defaults),
        })
        const session = this.#track(workspace, handle, client, workspace.defaults)
        await this.#connectMcp(session, params.mcpServers)
        this.#afterResponse(session)
        this.#askProjectMcp(session)
        return { sessionId: session.id, ...this.#state(session) }
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        checkCwd(params.cwd)
        const session = this.#sessions.get(params.sessionId) ?? (await this.#resume(params.sessionId, client))
        session.attach(client)
        await this.#connectMcp(session, params.mcpServers)
        if (params.cwd !== session.agent.cwd)
          this.#opts.warn(
            `tack acp: session ${session.id} keeps its workspace ${session.agent.cwd} (the client asked for ${params.cwd})`,
          )
        const env = this.#env(this.#workspace(session).ctx, session.agent)
        for (const update of replayUpdates(session.agent.session.events(), env)) session.send(update)
        await session.flushed()
        this.#afterResponse(session)
        this.#askProjectMcp(session)
        return this.#state(session)
      })
      .onRequest(methods.agent.session.prompt, async ({ params }) => {
        const session = this.#session(params.sessionId)
        const command = slashCommand(params.prompt)
        const registry = this.#commands(session)
        if (command && registry?.get(command.name)?.surfaces.includes('acp')) {
          const result = await registry.run(session.agent, command.name, command.input, { surface: 'acp' })
          // /permissions, /tools-mode and /model switch through the agent: the client hears of it.
          this.#adopt(session)
          if (result.kind === 'prompt') return session.prompt([{ type: 'text', text: result.text }])
          if (result.kind !== 'unknown') {
            const text =
              result.kind === 'text' || result.kind === 'choose'
                ? result.text
                : result.kind === 'error'
                  ? result.message
                  : ''
            session.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })
            await session.flushed()
            return { stopReason: 'end_turn' }
          }
        }
        return session.prompt(params.prompt)
      })
      .onRequest(methods.agent.session.close, async ({ params }) => {
        // Its turn cancelled, its log flushed, its editor-given MCP servers ended (50-acp.md, 55-mcp.md M12).
        const session = this.#session(params.sessionId)
        this.#sessions.delete(session.id)
        await session.dispose()
        return {}
      })
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        // A cancel for an unknown session, or with no turn running, is ignored (requirement 6).
        this.#sessions.get(params.sessionId)?.cancel()
      })
      .onRequest(methods.agent.session.setMode, async ({ params }) => {
        const session = this.#session(params.sessionId)
        await this.#apply(session, { ...session.choices, permissionMode: checkMode(params.modeId) })
        return {}
      })
      .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
        const session = this.#session(params.sessionId)
        await this.#apply(
          session,
          choose(session.choices, this.#space(session), params.configId, params.value),
        )
        return { configOptions: this.#configOptions(session) }
      })
      .onRequest('*', methodNotFound)
  }

  /** Disposes every session: cancels its turn, drains its hooks, flushes its log. */
  async disposeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()]
    this.#sessions.clear()
    await Promise.all(sessions.map((s) => s.dispose()))
  }

  #initialize(capabilities: ClientCapabilities | undefined): InitializeResponse {
    this.#clientCapabilities = capabilities ?? {}
    return {
      // tack speaks version 1 only: a request for any other gets 1, and the client decides.
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: { name: 'tack', title: 'tack', version: this.#opts.version },
      agentCapabilities: {
        loadSession: true,
        // Image blocks become image blocks of the prompt (prompt-content.ts); a model without image input
        // refuses the prompt before any request, saying why (acp-session.ts).
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        // The editor's servers of every transport @tack/mcp speaks (55-mcp.md M12); stdio is ACP's baseline.
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { close: {} },
      },
      authMethods: [],
    }
  }

  #defaults(): SessionChoices {
    return {
      permissionMode: this.#opts.permissionMode,
      toolsMode: this.#opts.toolsMode,
      model: this.#opts.model,
      effort: this.#opts.effort ?? 'default',
    }
  }

  #agentOptions(choices: SessionChoices) {
    return {
      config: {
        model: choices.model,
        ...(choices.effort !== 'default' ? { reasoningEffort: choices.effort } : {}),
      },
      permissionMode: choices.permissionMode,
      toolsMode: choices.toolsMode,
      labels: { acp: true },
    }
  }

  /** A stored session resumes in its own folder's context, under that folder's settings and trust. */
  async #resume(sessionId: string, client: AgentContext): Promise<AcpSession> {
    const stored = (await this.#ctx.sessions.list()).find((s) => s.id === sessionId)
    if (!stored) throw new RequestError(NOT_FOUND, `session not found: ${sessionId}`, { sessionId })
    if (!isDirectory(stored.cwd))
      throw RequestError.internalError(
        { sessionId },
        `session ${sessionId} ran in ${stored.cwd}, which no longer exists`,
      )
    const workspace = await this.#workspaceFor(stored.cwd)
    const { events } = await workspace.ctx.sessionStore.load(sessionId)
    const choices = storedChoices(events, workspace.defaults)
    const handle = await workspace.ctx.agents.resume(sessionId, this.#agentOptions(choices))
    return this.#track(workspace, handle, client, choices)
  }

  /**
   * The context for sessions in `cwd` (docs/decisions/0140-acp-trust-per-session.md): the embedder's,
   * booted for that folder, so its project config, hooks and plugins load under its own trust — never
   * under the trust of the folder the server was started in.
   */
  async #workspaceFor(cwd: string): Promise<AcpWorkspace> {
    if (!this.#opts.workspace) return { ctx: this.#ctx, defaults: this.#defaults() }
    let workspace: AcpWorkspace
    try {
      workspace = await this.#opts.workspace(cwd)
    } catch (error) {
      if (error instanceof RequestError) throw error
      // A broken project config or a model its settings cannot serve: the client reads why.
      throw RequestError.internalError({ cwd }, errorMessage(error))
    }
    // The workspace's AcpPlugin answers approvals and runs terminals for this server's sessions.
    ;(workspace.ctx.get('acp') as AcpService | undefined)?.attach(this)
    return workspace
  }

  #workspace(session: AcpSession): AcpWorkspace {
    return this.#workspaceOf.get(session) ?? { ctx: this.#ctx, defaults: this.#defaults() }
  }

  #track(
    workspace: AcpWorkspace,
    handle: AgentHandle,
    client: AgentContext,
    choices: SessionChoices,
  ): AcpSession {
    const session = new AcpSession({
      handle,
      client,
      choices,
      env: this.#env(workspace.ctx, handle.agent),
      warn: this.#opts.warn,
      readLink: (uri, signal) =>
        /^file:/i.test(uri)
          ? readFileLinkText(workspace.ctx, handle.agent, uri, signal, this.#opts.warn)
          : readResourceLink(workspace.ctx, handle.agent, uri, signal, this.#opts.warn),
      shapeFile: (uri, text) => shapeFileText(workspace.ctx, handle.agent.cwd, uri, text),
    })
    this.#sessions.set(session.id, session)
    this.#workspaceOf.set(session, workspace)
    return session
  }

  /** The session's cards: its agent's own tools (an editor's MCP servers) look as declared too. */
  #env(ctx: Context, agent: Agent): UpdateEnv {
    const tools = ctx.tools
    return {
      cwd: agent.cwd,
      look: {
        presentCall: (name, args) => tools.presentCall(name, args, agent),
        presentResult: (name, args, result) => tools.presentResult(name, args, result, agent),
      },
    }
  }

  #session(sessionId: string): AcpSession {
    const session = this.#sessions.get(sessionId)
    if (!session) throw new RequestError(NOT_FOUND, `session not found: ${sessionId}`, { sessionId })
    return session
  }

  #space(session: AcpSession): OptionSpace {
    const extra = this.#opts.models ?? []
    const { ctx, defaults } = this.#workspace(session)
    return {
      // Without a code runtime (plugins.codeRuntime: false) `code` and `both` would fail every turn.
      toolsModes: ctx.tools.codeModeAvailable() ? TOOLS_MODES : ['native'],
      models: (current) => [...new Set([current, defaults.model, ...extra, ...listedModels(ctx)])],
      effortRefused: (model) => {
        const support = llmOf(ctx)?.effortSupport(model)
        return support && !support.ok ? support.reason : undefined
      },
    }
  }

  #configOptions(session: AcpSession): SessionConfigOption[] {
    return configOptions(session.choices, this.#space(session))
  }

  #state(session: AcpSession): { modes: SessionModeState; configOptions: SessionConfigOption[] } {
    return { modes: modeState(session.choices), configOptions: this.#configOptions(session) }
  }

  /**
   * Applies new choices and tells the client what changed (requirement 7). A new model goes through
   * `agent/model-switch` first (as `/model` does): a denial keeps every choice and answers the request
   * with an error carrying the reason.
   */
  async #apply(session: AcpSession, next: SessionChoices): Promise<void> {
    if (next.model !== session.choices.model) {
      const decision = await switchAgentModel(
        this.contextOf(session),
        session.handle.agent,
        next.model,
        'client',
      )
      if (decision.action === 'deny')
        throw RequestError.invalidParams(
          { field: 'value' },
          `the switch to ${next.model} was refused: ${decision.reason}`,
        )
    }
    const modeChanged = next.permissionMode !== session.choices.permissionMode
    session.choose(next)
    if (modeChanged)
      session.send({ sessionUpdate: 'current_mode_update', currentModeId: next.permissionMode })
    session.send({ sessionUpdate: 'config_option_update', configOptions: this.#configOptions(session) })
  }

  /** Takes on the switches a command made on the agent itself, and tells the client (requirement 7). */
  #adopt(session: AcpSession): void {
    const agent = session.agent
    const before = session.choices
    const now: SessionChoices = {
      permissionMode: permissionModeOf(agent, before.permissionMode),
      toolsMode: toolsModeOf(agent) ?? before.toolsMode,
      model: agent.model,
      effort: switchedEffortOf(agent) ?? before.effort,
    }
    if (
      now.permissionMode === before.permissionMode &&
      now.toolsMode === before.toolsMode &&
      now.model === before.model &&
      now.effort === before.effort
    )
      return
    session.adopt(now)
    if (now.permissionMode !== before.permissionMode)
      session.send({ sessionUpdate: 'current_mode_update', currentModeId: now.permissionMode })
    session.send({ sessionUpdate: 'config_option_update', configOptions: this.#configOptions(session) })
  }

  /** Every session hears that the set of commands changed (a plugin loaded or went). */
  commandsChanged(): void {
    for (const session of this.#sessions.values())
      session.send({
        sessionUpdate: 'available_commands_update',
        availableCommands: acpCommands(this.#commands(session)),
      })
  }

  /** `available_commands_update` goes out after the response it follows (requirements 3, 4, 13). */
  #afterResponse(session: AcpSession): void {
    setImmediate(() =>
      session.send({
        sessionUpdate: 'available_commands_update',
        availableCommands: acpCommands(this.#commands(session)),
      }),
    )
  }

  /**
   * The folder's project MCP servers waiting for approval are put to the client once the response has
   * gone (the client knows the session id then); approved ones start for the folder's sessions.
   */
  #askProjectMcp(session: AcpSession): void {
    const approvals = this.#workspace(session).projectMcp
    if (!approvals) return
    setImmediate(() => {
      askProjectServers(session, approvals, this.#opts.warn).catch((error: unknown) =>
        this.#opts.warn(`tack acp: asking about project MCP servers failed: ${errorMessage(error)}`),
      )
    })
  }

  /** The session's workspace's slash-command registry (absent in a context that loads none). */
  #commands(session: AcpSession): CommandRegistry | undefined {
    return this.#workspace(session).ctx.get('commands') as CommandRegistry | undefined
  }

  /**
   * The editor's MCP servers for this session only (55-mcp.md M12): their tools are offered to, and
   * callable by, the session's agents (its subagents too), never another session's. A load names the
   * servers again: they replace the ones the session had.
   */
  async #connectMcp(session: AcpSession, servers: readonly McpServer[] | undefined): Promise<void> {
    const definitions = mcpDefinitions(servers, session.agent.cwd, this.#opts.warn)
    const audience = (agent: ToolAgent) => this.sessionOf(agent) === session
    // The old set ends first, so a server named again never has two sets' tools under one name.
    await session.useMcp(undefined)
    await session.useMcp(await connectSessionServers(this.contextOf(session), definitions, audience))
  }
}

/** `cwd` must be an absolute path to an existing directory (requirement 3). */
function checkCwd(cwd: unknown): string {
  if (typeof cwd !== 'string' || !isAbsolute(cwd))
    throw RequestError.invalidParams(
      { field: 'cwd' },
      `cwd must be an absolute path (got ${JSON.stringify(cwd)})`,
    )
  if (!isDirectory(cwd))
    throw RequestError.invalidParams({ field: 'cwd' }, `cwd ${cwd} is not an existing directory`)
  return cwd
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * A stored session's choices: the last of each logged change over the defaults. `agent/model` and
 * `tools/mode` are the switches every host logs; `acp/config` is what earlier versions logged, still read
 * so their sessions load with their choices.
 */
export function storedChoices(events: readonly SessionEvent[], defaults: SessionChoices): SessionChoices {
  let choices = defaults
  for (const event of events) {
    const e = event as AnySessionEvent
    if ((e.type as string) === 'permission/mode')
      choices = { ...choices, permissionMode: (event.data as { mode: PermissionMode }).mode }
    if ((e.type as string) === 'agent/model')
      choices = { ...choices, model: (event.data as { model: string }).model }
    if ((e.type as string) === 'agent/effort' && isEffortChoice((event.data as { effort?: unknown }).effort))
      choices = { ...choices, effort: (event.data as { effort: EffortChoice }).effort }
    if ((e.type as string) === 'tools/mode')
      choices = { ...choices, toolsMode: (event.data as { mode: ToolsMode }).mode }
    if ((e.type as string) === 'acp/config') {
      const { configId, value } = event.data as { configId: string; value: string }
      if (configId === 'model') choices = { ...choices, model: value }
      if (configId === 'tools_mode') choices = { ...choices, toolsMode: value as ToolsMode }
    }
  }
  return choices
}

/** What this package reads of `@tack/llm`'s `llmProviders` (structurally: the package does not depend on it). */
interface ModelLists {
  modelChoices(opts: { current?: string; configured?: string }): { choices: readonly { model: string }[] }
  effortSupport(model: string): { ok: true } | { ok: false; reason: string }
}

function llmOf(ctx: Context): ModelLists | undefined {
  return ctx.get('llmProviders') as ModelLists | undefined
}

/** The models the TUI's `/model` picker offers at once (the catalogue and config of usable providers). */
function listedModels(ctx: Context): string[] {
  return (
    llmOf(ctx)
      ?.modelChoices({})
      .choices.map((c) => c.model) ?? []
  )
}
