// The mods of one session: an instance of every loaded mod (65-mod-host.md requirement 2), their hooks
// per event in config order then registration order, and what the event mappings need to know about
// the session's turns. Subagents share their root agent's instances (their events carry `agentId`).
import type { Agent } from '@tack/agent'
import { deepFreeze } from '@tack/kernel'
import type { Usage } from '@tack/session'
import type { Timers } from './dollar/clock.ts'
import { createDollar } from './dollar/index.ts'
import { type Below, type BoundHook, type DispatchEnv, type Ev, runChain } from './dispatch.ts'
import { runStreamChain, type StepStream, type StreamLayer } from './stream-dispatch.ts'
import { EVENT_SPECS } from './event-specs.ts'
import type { ModFault } from './faults.ts'
import type { ModEventName } from './capabilities.ts'
import { type LoadedMod, registerInstance } from './instance.ts'
import type { HookEntry } from './registration.ts'
import type { ModsConfig } from './config.ts'

export interface HostDeps {
  readonly config: ModsConfig
  readonly env: Readonly<Record<string, string | undefined>>
  readonly dataDir: string
  readonly version: string
  log(mod: string, line: string): void
  warn(line: string): void
  fault(agent: Agent, fault: ModFault): void
}

/** What the event mappings track per turn. */
export interface TurnTrack {
  turn: number
  startedAt: number
  step: number
  answer: string
  usage?: Usage
  lastFinish?: string
  userText: string
}

export class SessionMods {
  readonly hooks = new Map<string, BoundHook[]>()
  readonly ready: Promise<void>
  readonly startedAt = Date.now()
  sessionStart: Promise<unknown> = Promise.resolve()
  /** Aborted when the turn waiting for `session.start` is cancelled: its hooks are abandoned. */
  private readonly sessionStartCancel = new AbortController()
  readonly sessionStartSignal = this.sessionStartCancel.signal
  turn: TurnTrack | undefined
  lastInputTokens: number | undefined
  private readonly timers: Timers[] = []
  /** `$` calls of this session's instances not settled yet (mod and call), and who waits for none. */
  private readonly inFlight = new Set<InFlightCall>()
  private idleWaiters: Array<() => void> = []
  private sessionEndDeadline: number | undefined
  /** Aborted when the instances are released: their `$.process.run` children are killed. */
  private readonly released = new AbortController()

  readonly agent: Agent
  private readonly deps: HostDeps

  constructor(agent: Agent, mods: readonly LoadedMod[], deps: HostDeps) {
    this.agent = agent
    this.deps = deps
    this.ready = this.open(mods)
  }

  private async open(mods: readonly LoadedMod[]): Promise<void> {
    for (const mod of mods) {
      let byEvent: Map<string, HookEntry[]>
      try {
        byEvent = await registerInstance(
          mod.manifest,
          mod.options,
          `session-${this.agent.id}`,
          this.deps.config.hookBudgetMs,
        )
      } catch (error) {
        this.deps.warn(`${(error as Error).message} (session ${this.agent.id}; the mod is off for it)`)
        continue
      }
      const { dollar, timers } = createDollar({
        mod: { name: mod.manifest.name, root: mod.manifest.root },
        session: {
          id: () => this.agent.id,
          cwd: () => this.agent.cwd,
          startedAt: this.startedAt,
          contextTokens: () => this.lastInputTokens,
        },
        env: this.deps.env,
        dataDir: this.deps.dataDir,
        version: this.deps.version,
        log: (line) => this.deps.log(mod.manifest.name, line),
        track: (call, what) => this.track(call, mod.manifest.name, what),
        released: this.released.signal,
      })
      this.timers.push(timers)
      for (const [event, entries] of byEvent) {
        const list = this.hooks.get(event) ?? []
        for (const entry of entries) list.push({ entry, dollar })
        this.hooks.set(event, list)
      }
    }
  }

  private track<T>(call: Promise<T>, mod: string, what: string): Promise<T> {
    const entry: InFlightCall = { mod, what }
    this.inFlight.add(entry)
    const done = () => {
      this.inFlight.delete(entry)
      if (this.inFlight.size > 0) return
      for (const wake of this.idleWaiters.splice(0)) wake()
    }
    call.then(done, done)
    return call
  }

  /**
   * Settles once no `$` call of this session's mods is in flight across a macrotask turn: a mod between
   * two calls of one piece of work (awaits are microtasks) has started the next by then.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.inFlight.size > 0) await new Promise<void>((wake) => this.idleWaiters.push(wake))
      await new Promise((resolve) => setImmediate(resolve))
      if (this.inFlight.size === 0) return
    }
  }

  /** When the session's end must be over: one wall-clock bound from its first use (`sessionEndBudgetMs`). */
  endDeadline(): number {
    this.sessionEndDeadline ??= Date.now() + this.deps.config.sessionEndBudgetMs
    return this.sessionEndDeadline
  }

  /**
   * The session's end after its `session.end` hooks: timers stop (no new work is scheduled), the `$` work
   * in flight — and what it chains on — settles within what is left of the end's bound, then the instances
   * are released (a process still running is killed). Resolves to the calls cut off by the bound
   * (docs/decisions/0155-mod-work-at-session-end.md).
   */
  async end(): Promise<InFlightCall[]> {
    const deadline = this.endDeadline()
    this.stopTimers()
    let timer: ReturnType<typeof setTimeout> | undefined
    // A ref'd timer: the wait itself keeps the process alive until the bound, whatever the mod awaits.
    const outOfTime = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))
    })
    const outcome = await Promise.race([this.idle().then(() => 'settled' as const), outOfTime])
    clearTimeout(timer)
    const cutOff = outcome === 'late' ? [...this.inFlight] : []
    this.released.abort()
    return cutOff
  }

  cancelSessionStart(): void {
    this.sessionStartCancel.abort()
  }

  has(event: ModEventName): boolean {
    return (this.hooks.get(event)?.length ?? 0) > 0
  }

  private env(event: ModEventName, agent: Agent, signal?: AbortSignal): DispatchEnv {
    const spec = EVENT_SPECS[event]
    const { config } = this.deps
    let budgetMs = config.hookBudgetMs
    if (spec.budget === 'promptEdit') budgetMs = config.promptEditBudgetMs
    if (spec.budget === 'sessionEnd') budgetMs = Math.max(1, this.endDeadline() - Date.now())
    return {
      event,
      spec,
      budgetMs,
      catchBudgetMs: config.catchBudgetMs,
      pausable: spec.budget !== 'sessionEnd',
      signal,
      fault: (f) => this.deps.fault(agent, f),
    }
  }

  /** Runs `event` through this session's hooks above `core`. */
  async fire(event: ModEventName, agent: Agent, e: Ev, core: Below, signal?: AbortSignal): Promise<unknown> {
    await this.ready
    const hooks = this.hooks.get(event) ?? []
    if (hooks.length === 0) return core(e)
    return runChain(hooks, this.env(event, agent, signal), core)(deepFreeze(structuredClone(e)))
  }

  /** Runs a streaming event (`turn.step`) through this session's hooks above `core`. */
  stream(event: ModEventName, agent: Agent, e: Ev, core: StreamLayer, signal?: AbortSignal): StepStream {
    const hooks = this.hooks.get(event) ?? []
    return runStreamChain(hooks, this.env(event, agent, signal), core)(deepFreeze(structuredClone(e)))
  }

  private stopTimers(): void {
    for (const t of this.timers) t.dispose()
  }
}

/** A `$` call not settled yet: the mod that made it and what it is (`fs.write`). */
export interface InFlightCall {
  readonly mod: string
  readonly what: string
}
