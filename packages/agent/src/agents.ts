// Service `ctx.agents`: creates, resumes and forks agents over `ctx.sessions`, emits their lifecycle
// notifications, and tracks detached work that disposal must drain (AL-24).
import { emitSafely } from '@tack/kernel'
import type { Context } from 'cordis'
import { AgentImpl, type AgentHost } from './agent.ts'
import type { Agent, AgentHandle, AgentOptions, DisposeCause, SessionStartSource } from './types.ts'

export interface AgentsConfig {
  readonly maxStepsPerTurn: number
  readonly maxParallelTools: number
  readonly maxIdenticalCalls: number
  readonly maxTurnTokens: number
  readonly model: string
}

export class AgentsService {
  readonly #ctx: Context
  readonly #config: AgentsConfig
  readonly #detached = new WeakMap<Agent, Set<Promise<unknown>>>()
  readonly #live = new Set<AgentImpl>()

  constructor(ctx: Context, config: AgentsConfig) {
    this.#ctx = ctx
    this.#config = config
  }

  /**
   * A new agent on a new session; `agent/session-start` fires before this resolves, with `startup` — or
   * `clear` when the host replaces a session the person cleared (`/clear`, AL-10).
   */
  async create(opts: {
    cwd: string
    options?: AgentOptions
    parent?: Agent
    sessionId?: string
    /** Recorded in the new session's header (subagents name their parent's session). */
    parentSession?: string
    source?: Extract<SessionStartSource, 'startup' | 'clear'>
    /** Store the session only from its first turn (`ctx.sessions.create`): hosts a person may leave idle. */
    storeFromFirstTurn?: boolean
  }): Promise<AgentHandle> {
    const session = await this.#ctx.sessions.create({
      cwd: opts.cwd,
      ...(opts.storeFromFirstTurn ? { storeFromFirstTurn: true } : {}),
      ...(opts.sessionId ? { id: opts.sessionId } : {}),
      ...(opts.parentSession ? { parentSession: opts.parentSession } : {}),
    })
    return this.#start(
      new AgentImpl(this.#host(), {
        id: session.id,
        session,
        cwd: opts.cwd,
        options: opts.options,
        parent: opts.parent,
      }),
      opts.source ?? 'startup',
    )
  }

  /** Resumes a stored session (recovered per SL-25); session-start fires with `resume`. */
  async resume(sessionId: string, options?: AgentOptions): Promise<AgentHandle> {
    const session = await this.#ctx.sessions.open(sessionId)
    return this.#start(
      new AgentImpl(this.#host(), { id: session.id, session, cwd: session.header.cwd, options }),
      'resume',
    )
  }

  /** Forks a stored session at a turn boundary (SL-22); session-start fires with `startup`. */
  async fork(sessionId: string, at: { atSeq?: number } = {}, options?: AgentOptions): Promise<AgentHandle> {
    const session = await this.#ctx.sessions.fork(sessionId, at)
    return this.#start(
      new AgentImpl(this.#host(), { id: session.id, session, cwd: session.header.cwd, options }),
      'startup',
    )
  }

  /**
   * Tracks work a plugin started for `agent` outside the loop (e.g. a hook run on an emit seam);
   * disposing the agent waits for it. The plugin aborts its own work on `agent/disposed`.
   */
  trackDetached(agent: Agent, work: Promise<unknown>): void {
    let set = this.#detached.get(agent)
    if (!set) this.#detached.set(agent, (set = new Set()))
    const entry = work.then(
      () => {},
      () => {},
    )
    set.add(entry)
    void entry.then(() => set.delete(entry))
  }

  /** Agents that are not disposed. */
  live(): readonly Agent[] {
    return [...this.#live]
  }

  /** Disposes every live agent (used when the host shuts down). */
  async disposeAll(cause: DisposeCause = 'exit'): Promise<void> {
    await Promise.all([...this.#live].map((a) => a.dispose(cause)))
  }

  #host(): AgentHost {
    return {
      ctx: this.#ctx,
      maxStepsPerTurn: this.#config.maxStepsPerTurn,
      maxParallelTools: this.#config.maxParallelTools,
      maxIdenticalCalls: this.#config.maxIdenticalCalls,
      maxTurnTokens: this.#config.maxTurnTokens,
      defaultModel: this.#config.model,
      drainDetached: async (agent) => {
        const set = this.#detached.get(agent)
        while (set && set.size > 0) await Promise.all([...set])
      },
    }
  }

  #start(agent: AgentImpl, source: SessionStartSource): AgentHandle {
    this.#live.add(agent)
    emitSafely(this.#ctx, 'agent/created', agent)
    emitSafely(this.#ctx, 'agent/session-start', agent, source)
    return {
      agent,
      dispose: async (cause?: DisposeCause) => {
        await agent.dispose(cause)
        this.#live.delete(agent)
      },
    }
  }
}

declare module 'cordis' {
  interface Context {
    agents: AgentsService
  }
}
