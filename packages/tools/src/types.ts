// Tool registry, execution pipeline and presentation types (30-tools.md §1, §3, §4).
import type { Agent } from '@tack/agent'
import type { Content, ContentBlock, HookContext, JsonSchema, ToolSchema } from '@tack/session'

export type { JsonSchema, ToolSchema }

export type ToolOutput = Content | { content: Content; meta?: unknown }

export interface ToolCallContext {
  readonly callId: string
  readonly agent?: Agent
  readonly cwd: string
  readonly signal: AbortSignal
  /**
   * Set when a `tools/pre-execute` decision asked and the approver allowed the call: by the user or
   * by a rule. Absent for calls that were simply allowed. Tools that widen their scope only with an
   * approval (e.g. paths outside the workspace, TL-11) read it.
   */
  readonly approval?: 'user' | 'rule'
}

export interface ToolResultView {
  readonly content: readonly ContentBlock[]
  readonly isError: boolean
  readonly error?: { name: string; code: string; message?: string }
  readonly meta?: unknown
}

export type DiffHunk = {
  oldStart: number
  oldLines: number
  newStart: number
  newLines: number
  lines: readonly string[]
}

export type RenderIntent =
  | { kind: 'generic'; title: string; body?: string }
  | { kind: 'terminal'; title: string; command: string; output?: string; exitCode?: number }
  | { kind: 'diff'; title: string; path: string; hunks: readonly DiffHunk[] }

export interface ToolDefinition<A = unknown> {
  /** /^[a-z][a-z0-9_]{0,63}$/ */
  readonly name: string
  readonly description: string
  /** An object schema in the defineTool subset. */
  readonly parameters: JsonSchema
  readonly timeoutMs?: number
  execute(args: A, call: ToolCallContext): ToolOutput | Promise<ToolOutput>
  presentCall?(args: A): RenderIntent
  presentResult?(args: A, result: ToolResultView): RenderIntent
}

export interface ToolExecution {
  readonly callId: string
  readonly name: string
  /** The model's raw argument text. */
  readonly rawArguments: string
  /** Parsed, default-filled, validated arguments (`undefined` before validation ran). */
  readonly arguments: unknown
  readonly agent?: Agent
  readonly cwd: string
  readonly signal: AbortSignal
}

/**
 * One call as a caller hands it to `ctx.tools.execute`: the model's call. `arguments` is not part of
 * it — the pipeline parses and validates `rawArguments` and fills it in for the seams and the body.
 */
export type ToolCallRequest = Omit<ToolExecution, 'arguments'>

export interface ToolError {
  readonly name: string
  readonly code: string
  readonly message?: string
}

export interface ToolExecutionResult {
  readonly callId: string
  readonly name: string
  readonly content: readonly ContentBlock[]
  readonly isError: boolean
  readonly error?: ToolError
  readonly additionalContext?: readonly HookContext[]
  readonly meta?: unknown
}

export type PreToolDecision =
  | {
      action: 'allow'
      arguments?: unknown
      /** A configured rule vouches for this call; the body sees `call.approval === 'rule'`. */
      approval?: 'rule'
      additionalContext?: readonly HookContext[]
    }
  | { action: 'deny'; reason: string; additionalContext?: readonly HookContext[] }
  | { action: 'ask'; reason?: string; arguments?: unknown; additionalContext?: readonly HookContext[] }

export type PostToolDecision =
  | { action: 'accept'; content?: Content; additionalContext?: readonly HookContext[] }
  | { action: 'block'; feedback: string; additionalContext?: readonly HookContext[] }

export type { ToolsMode } from './modes.ts'

/** What an approver answers for an `ask` (TL-5, TL-35). */
export type ApprovalAnswer =
  | { action: 'allow'; by: 'user' | 'rule'; scope?: 'once' | 'session' }
  | { action: 'deny'; by: 'user' | 'rule' | 'none'; reason?: string; scope?: 'once' | 'session' }

export interface ApprovalRequest {
  readonly agent?: Agent
  readonly exec: ToolExecution
  readonly reason?: string
  readonly signal: AbortSignal
}

/** Service `ctx.approval`: answers `ask` decisions (the TUI, ACP permission requests, rules). */
export interface ApprovalService {
  request(req: ApprovalRequest): Promise<ApprovalAnswer>
}

/** What a `tools/call` listener may answer with instead of running the pipeline (TL-31). */
export interface ToolAnswer {
  readonly content: Content
  /** Default: `true` when `error` is given, else `false`. */
  readonly isError?: boolean
  readonly error?: ToolError
  readonly meta?: unknown
  readonly additionalContext?: readonly HookContext[]
}

/** Service `ctx.tools` (30-tools.md §1). */
export interface ToolRegistry {
  /** Adds a tool; the disposer (and disposal of the registering plugin) removes it (TL-1). */
  register(def: ToolDefinition): () => void
  /** The wire list for the configured mode, sorted by name (TL-2). */
  schemas(): readonly ToolSchema[]
  /** Runs one call through the pipeline; never rejects (TL-3). */
  execute(call: ToolCallRequest): Promise<ToolExecutionResult>
  /** The registered definition, if any. */
  get(name: string): ToolDefinition | undefined
  /** The call's render intent: the tool's `presentCall`, else a generic one (TL-10). */
  presentCall(name: string, args: unknown): RenderIntent
  /** The result's render intent: the tool's `presentResult`, else a generic one (TL-10). */
  presentResult(name: string, args: unknown, result: ToolResultView): RenderIntent
  /** Resolves once every tool body started so far has settled, including bodies given up on after a cancel. */
  settled(): Promise<void>
}
