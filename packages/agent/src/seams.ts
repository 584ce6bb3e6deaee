// Every seam the loop fires, declared as a typed cordis event. The doc comment of each names its
// dispatch mode and the rule for its result; `docs/seams.md` is generated from these comments.
import type { Waterfall } from '@tack/kernel'
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
import type { FinishReason } from '@tack/session'

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
    /** @mode emit — an agent was created (before its session-start). */
    'agent/created'(agent: Agent): void
    /** @mode emit — the agent's status changed. */
    'agent/status'(agent: Agent, status: AgentStatus, previous: AgentStatus): void
    /** @mode emit — the agent is disposed; its running turn has ended. Detached work is drained after. */
    'agent/disposed'(agent: Agent, cause: DisposeCause): void
  }
}
