// One ACP session: a tack agent plus what the client sees of it. Updates are sent in log order through
// one queue (requirement 8); a prompt settles when its own turn ends and every update of that turn has
// been written (requirements 5 and 6).
import type {
  AgentContext,
  ContentBlock as AcpBlock,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk'
import { type Agent, type AgentHandle, setAgentEffort } from '@tack/agent'
import type { ServerSet } from '@tack/mcp'
import { setPermissionMode } from '@tack/permissions'
import { type ApprovalAnswer, type ApprovalRequest, setToolsMode, type ToolExecution } from '@tack/tools'
import type { SessionChoices } from './options.ts'
import { PERMISSION_OPTIONS, ruleKey, SessionRules } from './permission.ts'
import { previewContent } from './result-content.ts'
import { type FileShaper, type LinkReader, promptContent, withLinkedResources } from './prompt-content.ts'
import { stopReasonOf } from './stop-reason.ts'
import { LiveUpdates, toolCallUpdate, type UpdateEnv } from './updates.ts'

export class AcpSession {
  readonly id: string
  readonly handle: AgentHandle
  readonly rules = new SessionRules()
  #client: AgentContext
  #choices: SessionChoices
  #queue: Promise<void> = Promise.resolve()
  /** Set on dispose: the client is gone, so what the ending turn still logs is not sent. */
  #closed = false
  readonly #live: LiveUpdates
  readonly #env: UpdateEnv
  readonly #warn: (line: string) => void
  readonly #unsubscribe: () => void
  /** The MCP servers the editor named for this session (session-mcp.ts). */
  #mcp?: ServerSet
  readonly #readLink: (uri: string, signal: AbortSignal) => Promise<string | undefined>
  readonly #shapeFile: FileShaper | undefined
  /** Aborted by a cancel while the prompt's resource links are read (before the turn starts). */
  #reading?: AbortController

  constructor(init: {
    handle: AgentHandle
    client: AgentContext
    choices: SessionChoices
    env: UpdateEnv
    warn: (line: string) => void
    /** The text of a linked resource an MCP server of the session offers (session-mcp.ts). */
    readLink: (uri: string, signal: AbortSignal) => Promise<string | undefined>
    /** An embedded file's text as `read` shows it (file-links.ts); absent: as given. */
    shapeFile?: FileShaper
  }) {
    this.#readLink = init.readLink
    this.#shapeFile = init.shapeFile
    this.handle = init.handle
    this.id = init.handle.agent.session.id
    this.#client = init.client
    this.#choices = init.choices
    this.#env = init.env
    this.#warn = init.warn
    this.#live = new LiveUpdates(init.env)
    this.#unsubscribe = this.agent.session.subscribe((event) => {
      for (const update of this.#live.translate(event)) this.send(update)
    })
  }

  get agent(): Agent {
    return this.handle.agent
  }

  get client(): AgentContext {
    return this.#client
  }

  get choices(): SessionChoices {
    return this.#choices
  }

  /** The latest request's client context (a load from another connection takes the session over). */
  attach(client: AgentContext): void {
    this.#client = client
  }

  /** Queues one update; updates leave in the order they were queued. */
  send(update: SessionUpdate): void {
    if (this.#closed) return
    const client = this.#client
    this.#queue = this.#queue
      .then(() => client.notify('session/update', { sessionId: this.id, update }))
      .catch((error: unknown) =>
        this.#warn(`tack acp: a session/update could not be sent: ${messageOf(error)}`),
      )
  }

  /** Resolves when every update queued so far has been written. */
  flushed(): Promise<void> {
    return this.#queue
  }

  async prompt(blocks: readonly AcpBlock[]): Promise<PromptResponse> {
    const reading = new AbortController()
    this.#reading = reading
    const read: LinkReader = (uri) => this.#readLink(uri, reading.signal)
    let content: Awaited<ReturnType<typeof withLinkedResources>>
    try {
      content = await withLinkedResources(blocks, promptContent(blocks), read, this.#shapeFile)
    } catch (error) {
      if (reading.signal.aborted) return { stopReason: 'cancelled' }
      throw error
    } finally {
      this.#reading = undefined
    }
    const outcome = await this.agent.send({ content, source: { kind: 'user' } })
    // A prompt refused on admission (a hook, or images for a model that takes none): the person reads
    // why in the agent's words, as `tack run` prints it on stderr; the stop reason stays `cancelled`.
    if (outcome.reason.kind === 'rejected')
      this.send({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: outcome.reason.reason },
      })
    // A cancelled call whose result never reached the log still gets its final status.
    for (const callId of this.#live.openCalls())
      if (outcome.reason.kind !== 'completed')
        this.send({ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'failed' })
    await this.flushed()
    return { stopReason: stopReasonOf(outcome.reason, outcome.turn, this.agent.session.events()) }
  }

  cancel(): void {
    this.#reading?.abort()
    if (this.agent.status === 'running') this.agent.cancel('cancelled by the client')
  }

  /** Records choices already in force on the agent (a slash command switched them and logged it). */
  adopt(next: SessionChoices): void {
    this.#choices = next
  }

  /** Applies and logs a new set of choices (requirement 7). */
  choose(next: SessionChoices): void {
    const before = this.#choices
    this.#choices = next
    if (next.permissionMode !== before.permissionMode) setPermissionMode(this.agent, next.permissionMode)
    // The same logged switch as `/tools-mode` (`tools/mode`), which a load restores; the next request's
    // header records it (TL-36). A new model was switched already, through `agent/model-switch` (the server).
    if (next.toolsMode !== before.toolsMode) setToolsMode(this.agent, next.toolsMode)
    // As `/effort` logs it (`agent/effort`); a load restores it.
    if (next.effort !== before.effort) setAgentEffort(this.agent, next.effort)
  }

  /** Asks the client about one `ask` decision, unless a rule of this session already answers it. */
  async requestPermission(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const key = ruleKey(req)
    const known = this.rules.match(key)
    if (known) return known
    const args = (req.exec.arguments ?? {}) as Record<string, unknown>
    this.#announce(req.exec.callId, req.exec.name, args)
    const call = toolCallUpdate(this.#env, req.exec.callId, { name: req.exec.name, args })
    const { sessionUpdate: _, ...toolCall } = call as SessionUpdate & { sessionUpdate: 'tool_call' }
    // A write or an edit shows the exact change its dry run computed, in place of the requested strings.
    const preview = previewContent(req.preview, this.#env.cwd)
    const params: RequestPermissionRequest = {
      sessionId: this.id,
      toolCall: preview ? { ...toolCall, content: preview } : toolCall,
      options: [...PERMISSION_OPTIONS],
    }
    // Updates of the call go out before the question about it.
    await this.flushed()
    const response = await this.#client.request('session/request_permission', params, {
      cancellationSignal: req.signal,
      stopWaitingOnCancel: true,
    })
    return this.rules.answer(response.outcome, key)
  }

  /**
   * Puts a question of tack's own (not about a tool call: a project MCP server's approval, project-mcp.ts)
   * to the client, after every update queued so far.
   */
  async ask(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    await this.flushed()
    return this.#client.request('session/request_permission', params)
  }

  /** Marks a call as running (after its permission, before its body). */
  started(exec: Pick<ToolExecution, 'callId' | 'name' | 'arguments'>): void {
    this.#announce(exec.callId, exec.name, (exec.arguments ?? {}) as Record<string, unknown>)
    this.send({ sessionUpdate: 'tool_call_update', toolCallId: exec.callId, status: 'in_progress' })
  }

  /** A running call's command runs in the client's terminal `terminalId`: its card shows it live. */
  showTerminal(callId: string, terminalId: string): void {
    this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
    })
  }

  /** A Code Mode sub-call gets its `tool_call` before anything else is said about it. */
  #announce(callId: string, name: string, args: Record<string, unknown>): void {
    for (const update of this.#live.announce(callId, { name, args })) this.send(update)
  }

  /** Takes on the editor's servers for this session; the ones it had before are closed. */
  async useMcp(servers: ServerSet | undefined): Promise<void> {
    const before = this.#mcp
    this.#mcp = servers
    await before?.close()
  }

  async dispose(): Promise<void> {
    this.#closed = true
    this.cancel()
    this.#unsubscribe()
    try {
      await this.handle.dispose('exit')
    } finally {
      await this.useMcp(undefined)
    }
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
