// The tool registry service `ctx.tools` (TL-1, TL-2, TL-3) and the plugin that provides it.
// `register` is called through cordis's service tracking, so `this.ctx` inside it is the *caller's*
// context: the registration is an effect of the registering plugin and is undone when that plugin is
// disposed, as well as by the returned disposer.
import { type ConfigInput, type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import type { ToolSchema } from '@tack/session'
import { type Context, type Logger, Service } from 'cordis'
import { checkToolDefinition } from './define-tool.ts'
import { CodeModeUnavailableError, ToolRegistrationError } from './errors.ts'
import { TOOLS_MODES } from './modes.ts'
import { executeCall, type PipelineEnv, type PipelineTool } from './pipeline/execute.ts'
import { presentCall, presentResult } from './present.ts'
import type {
  ApprovalService,
  RenderIntent,
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
      'How tools reach the model (TL-19). Only `native` works today: `code` and `both` are accepted but `schemas()` throws CodeModeUnavailableError until Code Mode lands.',
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
export type ToolsConfigInput = ConfigInput<typeof ToolsConfig>

interface Entry extends PipelineTool {
  readonly wire: ToolSchema
}

/** Mutable state lives here, never in fields of the (proxied) service object. */
interface State {
  readonly home: Context
  readonly entries: Map<string, Entry>
  readonly inflight: Set<Promise<unknown>>
  wire?: readonly ToolSchema[]
  names?: readonly string[]
}

export class ToolRegistryService extends Service implements ToolRegistry {
  readonly config: ToolsConfig
  private readonly state: State

  constructor(ctx: Context, config: ToolsConfig) {
    super(ctx, 'tools')
    this.config = config
    this.state = { home: ctx, entries: new Map(), inflight: new Set() }
  }

  register(def: ToolDefinition): () => void {
    const validator = checkToolDefinition(def)
    const { entries } = this.state
    const name = def.name
    const entry: Entry = Object.freeze({
      def,
      validator,
      wire: Object.freeze({ name, description: def.description, parameters: validator.wire }),
    })
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

  schemas(): readonly ToolSchema[] {
    const mode = this.config.mode
    switch (mode) {
      case 'native':
        this.state.wire ??= Object.freeze(this.sorted().map((entry) => entry.wire))
        return this.state.wire
      case 'code':
      case 'both':
        throw new CodeModeUnavailableError(mode)
      default:
        return mode satisfies never
    }
  }

  get(name: string): ToolDefinition | undefined {
    return this.state.entries.get(name)?.def
  }

  execute(call: ToolCallRequest): Promise<ToolExecutionResult> {
    return executeCall(this.env(), call)
  }

  presentCall(name: string, args: unknown): RenderIntent {
    return presentCall(this.state.entries.get(name), name, args, this.logger())
  }

  presentResult(name: string, args: unknown, result: ToolResultView): RenderIntent {
    return presentResult(this.state.entries.get(name), name, args, result, this.logger())
  }

  async settled(): Promise<void> {
    const { inflight } = this.state
    while (inflight.size > 0) await Promise.allSettled([...inflight])
  }

  private env(): PipelineEnv {
    const { home, entries, inflight } = this.state
    return {
      ctx: home,
      logger: this.logger(),
      abortGraceMs: this.config.abortGraceMs,
      lookup: (name) => entries.get(name),
      names: () => {
        this.state.names ??= Object.freeze(this.sorted().map((entry) => entry.def.name))
        return this.state.names
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

  private sorted(): Entry[] {
    // Code-unit order, independent of locale and of registration order (TL-2).
    return [...this.state.entries.values()].sort((a, b) =>
      a.def.name < b.def.name ? -1 : a.def.name > b.def.name ? 1 : 0,
    )
  }

  private changed(): void {
    this.state.wire = undefined
    this.state.names = undefined
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
export function registerTool(ctx: Context, def: ToolDefinition): () => void {
  const registry = ctx.get('tools') as ToolRegistry | undefined
  if (!registry) throw new Error('registerTool: no tool registry is mounted (load ToolsPlugin first)')
  return registry.register(def)
}
