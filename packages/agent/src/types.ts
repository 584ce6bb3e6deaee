// The Agent API (20-agent-loop.md §1) and the model seam's request/response types (§5).
import type {
  AssistantBlock,
  Content,
  FinishReason,
  HookContext,
  LlmCallConfig,
  Message,
  MessageSource,
  Prompt,
  Session,
  StreamChunk,
  ToolSchema,
  TurnEndReason,
  Usage,
} from '@tack/session'
import type { ToolsMode } from '@tack/tools'

export type { Content, HookContext, Prompt }

export type TurnOutcome = { turn?: number; reason: TurnEndReason }
export type AgentStatus = 'idle' | 'running' | 'disposed'
/** Why an agent was disposed; carried on `agent/disposed` so session-end hooks and mods see it. */
export type DisposeCause = 'exit' | 'clear' | 'resume' | 'error' | 'signal'

/** Per-agent options; anything absent falls back to the `agent` plugin's Config. */
export interface AgentOptions {
  /** The model as `provider/model`, and the rest of the base call config. */
  readonly config?: Partial<LlmCallConfig>
  /** Overrides the registry's tools mode for this agent (TL-36). */
  readonly toolsMode?: ToolsMode
  /** The permission mode for this agent (80-cli.md §4). */
  readonly permissionMode?: string
  readonly maxStepsPerTurn?: number
  /** Free-form labels for plugins (e.g. `{headless: true}`); never logged. */
  readonly labels?: Readonly<Record<string, unknown>>
}

export interface Agent {
  readonly id: string
  readonly session: Session
  readonly cwd: string
  readonly options: AgentOptions
  readonly status: AgentStatus
  /** The model (`provider/model`) of this agent's base call config; `agent/request` may still change it per step. */
  readonly model: string
  /** The running turn's abort signal (undefined while idle): seam listeners cut their work on it. */
  readonly turnSignal: AbortSignal | undefined
  /** Set for child agents started by the subagent tool. */
  readonly parent?: Agent
  send(input: Prompt): Promise<TurnOutcome>
  steer(input: Prompt): void
  /** Context from a plugin: appended as `context/message` (held while a turn runs). */
  inject(input: HookContext, opts?: { wake?: boolean }): void
  cancel(reason?: string): void
  whenIdle(): Promise<void>
}

export interface AgentHandle {
  readonly agent: Agent
  dispose(cause?: DisposeCause): Promise<void>
}

export interface LlmRequest {
  readonly config: LlmCallConfig
  readonly system?: string
  readonly tools?: readonly ToolSchema[]
  readonly messages: readonly Message[]
}

export interface LlmFinal {
  readonly content: readonly AssistantBlock[]
  readonly finishReason: FinishReason
  readonly usage?: Usage
}

export interface LlmResponse {
  readonly chunks: AsyncIterable<StreamChunk>
  readonly final: Promise<LlmFinal>
}

/** Serves the models it was registered for. */
export interface LlmAdapter {
  stream(request: LlmRequest, signal: AbortSignal): LlmResponse | Promise<LlmResponse>
}

/**
 * `additionalContext` is appended after the prompt; `leadingContext` before it (context that belongs ahead
 * of the prompt, e.g. a Codex SessionStart hook's, which Codex places before the first prompt).
 */
export type PromptDecision =
  | {
      action: 'allow'
      content?: Content
      additionalContext?: readonly HookContext[]
      leadingContext?: readonly HookContext[]
    }
  | {
      action: 'block'
      reason: string
      additionalContext?: readonly HookContext[]
      leadingContext?: readonly HookContext[]
    }

export type ContinuationDecision =
  | { action: 'stop' }
  /** `source`: who steers (the steering message's source); default `agent/turn-continuation` (AL-16). */
  | { action: 'continue'; reason?: string; source?: MessageSource }

/** What `agent/step-error` decides: end the turn with the step's error, or run one more step. */
export type StepErrorDecision = { action: 'fail' } | { action: 'retry' }

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact'
