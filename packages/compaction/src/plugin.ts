// The `compaction` plugin (35-compaction.md): compacts automatically on `agent/pre-step` when the coming
// request passes the threshold (CP-2), once after a provider's "context too long" error on
// `agent/step-error` (then the step is retried), and on demand through `ctx.compaction.compact(agent)`
// — mixed in as `ctx.compact(agent)` — which `/compact` uses.
import type { Agent, PreStepInfo, StepErrorDecision, StepErrorInfo } from '@tack/agent'
import { definePlugin } from '@tack/kernel'
import type { Context } from 'cordis'
import { CompactionConfig } from './config.ts'
import { type CompactionResult, Compactor } from './compactor.ts'
import type { RequestParts } from './pressure.ts'

/** The code `@tack/llm` gives a provider's "the request is longer than the context window" answer. */
export const CONTEXT_TOO_LONG = 'CONTEXT_TOO_LONG'

export interface CompactOptions {
  readonly signal?: AbortSignal
  /** What the summary should focus on (`/compact keep the API decisions`); only for an idle agent. */
  readonly instructions?: string
}

interface AgentState {
  /** On-demand compactions asked for while a turn ran: the next pre-step (or the turn's end) runs them. */
  pending: Array<(result: CompactionResult) => void>
  /** The turn in which an automatic compaction failed: no further automatic attempt in it. */
  autoFailedInTurn?: number
  /** The turn and step a "context too long" was answered with a retry: the retried step may not ask again. */
  retriedAfterTooLong?: { turn: number; step: number }
  /** Serialises compactions of one agent. */
  tail: Promise<unknown>
}

export class CompactionService {
  readonly #ctx: Context
  readonly #compactor: Compactor
  readonly #states = new WeakMap<Agent, AgentState>()

  constructor(ctx: Context, compactor: Compactor) {
    this.#ctx = ctx
    this.#compactor = compactor
  }

  /**
   * Compacts `agent`'s session whatever the pressure (CP-2's on-demand trigger). On an idle agent it runs
   * now; while a turn runs it runs before the next step, or when the turn ends.
   */
  compact(agent: Agent, opts: CompactOptions = {}): Promise<CompactionResult> {
    const state = this.#state(agent)
    if (agent.status === 'disposed')
      return Promise.resolve({ compacted: false, reason: 'the agent is disposed' })
    if (agent.status === 'running')
      return new Promise((resolve) => {
        state.pending.push(resolve)
      })
    const signal = opts.signal ?? new AbortController().signal
    return this.#serial(agent, () =>
      this.#compactor.compact({
        agent,
        trigger: 'manual',
        parts: this.#idleParts(),
        signal,
        ...(opts.instructions ? { instructions: opts.instructions } : {}),
        stillSafe: () => agent.status === 'idle',
      }),
    )
  }

  /** `agent/pre-step`: pending on-demand compactions, else the automatic one when the threshold is met. */
  async onPreStep(agent: Agent, info: PreStepInfo): Promise<void> {
    const state = this.#state(agent)
    const parts: RequestParts = { system: info.system, prefix: info.prefix, tools: this.#tools() }
    if (state.pending.length > 0) {
      const waiting = state.pending.splice(0)
      const result = await this.#serial(agent, () =>
        this.#compactor.compact({ agent, trigger: 'manual', parts, signal: info.signal }),
      )
      for (const resolve of waiting) resolve(result)
      return
    }
    if (!this.#compactor.config.auto || state.autoFailedInTurn === info.turn) return
    const { tokens, limit } = this.#compactor.pressure(agent, parts)
    if (tokens < limit) return
    const result = await this.#serial(agent, () =>
      this.#compactor.compact({ agent, trigger: 'auto', parts, signal: info.signal }),
    )
    if (!result.compacted && !info.signal.aborted) {
      state.autoFailedInTurn = info.turn
      this.#ctx
        .logger('compaction')
        .warn(
          'the session is at %d of %d tokens and could not be compacted: %s',
          tokens,
          limit,
          result.reason,
        )
    }
  }

  /**
   * `agent/step-error`: "context too long" gets one compaction and one retry. If the retried step is
   * refused again, compaction did not help and the turn ends with the provider's error.
   */
  async onStepError(
    agent: Agent,
    info: StepErrorInfo,
    next: () => Promise<StepErrorDecision>,
  ): Promise<StepErrorDecision> {
    if (info.code !== CONTEXT_TOO_LONG) return next()
    const state = this.#state(agent)
    const last = state.retriedAfterTooLong
    if (last && last.turn === info.turn && last.step === info.step - 1) return next()
    const parts: RequestParts = { system: this.#system(), prefix: [], tools: this.#tools() }
    const result = await this.#serial(agent, () =>
      this.#compactor.compact({ agent, trigger: 'context-too-long', parts, signal: info.signal }),
    )
    if (result.compacted) {
      state.retriedAfterTooLong = { turn: info.turn, step: info.step }
      return { action: 'retry' }
    }
    this.#ctx
      .logger('compaction')
      .warn('the model said the context is too long, and compaction could not help: %s', result.reason)
    return next()
  }

  /** A turn ended with on-demand compactions still waiting: run them now, between turns. */
  async onIdle(agent: Agent): Promise<void> {
    const state = this.#states.get(agent)
    if (!state || state.pending.length === 0) return
    const waiting = state.pending.splice(0)
    const result = await this.compact(agent)
    for (const resolve of waiting) resolve(result)
  }

  /** A disposed agent will run no further step: whoever waits for a compaction learns it did not happen. */
  onDisposed(agent: Agent): void {
    const waiting = this.#states.get(agent)?.pending.splice(0) ?? []
    for (const resolve of waiting) resolve({ compacted: false, reason: 'the agent was disposed' })
  }

  #state(agent: Agent): AgentState {
    let state = this.#states.get(agent)
    if (!state) {
      state = { pending: [], tail: Promise.resolve() }
      this.#states.set(agent, state)
    }
    return state
  }

  #serial<T>(agent: Agent, work: () => Promise<T>): Promise<T> {
    const state = this.#state(agent)
    const run = state.tail.then(work, work)
    state.tail = run.catch(() => {})
    return run
  }

  #tools() {
    try {
      return this.#ctx.tools.schemas()
    } catch {
      return []
    }
  }

  #system(): string {
    try {
      return this.#ctx.systemPrompt.assemble()
    } catch {
      return ''
    }
  }

  #idleParts(): RequestParts {
    return { system: this.#system(), prefix: [], tools: this.#tools() }
  }
}

export const CompactionPlugin = definePlugin({
  name: 'compaction',
  Config: CompactionConfig,
  inject: ['agents', 'tools', 'modelAdapters', 'systemPrompt'],
  apply(ctx, config) {
    const service = new CompactionService(ctx, new Compactor(ctx, config))
    ctx.provide('compaction', service)
    ctx.mixin('compaction', ['compact'])
    ctx.on('agent/pre-step', (agent, info) => service.onPreStep(agent, info), { phase: 'compaction' })
    ctx.on('agent/step-error', (agent, info, next) => service.onStepError(agent, info, next))
    ctx.on('agent/status', (agent, status) => {
      if (status === 'idle') void service.onIdle(agent)
      if (status === 'disposed') service.onDisposed(agent)
    })
  },
})

declare module 'cordis' {
  interface Context {
    compaction: CompactionService
    /** Compacts `agent`'s session now (idle) or before its next step (running); `ctx.compaction.compact`. */
    compact(agent: Agent, opts?: CompactOptions): Promise<CompactionResult>
  }
}
