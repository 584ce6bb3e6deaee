// Every seam the loop fires, declared as a typed cordis event. The doc comment of each names its
// dispatch mode and the rule for its result; `docs/seams.md` is generated from these comments.
import { declareSeamPhases, type Waterfall } from '@tack/kernel'
import type { LlmCallConfig, Message } from '@tack/session'
import type {
  Agent,
  ContinuationDecision,
  DisposeCause,
  LlmRequest,
  LlmResponse,
  Prompt,
  PromptDecision,
  SessionStartSource,
  AgentStatus,
  StepErrorDecision,
} from './types.ts'
import type { FinishReason, HookContext } from '@tack/session'

/** Which request of the turn `agent/request` shapes. */
export interface StepRequestInfo {
  readonly turn: number
  readonly step: number
}

export interface PreStepInfo {
  readonly turn: number
  readonly step: number
  /** The system prompt assembled for this step. */
  readonly system: string
  /** The session prefix of this loop instance (deep-frozen). */
  readonly prefix: readonly Message[]
  readonly signal: AbortSignal
}

/** A step that failed (its `step/end` is logged) and what it failed with. */
export interface StepErrorInfo {
  readonly turn: number
  readonly step: number
  /** The turn-end code the failure would end the turn with (e.g. `CONTEXT_TOO_LONG`, `HTTP_500`). */
  readonly code: string
  readonly message: string
  /** Retries `agent/step-error` listeners have already been granted in this turn. */
  readonly retries: number
  readonly signal: AbortSignal
}

export interface ContinuationInfo {
  readonly turn: number
  readonly step: number
  readonly finishReason: FinishReason
  /** Forced continuations so far in this turn (0 on the first stop). */
  readonly continuations: number
}

/** One call of a tool batch, with the result the model gets for it. */
export interface ToolBatchCall {
  readonly callId: string
  readonly name: string
  /** The arguments as the model sent them, parsed (the raw text when it is not JSON). */
  readonly arguments: unknown
  /** The result's text, as the model reads it. */
  readonly output: string
  readonly isError: boolean
}

/** The calls of one assistant message, once every one of them has its result. */
export interface ToolBatchInfo {
  readonly turn: number
  readonly step: number
  readonly calls: readonly ToolBatchCall[]
  readonly signal: AbortSignal
}

/**
 * What `agent/tool-batch` decides: go on to the next step (with context for it), or end the turn after
 * this step, as if the model had answered (`completed`), with `reason` for the person.
 */
export type ToolBatchDecision =
  | { readonly action: 'continue'; readonly additionalContext?: readonly HookContext[] }
  | { readonly action: 'stop'; readonly reason: string; readonly additionalContext?: readonly HookContext[] }

/** A turn that ended `error`, and whether the model call (the provider, its API) is what failed. */
export interface TurnFailure {
  readonly turn: number
  readonly step?: number
  readonly code: string
  readonly message: string
  /** `model`: the model call failed (an API error: HTTP status, overload, network); `loop`: anything else. */
  readonly origin: 'model' | 'loop'
}

/** Who asks to switch an agent's model. */
/** `command`: `/model`; `client`: an ACP client's option; `flag`: `--model` on a continued or resumed session. */
export type ModelSwitchSource = 'command' | 'client' | 'flag'

/** A switch of an agent's model (`/model`, an ACP client's model option). */
export interface ModelChange {
  /** The model in force before (`provider/model`; empty when none was configured). */
  readonly from: string
  /** The model the switch resolves to (`provider/model`). */
  readonly to: string
  /** What was asked for, as typed. */
  readonly requested: string
  readonly source: ModelSwitchSource
}

/** What `agent/model-switch` decides. */
export type ModelSwitchDecision =
  | { readonly action: 'allow' }
  | { readonly action: 'deny'; readonly reason: string }

/** One instruction file an agent's context was given (AGENTS.md, CLAUDE.md). */
export interface LoadedInstructionFile {
  readonly path: string
  /** `user`: the user's own file ($TACK_HOME); `project`: from the repository root down to the working folder. */
  readonly scope: 'user' | 'project'
}

/** Why instruction files were read: at a session's start (its first request); tack reads them nowhere else. */
export type InstructionsLoadReason = 'session-start'

declare module 'cordis' {
  interface Events {
    /**
     * @mode emit — once per agent instance, before turn 1 and before create/resume/fork resolves
     * (`startup` for create and fork, `resume` for resume, `clear` after `/clear`, `compact` after a
     * compaction). Not awaited: context injected asynchronously lands at a later drain.
     */
    'agent/session-start'(agent: Agent, source: SessionStartSource): void
    /**
     * @mode waterfall — per drained prompt and per user-sourced steering input. Result: the first
     * listener that returns without `next()` decides; default `{action: 'allow'}`. It runs inside the
     * turn: `agent.turnSignal` is its abort signal, and on a cancel the loop stops waiting at once and
     * records the prompt as not admitted, whatever a listener answers later (AL-23).
     */
    'agent/prompt-submit': Waterfall<[agent: Agent, prompt: Prompt], PromptDecision>
    /**
     * @mode waterfall — once per loop instance, lazily on its first request-building step. Result: the
     * session prefix (user/assistant messages without tool calls); default the frozen empty seed.
     */
    'agent/session-prefix': Waterfall<
      [agent: Agent, seed: readonly Message[], signal: AbortSignal],
      readonly Message[]
    >
    /**
     * @mode serial — before each step's boundary, awaited in registration order; return values are
     * ignored. Events a listener appends precede `step/start` (compaction runs here).
     */
    'agent/pre-step'(agent: Agent, info: PreStepInfo): void | Promise<void>
    /**
     * @mode waterfall — shapes only the call config of a step's request. Result: the config the first
     * short-circuiting listener returns; default the input.
     */
    'agent/request': Waterfall<[agent: Agent, info: StepRequestInfo, config: LlmCallConfig], LlmCallConfig>
    /**
     * @mode waterfall — the model call. The innermost handler picks the adapter registered for
     * `request.config.model`. Result: the response of the first listener that answers; default the adapter.
     */
    'llm/stream': Waterfall<[request: LlmRequest, signal: AbortSignal], LlmResponse>
    /**
     * @mode waterfall — when a step failed (not by abort): a listener may repair the cause between steps
     * (compaction after a "context too long" error) and answer `retry`, which runs one more step instead
     * of ending the turn `error`. Result: the first short-circuiting listener's; default `{action: 'fail'}`.
     */
    'agent/step-error': Waterfall<[agent: Agent, info: StepErrorInfo], StepErrorDecision>
    /**
     * @mode waterfall — when a step ends without tool calls or admitted steering and the turn is not
     * ending by abort, disposal or error. Result: `stop` ends the turn; `continue` appends its reason (or
     * `Continue.`) as steering and runs one more step. Default `{action: 'stop'}`.
     */
    'agent/turn-continuation': Waterfall<[agent: Agent, info: ContinuationInfo], ContinuationDecision>
    /**
     * @mode waterfall — after every call of one assistant message has its result (not when the step was
     * aborted). Result: `continue` (default `{action: 'continue'}`) appends its context after the calls'
     * own and runs the next step; `stop` ends the turn after this step, as if the model had answered.
     */
    'agent/tool-batch': Waterfall<[agent: Agent, info: ToolBatchInfo], ToolBatchDecision>
    /**
     * @mode emit — a turn ended `error` (its `turn/end` is appended). `origin` says whether the model call
     * failed (an API error) or something else did. Not awaited.
     */
    'agent/turn-failed'(agent: Agent, failure: TurnFailure): void
    /**
     * @mode waterfall — before an agent's model is switched (`switchAgentModel`: `/model`, ACP, `--model` on a resume). Result:
     * `deny` keeps the model and says why; default `{action: 'allow'}`.
     */
    'agent/model-switch': Waterfall<[agent: Agent, change: ModelChange], ModelSwitchDecision>
    /** @mode emit — an agent's model was switched (logged as `agent/model`); the next request uses it. */
    'agent/model-switched'(agent: Agent, change: ModelChange): void
    /**
     * @mode emit — instruction files were read into an agent's context (tack's instructions plugin, on a
     * session's first request; a resumed session reuses the text it recorded and reads nothing).
     */
    'agent/instructions-loaded'(
      agent: Agent,
      files: readonly LoadedInstructionFile[],
      reason: InstructionsLoadReason,
    ): void
    /** @mode emit — an agent was created (before its session-start). */
    'agent/created'(agent: Agent): void
    /** @mode emit — the agent's status changed. */
    'agent/status'(agent: Agent, status: AgentStatus, previous: AgentStatus): void
    /**
     * @mode emit — the agent is disposed; its running turn has ended. Detached work is drained after. For
     * a top-level agent this is the end of its session (`cause` says why): session-end hooks run here,
     * as detached work dispose awaits.
     */
    'agent/disposed'(agent: Agent, cause: DisposeCause): void
  }
}

// The order these seams' listeners run in is declared here, not left to load order
// (packages/kernel/src/seam-phases.ts, docs/decisions/0205-seam-phases.md). A listener that names no
// phase runs in the last one.
declareSeamPhases('agent/prompt-submit', {
  outermost: "a Claude Code mod's `prompt.submit`: wraps the hooks and the rest",
  hooks: "the host hook bridges' `UserPromptSubmit`",
  plugins: "every other listener, the user's plugins among them",
})
declareSeamPhases('agent/turn-continuation', {
  hooks: "the host hook bridges' `Stop`: a hook's `block` continues the turn",
  plugins:
    "every other listener (agent-dice's roll, the user's plugins): sees the hooks' decision through `next()`",
})
declareSeamPhases('agent/pre-step', {
  context: 'plugins that add context before a step: what they add is measured and compacted with the rest',
  compaction:
    'the compaction plugin measures the context the step will send and compacts it when it is too long',
  plugins: "every other listener (the mod host's `turn.start`, the user's plugins)",
})
