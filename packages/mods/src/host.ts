// The mod host (65-mod-host.md): loads the configured mod folders once at boot (a failing mod is
// reported and left out; the others load), keeps one `SessionMods` per top-level agent, and answers
// `capabilities()` and `list()` for `tack mods` and `tack doctor`.
import type { Agent } from '@tack/agent'
import { type Capabilities, capabilities, type ModEventName } from './capabilities.ts'
import type { ModSpec } from './config.ts'
import type { Below, Ev } from './dispatch.ts'
import { type LoadedMod, loadMod } from './instance.ts'
import { type HostDeps, type InFlightCall, SessionMods } from './session-mods.ts'

export interface ModLoadFailure {
  readonly dir: string
  readonly message: string
}

export interface ListedMod {
  readonly name: string
  readonly version: string
  readonly root: string
  readonly events: string[]
  readonly calls: string[]
}

export class ModHost {
  readonly loaded: LoadedMod[] = []
  readonly failures: ModLoadFailure[] = []
  private readonly sessions = new WeakMap<Agent, SessionMods>()
  /** Sessions whose instances were released: a late event must not import a fresh instance. */
  private readonly closed = new WeakSet<Agent>()

  private readonly deps: HostDeps

  constructor(deps: HostDeps) {
    this.deps = deps
  }

  /** Loads `specs` in order; a failure is recorded and warned, never thrown. */
  async load(specs: readonly ModSpec[]): Promise<void> {
    for (const spec of specs) {
      try {
        const mod = await loadMod(spec.dir, spec.options, this.deps.config.hookBudgetMs)
        if (this.loaded.some((m) => m.manifest.name === mod.manifest.name)) {
          this.fail(spec.dir, `mod "${mod.manifest.name}": loaded twice (${spec.dir}); the second is skipped`)
          continue
        }
        this.loaded.push(mod)
      } catch (error) {
        this.fail(spec.dir, (error as Error).message)
      }
    }
  }

  /** Reports a problem to the person running tack (a tool's faulty host mapping, …). */
  warn(message: string): void {
    this.deps.warn(message)
  }

  private fail(dir: string, message: string): void {
    this.failures.push({ dir, message })
    this.deps.warn(message)
  }

  capabilities(): Capabilities {
    return capabilities()
  }

  list(): ListedMod[] {
    return this.loaded.map((m) => ({
      name: m.manifest.name,
      version: m.manifest.version,
      root: m.manifest.root,
      events: m.events,
      calls: m.scan.calls,
    }))
  }

  private root(agent: Agent): Agent {
    let a = agent
    while (a.parent) a = a.parent
    return a
  }

  /** The session's mods, opened on first use (a subagent uses its root agent's). */
  sessionOf(agent: Agent): SessionMods | undefined {
    if (this.loaded.length === 0) return undefined
    const root = this.root(agent)
    if (this.closed.has(root)) return undefined
    let mods = this.sessions.get(root)
    if (!mods) this.sessions.set(root, (mods = new SessionMods(root, this.loaded, this.deps)))
    return mods
  }

  /**
   * Ends a session's instances after its `session.end` hooks: their `$` work settles within the end's one
   * bound, what the bound cut off is warned, then they are released (timers stopped, processes killed; the
   * module graph is left to the garbage collector). A late event meanwhile opens no new instance.
   */
  async endSession(agent: Agent): Promise<void> {
    const mods = this.sessions.get(agent)
    this.closed.add(agent)
    if (!mods) return
    const cutOff = await mods.end()
    this.sessions.delete(agent)
    for (const [mod, calls] of groupByMod(cutOff))
      this.deps.warn(
        `mod "${mod}": its work was cut off at session end (${calls} still in flight when plugins.mods.sessionEndBudgetMs, ${this.deps.config.sessionEndBudgetMs} ms, ran out)`,
      )
  }

  /** Fires `event` for `agent`'s session; with no mod hooked on it, runs `core` directly. */
  async fire(event: ModEventName, agent: Agent, e: Ev, core: Below, signal?: AbortSignal): Promise<unknown> {
    const mods = this.sessionOf(agent)
    if (!mods) return core(e)
    return mods.fire(event, agent, e, core, signal)
  }

  /** The agent id mods see on `e.agentId`: absent for a top-level agent. */
  agentIdOf(agent: Agent): { agentId?: string } {
    return agent.parent ? { agentId: agent.id } : {}
  }
}

/** `[mod, "fs.write ×2, process.run"]` per mod, in first-seen order. */
function groupByMod(calls: readonly InFlightCall[]): Array<[string, string]> {
  const byMod = new Map<string, Map<string, number>>()
  for (const { mod, what } of calls) {
    const counts = byMod.get(mod) ?? new Map<string, number>()
    counts.set(what, (counts.get(what) ?? 0) + 1)
    byMod.set(mod, counts)
  }
  return [...byMod].map(([mod, counts]) => [
    mod,
    [...counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what)).join(', '),
  ])
}
