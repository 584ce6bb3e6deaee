// The tool registry service `ctx.tools` (TL-1, TL-2, TL-3) and the plugin that provides it.
// `register` is called through cordis's service tracking, so `this.ctx` inside it is the *caller's*
// context: the registration is an effect of the registering plugin and is undone when that plugin is
// disposed, as well as by the returned disposer.
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import type { ToolSchema } from '@tack/session'
import { type Context, type Logger, Service } from 'cordis'
import { checkToolDefinition } from './define-tool.ts'
import { codeUnitOrder } from './code-mode/json-schema-to-ts.ts'
import { runCodeTool, typescriptRuntime } from './code-mode/run-code.ts'
import { RUN_CODE, sdkSectionText } from './code-mode/sdk.ts'
import { CodeModeUnavailableError, ToolRegistrationError } from './errors.ts'
import { TOOLS_MODES, type ToolsMode, toolsModeOf } from './modes.ts'
import { executeCall, type PipelineEnv, type PipelineTool } from './pipeline/execute.ts'
import { loadedTools } from './deferred.ts'
import { presentCall, presentResult } from './present.ts'
import type { CallPresentation, ResultPresentation } from './presentation.ts'
import type {
  ApprovalService,
  ToolAgent,
  ToolAudience,
  ToolCallRequest,
  ToolDefinition,
  ToolExecutionResult,
  ToolRegistry,
  ToolResultView,
} from './types.ts'

declare module 'cordis' {
  interface Context {
    /** The tool registry (@tack/tools). */
    tools: ToolRegistry
    /** Answers `ask` decisions; optional — without it an `ask` is denied (TL-5). Provided by a UI or a rule engine. */
    approval: ApprovalService
  }
}

export const ToolsConfig = Schema.object({
  mode: Schema.enum(TOOLS_MODES, {
    default: 'native',
    description:
      'How tools reach the model (TL-19): `native` sends every tool schema; `code` sends only `run_code` and describes the tools as a TypeScript API in the system prompt (Code Mode, needs the code-runtime plugin); `both` does both.',
  }),
  dispatchSummaryMaxChars: Schema.integer({
    default: 500,
    min: 0,
    max: 1_000_000,
    description:
      "Characters of a Code Mode sub-call's result kept in its `tool/code-dispatch` log event (TL-27); the program itself gets the whole result.",
  }),
  dispatchArgumentsMaxChars: Schema.integer({
    default: 64_000,
    min: 256,
    max: 64 * 1024 * 1024,
    description:
      "Characters of a Code Mode sub-call's argument JSON kept in its `tool/code-dispatch` log event; past it the longest strings are logged by size and SHA-256 instead of content (and the event's `argumentsOmitted` names the size and SHA-256 of the whole argument). The default matches the code runtime's `maxLogBytes`.",
  }),
  progressIntervalMs: Schema.integer({
    default: 250,
    min: 0,
    max: 600_000,
    description:
      "Milliseconds between two `tool/progress` events of one call (a tool's progress reports, e.g. an MCP server's notifications); reports in between are dropped, so a chatty server cannot flood the session log. 0 logs every one.",
  }),
  maxImageBytes: Schema.integer({
    default: 3_932_160,
    min: 0,
    max: 20 * 1024 * 1024,
    description:
      "Decoded bytes of the images one tool result keeps (an MCP server's images), counted in order: an image that would pass the bound is replaced by a note naming its type and size. The default, 3.75 MiB, is 5 MiB as base64: Anthropic's limit per image; 0 keeps no images.",
  }),
  maxImageLongEdge: Schema.integer({
    default: 8000,
    min: 1,
    max: 100_000,
    description:
      "Pixels of the longer side of an image in a tool result (an MCP server's, `read`'s), read from its header: past it the image is replaced by a note naming its size. The default is Anthropic's limit (it refuses an image past 8000 px, which would fail every later request).",
  }),
  approvalPreviewMaxChars: Schema.integer({
    default: 20_000,
    min: 0,
    max: 1_000_000,
    description:
      "Characters of the change an approval question shows (docs/decisions/0300-approval-shows-the-change.md): a `write` or `edit` that asks shows the diff its dry run computed, cut here at a line with a note of how many lines are not shown. 0 shows no preview (the call's own arguments still are).",
  }),
  abortGraceMs: Schema.integer({
    default: 10_000,
    min: 0,
    max: 600_000,
    description:
      'After a timeout or abort, how long a tool body may take to settle with its own result before the call ends without it (keep it above the longest tool kill ladder, e.g. bash graceMs).',
  }),
})
export type ToolsConfig = ConfigOf<typeof ToolsConfig>

interface Entry extends PipelineTool {
  readonly wire: ToolSchema
  /** Set for a tool only some agents see (`register(def, audience)`). */
  readonly audience?: ToolAudience
}

/** Mutable state lives here, never in fields of the (proxied) service object. */
interface State {
  readonly home: Context
  readonly entries: Map<string, Entry>
  /** Tools registered for some agents only: outside the caches, looked up per agent. */
  readonly scoped: Set<Entry>
  readonly inflight: Set<Promise<unknown>>
  /** Per tools mode (TL-36: agents may differ), rebuilt when the tool set changes. */
  readonly wire: Map<ToolsMode, readonly ToolSchema[]>
  readonly names: Map<ToolsMode, readonly string[]>
  /** The SDK section, by the deferred tools loaded (none: the empty key). */
  readonly sdk: Map<string, string>
  readonly runCode: Map<ToolsMode, Entry>
}

export class ToolRegistryService extends Service implements ToolRegistry {
  readonly config: ToolsConfig
  private readonly state: State

  constructor(ctx: Context, config: ToolsConfig) {
    super(ctx, 'tools')
    this.config = config
    this.state = {
      home: ctx,
      entries: new Map(),
      scoped: new Set(),
      inflight: new Set(),
      wire: new Map(),
      names: new Map(),
      sdk: new Map(),
      runCode: new Map(),
    }
  }

  register(def: ToolDefinition, audience?: ToolAudience): () => void {
    const validator = checkToolDefinition(def)
    if (def.name === RUN_CODE)
      throw new ToolRegistrationError(
        'DUPLICATE_TOOL',
        RUN_CODE,
        `"${RUN_CODE}" is reserved for Code Mode (TL-19)`,
      )
    const { entries } = this.state
    const name = def.name
    const entry: Entry = Object.freeze({
      def,
      validator,
      wire: Object.freeze({ name, description: def.description, parameters: validator.wire }),
      ...(audience ? { audience } : {}),
    })
    if (audience) return this.registerScoped(entry)
    const dispose = this.ctx.effect(
      () => {
        const taken = entries.get(name)
        if (taken)
          throw new ToolRegistrationError(
            'DUPLICATE_TOOL',
            name,
            `a tool named "${name}" is already registered`,
          )
        entries.set(name, entry)
        this.changed()
        return () => {
          if (entries.get(name) !== entry) return
          entries.delete(name)
          this.changed()
        }
      },
      `tools.register(${JSON.stringify(name)})`,
    )
    return () => {
      void dispose()
    }
  }

  /**
   * A tool only its audience sees (an ACP session's own MCP servers, docs/decisions/0232-acp-mcp-servers.md).
   * Two audiences may each have a tool of one name; a name every agent sees is refused, so a call's name
   * never means two tools for one agent.
   */
  private registerScoped(entry: Entry): () => void {
    const { entries, scoped } = this.state
    const name = entry.def.name
    const dispose = this.ctx.effect(
      () => {
        if (entries.has(name))
          throw new ToolRegistrationError(
            'DUPLICATE_TOOL',
            name,
            `a tool named "${name}" is already registered`,
          )
        scoped.add(entry)
        return () => {
          scoped.delete(entry)
        }
      },
      `tools.register(${JSON.stringify(name)}, audience)`,
    )
    return () => {
      void dispose()
    }
  }

  // The per-call methods below are arrow fields, not prototype methods: cordis hands the service out
  // through a tracing proxy, and a prototype method called on it sees that proxy as `this`, so every
  // `this.x` inside (state, config, the private helpers) went through the proxy again, building shadow
  // contexts and proxies each time — several per tool call. An arrow field's `this` is the service
  // itself (docs/decisions/0067-long-session-cost.md). `register` stays a method: its `this.ctx`
  // must be the caller's context, so a registration is the registering plugin's effect.

  readonly schemas = (agent?: ToolAgent): readonly ToolSchema[] => {
    const mode = this.modeOf(agent)
    if (mode !== 'native') this.requireRuntime(mode)
    const hidden = this.hiddenFor(agent)
    const own = this.scopedOf(agent)
    if (own.length > 0 && mode !== 'code')
      return Object.freeze(
        this.wireEntries(mode, own).flatMap((entry) => (hidden(entry.def.name) ? [] : [entry.wire])),
      )
    let wire = this.state.wire.get(mode)
    if (!wire) {
      wire = Object.freeze(this.wireEntries(mode).map((entry) => entry.wire))
      this.state.wire.set(mode, wire)
    }
    return wire.some((tool) => hidden(tool.name))
      ? Object.freeze(wire.filter((tool) => !hidden(tool.name)))
      : wire
  }

  readonly sdkSection = (agent?: ToolAgent): string => {
    const mode = this.modeOf(agent)
    if (mode === 'native') return ''
    this.requireRuntime(mode)
    const defs = this.offered(agent)
    const key = defs.flatMap((def) => (def.deferred ? [def.name] : [])).join('\u0000')
    let text = this.state.sdk.get(key)
    if (text === undefined) {
      text = sdkSectionText(defs)
      this.state.sdk.set(key, text)
    }
    return text
  }

  codeModeAvailable(): boolean {
    return typescriptRuntime(this.state.home) !== undefined
  }

  readonly get = (name: string, agent?: ToolAgent): ToolDefinition | undefined =>
    this.lookup(name, this.config.mode, agent)?.def

  // `?.`: TL-3, even a malformed (null) call resolves; the pipeline reports it.
  readonly execute = (call: ToolCallRequest): Promise<ToolExecutionResult> =>
    executeCall(this.env(this.modeOf(call?.agent), call?.agent), call)

  readonly presentCall = (name: string, args: unknown, agent?: ToolAgent): CallPresentation =>
    presentCall(this.lookup(name, this.config.mode, agent), name, args, this.logger())

  readonly presentResult = (
    name: string,
    args: unknown,
    result: ToolResultView,
    agent?: ToolAgent,
  ): ResultPresentation =>
    presentResult(this.lookup(name, this.config.mode, agent), name, args, result, this.logger())

  async settled(): Promise<void> {
    const { inflight } = this.state
    while (inflight.size > 0) await Promise.allSettled([...inflight])
  }

  /** TL-36: the agent's own tools mode when it has one, else the configured one. */
  private modeOf(agent: ToolAgent | undefined): ToolsMode {
    return toolsModeOf(agent) ?? this.config.mode
  }

  /** The registered tools every agent sees, offered to `agent` (a deferred one once loaded for it), sorted. */
  private offered(agent: ToolAgent | undefined): ToolDefinition[] {
    const hidden = this.hiddenFor(agent)
    return this.sorted().flatMap((entry) => (hidden(entry.def.name) ? [] : [entry.def]))
  }

  /**
   * A deferred tool not loaded for `agent` is neither offered to nor callable by its model (deferred.ts);
   * this holds for `agent`'s own (audience) tools as for everyone's.
   */
  private hiddenFor(agent: ToolAgent | undefined): (name: string) => boolean {
    const { entries } = this.state
    const loaded = loadedTools(agent)
    const own = this.scopedOf(agent)
    return (name) =>
      (entries.get(name) ?? own.find((entry) => entry.def.name === name))?.def.deferred === true &&
      !loaded.has(name)
  }

  private env(mode: ToolsMode, agent: ToolAgent | undefined): PipelineEnv {
    const { home, inflight } = this.state
    const hidden = this.hiddenFor(agent)
    return {
      ctx: home,
      logger: this.logger(),
      abortGraceMs: this.config.abortGraceMs,
      progressIntervalMs: this.config.progressIntervalMs,
      maxImageBytes: this.config.maxImageBytes,
      maxImageLongEdge: this.config.maxImageLongEdge,
      approvalPreviewMaxChars: this.config.approvalPreviewMaxChars,
      lookup: (name) => (hidden(name) ? undefined : this.lookup(name, mode, agent)),
      names: () => {
        let names = this.state.names.get(mode)
        if (!names) {
          names = Object.freeze(this.wireEntries(mode).map((entry) => entry.def.name))
          this.state.names.set(mode, names)
        }
        // The agent's own (audience) tools are callable too, so the list that answers a wrong name names them.
        const own = this.scopedOf(agent).map((entry) => entry.def.name)
        return [...names, ...own].filter((name) => !hidden(name))
      },
      track: (body) => {
        inflight.add(body)
        void body.finally(() => inflight.delete(body))
      },
    }
  }

  private logger(): Logger {
    return this.state.home.logger('tools')
  }

  /** A registered tool (one every agent sees, else one of `agent`'s own), or run_code in a non-native mode. */
  private lookup(name: string, mode: ToolsMode, agent?: ToolAgent): Entry | undefined {
    if (name === RUN_CODE && mode !== 'native') return this.runCode(mode)
    return this.state.entries.get(name) ?? this.scopedOf(agent).find((entry) => entry.def.name === name)
  }

  /** The tools registered for an audience `agent` belongs to (none without an agent). */
  private scopedOf(agent: ToolAgent | undefined): Entry[] {
    const { scoped } = this.state
    if (!agent || scoped.size === 0) return []
    return [...scoped].filter((entry) => entry.audience?.(agent) === true)
  }

  /**
   * The tools the model is offered in `mode`, sorted by name (TL-2, TL-19), with `own` (an agent's
   * scoped tools) among them. Code Mode's SDK lists only the tools every agent sees.
   */
  private wireEntries(mode: ToolsMode, own: readonly Entry[] = []): Entry[] {
    const native = () =>
      own.length === 0
        ? this.sorted()
        : [...this.sorted(), ...own].sort((a, b) => codeUnitOrder(a.def.name, b.def.name))
    switch (mode) {
      case 'native':
        return native()
      case 'code':
        return [this.runCode(mode)]
      case 'both':
        return [...native(), this.runCode(mode)].sort((a, b) => codeUnitOrder(a.def.name, b.def.name))
      default:
        return mode satisfies never
    }
  }

  private runCode(mode: ToolsMode): Entry {
    let entry = this.state.runCode.get(mode)
    if (!entry) {
      const def = runCodeTool({
        home: this.state.home,
        tools: this,
        toolDefinitions: (agent) => this.offered(agent),
        summaryMaxChars: this.config.dispatchSummaryMaxChars,
        argumentsMaxChars: this.config.dispatchArgumentsMaxChars,
        mode,
      })
      const validator = checkToolDefinition(def)
      entry = Object.freeze({
        def,
        validator,
        wire: Object.freeze({ name: def.name, description: def.description, parameters: validator.wire }),
      })
      this.state.runCode.set(mode, entry)
    }
    return entry
  }

  /** TL-20: a non-native mode without a TypeScript runtime fails every prompt assembly. */
  private requireRuntime(mode: ToolsMode): void {
    if (!typescriptRuntime(this.state.home)) throw new CodeModeUnavailableError(mode)
  }

  private sorted(): Entry[] {
    // Code-unit order, independent of locale and of registration order (TL-2).
    return [...this.state.entries.values()].sort((a, b) => codeUnitOrder(a.def.name, b.def.name))
  }

  private changed(): void {
    this.state.wire.clear()
    this.state.names.clear()
    this.state.sdk.clear()
  }
}

/** The plugin providing `ctx.tools`. */
export const ToolsPlugin = definePlugin({
  name: 'tools',
  Config: ToolsConfig,
  apply(ctx, config) {
    new ToolRegistryService(ctx, config)
  },
})

/**
 * Registers `def` on the registry as an effect of `ctx`'s plugin: disposing that plugin (or calling
 * the returned disposer) removes the tool. Works from any context, with or without `inject: ['tools']`.
 */
export function registerTool(ctx: Context, def: ToolDefinition, audience?: ToolAudience): () => void {
  const registry = ctx.get('tools') as ToolRegistry | undefined
  if (!registry) throw new Error('registerTool: no tool registry is mounted (load ToolsPlugin first)')
  return registry.register(def, audience)
}
