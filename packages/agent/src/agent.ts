// The Agent: its held input (one `InputQueue`: prompts, steering, injections, continuations), a
// status, and one loop instance (its cached session prefix). Turns run one at a time through
// `runTurn`; this file only schedules.
import { switchedModelOf } from './model-switch.ts'
import { effortOf } from './effort-switch.ts'
import { deepFreeze, emitSafely, waterfall } from '@tack/kernel'
import {
  type HookContext,
  type LlmCallConfig,
  type Message,
  type Session,
  toContentBlocks,
} from '@tack/session'
import type { Context } from 'cordis'
import { InputQueue, pluginError, requireSource, settleLeftovers } from './admission.ts'
import { AgentDisposedError, TurnError } from './errors.ts'
import { runTurn } from './turn.ts'
import type { Agent, AgentOptions, AgentStatus, DisposeCause, Prompt, TurnOutcome } from './types.ts'
import { PersistWarnings } from './persist-warnings.ts'

interface RunningTurn {
  readonly controller: AbortController
  cause?: 'aborted' | 'disposed'
}

/** What an agent needs from the service that made it. */
export interface AgentHost {
  readonly ctx: Context
  readonly maxStepsPerTurn: number
  readonly maxParallelTools: number
  readonly maxIdenticalCalls: number
  readonly maxTurnTokens: number
  readonly defaultModel: string
  /** Awaits detached work plugins tracked for this agent (hook runs and the like). */
  drainDetached(agent: Agent): Promise<void>
}

export class AgentImpl implements Agent {
  readonly id: string
  readonly session: Session
  readonly cwd: string
  readonly options: AgentOptions
  readonly parent?: Agent
  readonly #host: AgentHost
  #status: AgentStatus = 'idle'
  readonly #held = new InputQueue()
  #wake = false
  #turnNumber: number
  #running?: RunningTurn
  #pump?: Promise<void>
  #idleWaiters: Array<() => void> = []
  #prefix?: readonly Message[]
  #disposing?: Promise<void>
  readonly #persist: PersistWarnings

  constructor(
    host: AgentHost,
    init: { id: string; session: Session; cwd: string; options?: AgentOptions; parent?: Agent },
  ) {
    this.#host = host
    this.id = init.id
    this.session = init.session
    this.cwd = init.cwd
    this.options = deepFreeze({ ...(init.options ?? {}) })
    this.parent = init.parent
    this.#turnNumber = init.session.events().filter((e) => e.type === 'turn/start').length
    this.#persist = new PersistWarnings(init.session.id, (format, ...args) =>
      host.ctx.logger('agent').warn(format, ...args),
    )
  }

  get status(): AgentStatus {
    return this.#status
  }

  get model(): string {
    return this.#baseConfig().model
  }

  get turnSignal(): AbortSignal | undefined {
    return this.#running?.controller.signal
  }

  send(input: Prompt): Promise<TurnOutcome> {
    this.#assertUsable('send')
    requireSource(input, 'send')
    const frozen = freezeInput(input)
    return new Promise<TurnOutcome>((settle) => {
      this.#held.hold({ kind: 'prompt', input: frozen, settle })
      this.#kick()
    })
  }

  steer(input: Prompt): void {
    this.#assertUsable('steer')
    requireSource(input, 'steer')
    if (this.#status !== 'running') {
      void this.send(input)
      return
    }
    this.#held.hold({ kind: 'steer', input: freezeInput(input) })
  }

  inject(input: HookContext, opts?: { wake?: boolean }): void {
    this.#assertUsable('inject')
    requireSource(input, 'inject')
    if (this.#status === 'running') {
      this.#held.hold({ kind: 'inject', input: freezeInput(input) })
      return
    }
    this.session.append('context/message', { content: toContentBlocks(input.content), source: input.source })
    if (opts?.wake) {
      this.#wake = true
      this.#kick()
    }
  }

  /**
   * AL-23. Honoured at any moment the agent is `running`, not only inside a turn: a prompt sent but not
   * yet taken into a turn (the pump's first microtask, the flush between turns) is dropped with its
   * `send` resolving `aborted` and no turn — it would otherwise start one after the cancel.
   */
  cancel(_reason?: string): void {
    if (this.#status !== 'running') return
    const running = this.#running
    if (running && !running.controller.signal.aborted) {
      running.cause = 'aborted'
      running.controller.abort()
    }
    this.#held.settlePrompts({ reason: { kind: 'aborted' } })
    this.#held.dropSteering()
    this.#wake = false
  }

  whenIdle(): Promise<void> {
    if (this.#status !== 'running') return Promise.resolve()
    return new Promise((resolve) => this.#idleWaiters.push(resolve))
  }

  /** AL-24: end a running turn `disposed`, drain in-flight and detached work, flush; then refuse everything. */
  dispose(cause: DisposeCause = 'exit'): Promise<void> {
    this.#disposing ??= this.#dispose(cause)
    return this.#disposing
  }

  async #dispose(cause: DisposeCause): Promise<void> {
    this.#setStatus('disposed')
    const running = this.#running
    if (running && !running.controller.signal.aborted) {
      running.cause = 'disposed'
      running.controller.abort()
    }
    this.#held.settlePrompts({ reason: { kind: 'disposed' } })
    this.#wake = false
    await this.#pump
    emitSafely(this.#host.ctx, 'agent/disposed', this, cause)
    await this.#host.drainDetached(this)
    await this.session.flush().then(
      () => this.#persist.succeeded(),
      (error: unknown) => this.#persist.failed('the final events', error),
    )
    for (const resolve of this.#idleWaiters.splice(0)) resolve()
  }

  #assertUsable(_what: string): void {
    if (this.#status === 'disposed') throw new AgentDisposedError(this.id)
  }

  #setStatus(next: AgentStatus): void {
    const previous = this.#status
    if (previous === next) return
    this.#status = next
    emitSafely(this.#host.ctx, 'agent/status', this, next, previous)
  }

  #kick(): void {
    if (this.#status !== 'idle') return
    if (!this.#held.hasPrompts() && !this.#wake) return
    this.#setStatus('running')
    // Start on a microtask, so prompts sent in the same synchronous frame share the first batch.
    this.#pump = Promise.resolve().then(() => this.#runPump())
  }

  async #runPump(): Promise<void> {
    while (this.#status === 'running' && (this.#held.hasPrompts() || this.#wake)) {
      const batch = this.#held.takePrompts()
      const trigger = batch.length > 0 ? ({ kind: 'message' } as const) : ({ kind: 'injection' } as const)
      this.#wake = false
      let outcome: TurnOutcome
      try {
        outcome = await this.#runOneTurn(
          batch.map((q) => q.input),
          trigger,
        )
      } catch (error) {
        // Only a broken log (an append that throws) lands here; report it and keep the agent usable.
        this.#host.ctx.logger('agent').error('turn failed outside the loop: %s', String(error))
        outcome = { reason: { kind: 'error', code: 'INTERNAL_ERROR', message: String(error) } }
      }
      for (const q of batch) q.settle(outcome)
    }
    if (this.#status === 'running') {
      this.#setStatus('idle')
      for (const resolve of this.#idleWaiters.splice(0)) resolve()
    }
  }

  async #runOneTurn(
    batch: Prompt[],
    trigger: { kind: 'message' } | { kind: 'injection' },
  ): Promise<TurnOutcome> {
    const turn = ++this.#turnNumber
    const running: RunningTurn = { controller: new AbortController() }
    this.#running = running
    const ctx = this.#host.ctx
    let reason: TurnOutcome['reason']
    try {
      reason = await runTurn({
        ctx,
        agent: this,
        session: this.session,
        turn,
        trigger,
        batch,
        signal: running.controller.signal,
        baseConfig: this.#baseConfig(),
        maxStepsPerTurn: this.options.maxStepsPerTurn ?? this.#host.maxStepsPerTurn,
        maxParallelTools: this.#host.maxParallelTools,
        maxIdenticalCalls: this.#host.maxIdenticalCalls,
        maxTurnTokens: this.#host.maxTurnTokens,
        abortCause: () => running.cause,
        held: this.#held,
        sessionPrefix: (_system) => this.#sessionPrefix(running.controller.signal),
      })
    } finally {
      this.#running = undefined
    }
    settleLeftovers(this.session, this.#held, this.#status === 'running' && running.cause === undefined)
    try {
      await this.session.flush()
      this.#persist.succeeded()
    } catch (error) {
      this.#persist.failed(`the end of turn ${turn}`, error)
    }
    return { turn, reason }
  }

  #baseConfig(): LlmCallConfig {
    // A `/model` switch (this run's or a resumed log's) beats the options the agent was created with.
    const model = switchedModelOf(this) ?? this.options.config?.model ?? this.#host.defaultModel
    // So does an `/effort` switch (`default`: none sent, whatever the options said).
    const { reasoningEffort: _given, ...rest } = this.options.config ?? {}
    const reasoningEffort = effortOf(this)
    return deepFreeze({ ...rest, model, ...(reasoningEffort ? { reasoningEffort } : {}) })
  }

  /** AL-13: composed once per loop instance; a throw caches nothing so the next turn retries. */
  async #sessionPrefix(signal: AbortSignal): Promise<readonly Message[]> {
    if (this.#prefix) return this.#prefix
    const seed: readonly Message[] = Object.freeze([])
    let prefix: readonly Message[]
    try {
      prefix = await waterfall(this.#host.ctx, 'agent/session-prefix', [this, seed, signal], () => seed)
    } catch (error) {
      throw pluginError('agent/session-prefix', error)
    }
    if (!Array.isArray(prefix))
      throw new TurnError('PREFIX_INVALID', 'agent/session-prefix must return an array of messages')
    for (const m of prefix) {
      const ok =
        (m?.role === 'user' || m?.role === 'assistant') &&
        Array.isArray(m.content) &&
        !m.content.some((b: { type?: string }) => b?.type === 'tool-call')
      if (!ok) {
        throw new TurnError(
          'PREFIX_INVALID',
          'the session prefix may hold only user/assistant messages without tool calls',
        )
      }
    }
    this.#prefix = deepFreeze(structuredClone(prefix) as Message[])
    return this.#prefix
  }
}

/** A frozen copy of a prompt or an injected context item (the two have the same shape). */
function freezeInput(input: Prompt | HookContext): Prompt {
  return deepFreeze(structuredClone({ content: input.content, source: input.source }))
}
