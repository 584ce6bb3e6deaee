// The bridge's core: per-agent state, transcripts, and running one point's hooks (40-hooks.md B3, B4).
// A point's matching handlers run one at a time in config order, all of them even after a block; only
// the seam's abort stops the rest. Each run is bracketed by `hook/invoked` and `hook/result` in the
// session log, and the transcript is brought up to date right before each spawn (B9).
import type { Agent } from '@tack/agent'
import {
  appendHookInvoked,
  appendHookResult,
  createDetachedRuns,
  type DetachedRuns,
  defaultHookBackend,
  type HookBackend,
  type HookInvocation,
  type HookOutput,
  matchesMatcher,
  type MergedHookOutcome,
  mergeHookOutputs,
  runHook,
} from '@tack/hook-protocol'
import { listenersOf, waterfall } from '@tack/kernel'
import type { Session } from '@tack/session'
import type { Context, Logger } from 'cordis'
import { boundOutput, fileSpill, type Spill } from './bounded-text.ts'
import { hookEnv, hookVariables, pluginDataDir, substitute } from './environment.ts'
import { ifMatches } from './if-condition.ts'
import { CallStarts, PromptIds, effortLevel } from './claude-fields.ts'
import { EnvFiles } from './env-file.ts'
import { basePayload, currentTurnOf, PermissionModeTracker, rootAgent } from './payload.ts'
import {
  type ClaudePayload,
  type ClaudePoint,
  HOOKS_CLAUDE_SOURCE,
  MATCHER_POINTS,
  TOOL_POINTS,
} from './protocol.ts'
import { isSettingsSource, type DiscoveredHandler } from './settings/source.ts'
import type { HookRegistry } from './settings/registry.ts'
import { sessionTranscriptPath, subagentTranscriptPath, TranscriptWriter } from './transcript/writer.ts'
import { join } from 'node:path'
import type { HandlerRun } from './handler-runs.ts'
import { UPDATED_MCP_OUTPUT_FIELD } from './points/mcp-output.ts'
import { type HostDeclarations, HostMappingReader } from '@tack/tools'
import './seams.ts'

export interface BridgeSettings {
  readonly projectDir?: string
  readonly stderrSummaryMaxChars: number
  readonly maxConsecutiveStopBlocks: number
  readonly awaitSessionStart: boolean
  readonly transcriptDir: string
  readonly dataDir: string
  readonly home: string
}

/** What the bridge keeps per agent. */
export class AgentHooks {
  /** Aborted when the agent starts disposing (or the plugin does): cuts every hook run of this agent. */
  readonly controller = new AbortController()
  /** Emit-shaped points and `async` hooks of this agent (A8). */
  readonly runs: DetachedRuns = createDetachedRuns()
  /** The SessionStart (SubagentStart) chain the first prompt waits for (B10). */
  pendingStart?: Promise<void>
  /** B7's loop guard: forced continuations in a row, within `turn`. */
  stopGuard = { turn: -1, consecutive: 0 }
  /** For seam work of a turn: aborted by the agent's disposal or by a cancel of the running turn. */
  turnSignal(agent: Agent): AbortSignal {
    const turn = agent.turnSignal
    return turn ? AbortSignal.any([this.controller.signal, turn]) : this.controller.signal
  }
  /** A signal for detached work: aborted by a drain or by the agent's disposal. */
  get detachedSignal(): AbortSignal {
    return AbortSignal.any([this.runs.signal, this.controller.signal])
  }
}

/** One point to run. */
export interface PointRequest {
  readonly point: ClaudePoint
  /** The agent the point is about: its workspace, permission mode and ids make the payload. */
  readonly agent: Agent
  /** Whose log gets the `hook/*` events; default `agent`. */
  readonly logAgent?: Agent
  /** The point's own payload fields (B8); they override base fields of the same name. */
  readonly fields: Readonly<Record<string, unknown>>
  /** Matcher subjects; ignored on points without matcher support. */
  readonly subjects?: readonly string[]
  /** Tool points: what `if` rules test. */
  readonly tool?: { readonly names: readonly string[]; readonly input: Readonly<Record<string, unknown>> }
  readonly toolCallId?: string
  /** Another agent whose transcript must be current too (the child, for SubagentStop). */
  readonly alsoSync?: Agent
  readonly signal: AbortSignal
  /** Runs `async: true` handlers' results through this (default: inject their context into `agent`). */
  readonly onAsync?: (output: HookOutput) => void
}

/** Points whose Claude Code payload has no `permission_mode`. */
const MODELESS_POINTS: ReadonlySet<ClaudePoint> = new Set(['SessionStart', 'SubagentStart'])
/** Points that carry the prompt's `prompt_id` and, with a tool context, `effort` (protocols.md §A.3). */
const PROMPT_POINTS: ReadonlySet<ClaudePoint> = new Set([
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'StopFailure',
])
/** Of those, the tool-context points (and Stop), which also carry `effort`. */
const EFFORT_POINTS: ReadonlySet<ClaudePoint> = new Set(
  [...PROMPT_POINTS].filter((p) => p !== 'UserPromptSubmit' && p !== 'StopFailure'),
)

/** Output fields a point reads itself from the hook's JSON (`raw`): not warned about as unsupported. */
const POINT_FIELDS: Partial<Record<ClaudePoint, ReadonlySet<string>>> = {
  PermissionRequest: new Set(['hookSpecificOutput.decision']),
  PostToolUse: new Set([UPDATED_MCP_OUTPUT_FIELD]),
}

function promptFields(bridge: ClaudeBridge, req: PointRequest): Record<string, unknown> {
  if (!PROMPT_POINTS.has(req.point)) return {}
  return {
    prompt_id: bridge.promptIds.current(req.agent),
    ...(EFFORT_POINTS.has(req.point) ? { effort: { level: effortLevel(req.agent) } } : {}),
  }
}

export class ClaudeBridge {
  readonly ctx: Context
  readonly settings: BridgeSettings
  readonly registry: HookRegistry
  readonly logger: Logger
  readonly backend: HookBackend
  readonly #states = new Map<Agent, AgentHooks>()
  readonly #writers = new WeakMap<Session, TranscriptWriter>()
  readonly #warned = new Set<string>()
  readonly #spill: Spill
  readonly #modes = new PermissionModeTracker()
  /** `prompt_id` of each top-level session's current prompt (issue 11.1). */
  readonly promptIds = new PromptIds()
  /** Tool calls between PreToolUse's approval and PostToolUse (`duration_ms`, `originalFile`). */
  readonly callStarts = new CallStarts()
  /** `CLAUDE_ENV_FILE` per session: SessionStart hooks append `export` lines, Bash calls source them. */
  readonly envFiles: EnvFiles
  /**
   * The registered tools as Claude Code sees them (each tool's `host.claude`), looked up per call, so
   * tools registered later keep their Claude names; a faulty declaration is warned.
   */
  readonly claudeTools: HostMappingReader

  constructor(ctx: Context, settings: BridgeSettings, registry: HookRegistry, backend = defaultHookBackend) {
    this.ctx = ctx
    this.settings = settings
    this.registry = registry
    this.logger = ctx.logger('hooks-claude')
    this.backend = backend
    this.#spill = fileSpill(join(settings.dataDir, 'claude-hook-output'))
    this.envFiles = new EnvFiles(join(settings.dataDir, 'claude-env'))
    const tools: HostDeclarations = { get: (name, agent) => this.ctx.get('tools')?.get(name, agent) }
    this.claudeTools = new HostMappingReader('claude', tools, (message) => this.warnOnce(message, message))
  }

  state(agent: Agent): AgentHooks {
    let st = this.#states.get(agent)
    if (!st) {
      st = new AgentHooks()
      this.#states.set(agent, st)
    }
    return st
  }

  /**
   * The agent is disposing: cut its runs now (dispose itself waits for the tracked chains, AL-24), and
   * forget its state once they have settled — until then a plugin dispose still waits for them too.
   */
  agentDisposing(agent: Agent): void {
    const st = this.#states.get(agent)
    if (!st) return
    st.controller.abort()
    void st.runs.drain().then(() => {
      if (this.#states.get(agent) === st) this.#states.delete(agent)
    })
  }

  /** Plugin dispose: abort every hook run and wait until all chains have settled (A8). */
  async drainAll(): Promise<void> {
    const states = [...this.#states.values()]
    for (const st of states) st.controller.abort()
    await Promise.all([...states.map((st) => st.runs.drain()), this.#endRuns.drain()])
  }

  /**
   * Runs that must finish even when their agent is disposing (SessionEnd starts then; StopFailure just
   * before a headless run ends): tracked by the plugin — cut only by the plugin's dispose — and by the
   * agent's disposal, which waits for them.
   */
  readonly #endRuns: DetachedRuns = createDetachedRuns()

  get endSignal(): AbortSignal {
    return this.#endRuns.signal
  }

  trackEnd(agent: Agent, chain: Promise<unknown>, what: string): void {
    void this.#trackFor(agent, this.#endRuns, chain, what)
  }

  /** Runs `chain` detached for `agent`: tracked by the agent's runs and by its disposal (A8, AL-24). */
  detach(agent: Agent, chain: Promise<unknown>, what: string): Promise<void> {
    return this.#trackFor(agent, this.state(agent).runs, chain, what)
  }

  /** `chain` with its failure warned, tracked by `runs` and by `agent`'s disposal (AL-24). */
  #trackFor(agent: Agent, runs: DetachedRuns, chain: Promise<unknown>, what: string): Promise<void> {
    const settled = chain.then(
      () => {},
      (error: unknown) =>
        this.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`),
    )
    runs.track(settled)
    const agents = this.ctx.get('agents') as
      | { trackDetached(a: Agent, p: Promise<unknown>): void }
      | undefined
    agents?.trackDetached(agent, settled)
    return settled
  }

  /** B9: `<transcriptDir>/<session>.jsonl`, or the subagent file under the top-level session's folder. */
  transcriptPath(agent: Agent): string {
    const root = rootAgent(agent)
    if (root === agent) return sessionTranscriptPath(this.settings.transcriptDir, agent.session.id)
    return subagentTranscriptPath(this.settings.transcriptDir, root.session.id, agent.id)
  }

  #writer(agent: Agent): TranscriptWriter {
    let w = this.#writers.get(agent.session)
    if (!w) {
      const root = rootAgent(agent)
      w = new TranscriptWriter(this.transcriptPath(agent), agent.session, {
        sessionId: root.session.id,
        logSessionId: agent.session.id,
        cwd: agent.cwd,
        ...(root !== agent ? { agentId: agent.id } : {}),
        tools: this.claudeTools,
      })
      this.#writers.set(agent.session, w)
    }
    return w
  }

  /** Brings the transcripts a hook may read up to date (synchronously, before the spawn). */
  syncTranscripts(...agents: Array<Agent | undefined>): void {
    const seen = new Set<Agent>()
    for (const a of agents) {
      if (!a) continue
      for (const target of [rootAgent(a), a]) {
        if (seen.has(target)) continue
        seen.add(target)
        const w = this.#writer(target)
        try {
          w.sync()
        } catch (error) {
          this.warnOnce(`transcript:${w.path}`, `could not write the transcript ${w.path}: ${String(error)}`)
        }
      }
    }
  }

  /** The payload of `req` as hooks get it. */
  payload(req: PointRequest): ClaudePayload {
    const base = basePayload(
      req.agent,
      req.point,
      this.transcriptPath(rootAgent(req.agent)),
      this.#modes.modeOf(req.agent),
    )
    const { permission_mode, ...rest } = base
    // Claude Code sends no permission_mode on SessionStart and SubagentStart (README "Differences").
    const withMode = MODELESS_POINTS.has(req.point) ? rest : base
    return { ...withMode, ...promptFields(this, req), ...req.fields } as ClaudePayload
  }

  /**
   * Whether anything may run at `point` for `agent` (on a tool point, for the Claude tool whose matcher
   * subjects are `subjects`): a listener on `hooks-claude/point` (the mod host's `classic.*` events), or
   * a runnable handler of the point whose matcher matches. `if` rules are not evaluated (a handler with
   * one may run), so a caller can ask before it has built the tool's input. When nothing may run, a point
   * costs nothing: no payload, no transcript sync, and PostToolUse does not read back the file a Read or
   * Edit touched (docs/decisions/0067-long-session-cost.md).
   */
  mayRun(point: ClaudePoint, agent: Agent, subjects: readonly string[] = []): boolean {
    if (listenersOf(this.ctx, 'hooks-claude/point').length > 0) return true
    const hooks = this.registry.forWorkspace(agent.cwd)
    return hooks.handlers.some(
      (h) =>
        h.event === point &&
        this.registry.status(h, hooks).runs &&
        (!MATCHER_POINTS.has(point) || matchesMatcher('claude', h.matcher, subjects)),
    )
  }

  /**
   * Runs a point: raises `hooks-claude/point` around the hooks and returns the merged outcome. `runs`,
   * when given, receives each handler's own output in config order (for what a merge does not keep:
   * which command blocked, a point's own JSON fields); a listener that answers without `next()` leaves it empty.
   */
  async runPoint(req: PointRequest, runs?: HandlerRun[]): Promise<MergedHookOutcome> {
    // Nothing listens and no handler matches: the outcome of running no hooks, without building a payload.
    if (!this.mayRun(req.point, req.agent, req.subjects)) return mergeHookOutputs([])
    const payload = this.payload(req)
    return waterfall(this.ctx, 'hooks-claude/point', [req.point, payload], (_point, replaced) =>
      this.#runHandlers(req, replaced ?? payload, runs),
    )
  }

  /** The handlers that run for `req`, in config order (B1 de-duplication applied). */
  selectHandlers(req: PointRequest): DiscoveredHandler[] {
    const hooks = this.registry.forWorkspace(req.agent.cwd)
    const selected: DiscoveredHandler[] = []
    const seen = new Set<string>()
    const projectDir = this.settings.projectDir ?? req.agent.cwd
    for (const h of hooks.handlers) {
      if (h.event !== req.point) continue
      if (!this.registry.status(h, hooks).runs) continue
      if (MATCHER_POINTS.has(req.point) && !matchesMatcher('claude', h.matcher, req.subjects ?? [])) continue
      if (h.handler.if !== undefined) {
        if (!TOOL_POINTS.has(req.point) || !req.tool) continue
        const subject = {
          toolNames: req.tool.names,
          toolInput: req.tool.input,
          projectDir,
          home: this.settings.home,
        }
        if (!ifMatches(h.handler.if, subject)) continue
      }
      if (isSettingsSource(h.source)) {
        // An identical handler (command + args + if) in two settings files runs once.
        const key = JSON.stringify([h.handler.command, h.handler.args ?? null, h.handler.if ?? null])
        if (seen.has(key)) continue
        seen.add(key)
      }
      selected.push(h)
    }
    return selected
  }

  async #runHandlers(
    req: PointRequest,
    payload: ClaudePayload,
    runs?: HandlerRun[],
  ): Promise<MergedHookOutcome> {
    const outputs: HookOutput[] = []
    for (const h of this.selectHandlers(req)) {
      if (req.signal.aborted) break
      if (h.handler.async === true || h.handler.asyncRewake === true) {
        this.#startAsync(req, payload, h)
        continue
      }
      const output = await this.runOne(req, payload, h, req.signal)
      outputs.push(output)
      runs?.push({ handler: h, output })
    }
    return mergeHookOutputs(outputs)
  }

  /** One handler: `hook/invoked`, transcript sync, the run, bounded texts, `hook/result`, warnings. */
  async runOne(
    req: PointRequest,
    payload: ClaudePayload,
    h: DiscoveredHandler,
    signal: AbortSignal,
  ): Promise<HookOutput> {
    const logSession = (req.logAgent ?? req.agent).session
    const invocation: HookInvocation = {
      turn: currentTurnOf(logSession),
      point: req.point,
      dialect: 'claude',
      handlerId: h.id,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      ...(req.toolCallId !== undefined ? { toolCallId: req.toolCallId } : {}),
    }
    this.#log(() => appendHookInvoked(logSession, invocation))
    this.syncTranscripts(req.agent, req.logAgent, req.alsoSync)

    const vars = hookVariables(
      this.settings.projectDir ?? req.agent.cwd,
      h.source.pluginRoot
        ? { root: h.source.pluginRoot, data: pluginDataDir(this.settings.dataDir, h.source.pluginRoot) }
        : undefined,
    )
    const command = substitute(String(h.handler.command), vars)
    const args = Array.isArray(h.handler.args)
      ? h.handler.args.map((a) => substitute(String(a), vars))
      : undefined
    const timeout = typeof h.handler.timeout === 'number' ? h.handler.timeout : undefined
    const raw = await runHook(
      this.backend,
      { command, ...(args ? { args } : {}), ...(timeout !== undefined ? { timeout } : {}) },
      {
        dialect: 'claude',
        event: req.point,
        payload,
        env: { ...hookEnv(vars), ...this.#claudeEnv(req) },
        cwd: req.agent.cwd,
        signal,
      },
    )
    const output = boundOutput(raw, this.#spill)
    this.#log(() =>
      appendHookResult(logSession, {
        invocation,
        output,
        stderrSummaryMaxChars: this.settings.stderrSummaryMaxChars,
      }),
    )
    this.#report(h, output, POINT_FIELDS[req.point])
    return output
  }

  /** The variables Claude Code sets for a hook (issue 11.4; protocols.md §A.2), beyond B2's. */
  #claudeEnv(req: PointRequest): Record<string, string> {
    const root = rootAgent(req.agent)
    return {
      CLAUDECODE: '1',
      CLAUDE_CODE_SESSION_ID: root.session.id,
      CLAUDE_EFFORT: effortLevel(req.agent),
      CLAUDE_CODE_ENTRYPOINT: root.options.labels?.headless === true ? 'sdk-cli' : 'cli',
      AI_AGENT: 'tack',
      ...(req.point === 'SessionStart' ? { CLAUDE_ENV_FILE: this.envFiles.prepare(root) } : {}),
    }
  }

  #startAsync(req: PointRequest, payload: ClaudePayload, h: DiscoveredHandler): void {
    if (h.handler.asyncRewake === true) {
      this.warnOnce(`rewake:${h.id}`, `${h.id}: asyncRewake is not supported; the hook runs as async: true`)
    }
    const st = this.state(req.agent)
    const chain = this.runOne(req, payload, h, st.detachedSignal).then((output) => {
      if (st.detachedSignal.aborted) return
      if (req.onAsync) req.onAsync(output)
      else
        this.injectContexts(
          req.agent,
          req.point,
          output.additionalContext ? [output.additionalContext] : [],
          [],
        )
    })
    this.detach(req.agent, chain, `async hook ${h.id}`)
  }

  /**
   * Injects context for the model, as Claude Code words it: plain stdout as `<Point> hook success: …`,
   * additionalContext as `<Point> hook additional context: …` (B5 source `hooks-claude`).
   */
  injectContexts(agent: Agent, label: string, contexts: readonly string[], plain: readonly string[]): void {
    for (const text of contextTexts(label, contexts, plain)) {
      try {
        agent.inject({ content: text, source: HOOKS_CLAUDE_SOURCE })
      } catch (error) {
        this.warn(
          `${label} context was not injected: ${error instanceof Error ? error.message : String(error)}`,
        )
        return
      }
    }
  }

  #report(h: DiscoveredHandler, output: HookOutput, read?: ReadonlySet<string>): void {
    if (output.failed && !output.aborted) {
      const detail = output.stderr ? `: ${output.stderr.split('\n')[0]}` : ''
      this.warn(`hook ${h.id} failed (${output.failure ?? 'error'})${detail}; it is ignored`)
    }
    for (const field of output.unsupported ?? []) {
      if (read?.has(field)) continue
      this.warnOnce(
        `field:${h.id}:${field}`,
        `hook ${h.id}: output field ${field} is not supported by tack; ignored`,
      )
    }
  }

  #log(append: () => void): void {
    try {
      append()
    } catch (error) {
      this.warnOnce(
        'log',
        `could not log a hook event: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  warn(message: string): void {
    this.logger.warn('%s', message)
  }

  warnOnce(key: string, message: string): void {
    if (this.#warned.has(key)) return
    this.#warned.add(key)
    this.warn(message)
  }
}

/** The texts a point's contexts become, in order: plain stdout first, then additionalContext. */
export function contextTexts(label: string, contexts: readonly string[], plain: readonly string[]): string[] {
  return [
    ...plain.map((s) => `${label} hook success: ${s}`),
    ...contexts.map((c) => `${label} hook additional context: ${c}`),
  ]
}
