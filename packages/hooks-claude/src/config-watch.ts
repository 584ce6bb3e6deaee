// ConfigChange (claude-code-hook-events.md): a settings file the bridge reads — `~/.claude/settings.json`,
// `<workspace>/.claude/settings.json`, `<workspace>/.claude/settings.local.json` — changes while a session
// lasts. The files' folders are watched (a file may not exist yet, and editors replace files by rename),
// changes are debounced (`configWatchDebounceMs`), and a changed file fires ConfigChange (`source`,
// `file_path`; matcher subject `source`) for every live session it concerns. Unless a hook holds the change
// back (exit 2, JSON block), the registry reads the file again and its new hooks run from the next point
// on. The hooks of a workspace are shared by its sessions, so one session's block holds the change back
// for all of them. Project files of an untrusted workspace are not loaded: their changes fire nothing.
import { existsSync, type FSWatcher, readFileSync, watch } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Agent } from '@tack/agent'
import type { ClaudeBridge } from './bridge.ts'
import { blockingMessages, type HandlerRun } from './handler-runs.ts'

const SOURCE_OF = { user: 'user_settings', project: 'project_settings', local: 'local_settings' } as const

const contentOf = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

export class SettingsWatch {
  readonly #bridge: ClaudeBridge
  readonly #debounceMs: number
  readonly #agents = new Set<Agent>()
  /** Each watched file's content as last applied or held back (undefined: absent). */
  readonly #seen = new Map<string, string | undefined>()
  /** Watched folder → its watcher; a file whose folder is missing is watched through the folder above. */
  readonly #watchers = new Map<string, FSWatcher>()
  #timer: NodeJS.Timeout | undefined
  #checking: Promise<void> = Promise.resolve()

  constructor(bridge: ClaudeBridge, debounceMs: number) {
    this.#bridge = bridge
    this.#debounceMs = debounceMs
  }

  /** A top-level session starts (or restarts): watch the settings files loaded for its workspace. */
  attach(agent: Agent): void {
    if (agent.parent || this.#agents.has(agent)) return
    this.#agents.add(agent)
    let seenBefore = false
    for (const file of this.#bridge.registry.discoveredFiles(agent.cwd)) {
      if (!file.loaded) continue
      if (this.#seen.has(file.path)) seenBefore = true
      else this.#seen.set(file.path, contentOf(file.path))
      this.#arm(file.path)
    }
    // A file seen before may have changed while nothing watched it (no session lived, e.g. across /clear).
    if (seenBefore) this.#schedule()
  }

  /** A session ends; with none left, nothing is watched (what was seen is kept for the next session). */
  detach(agent: Agent): void {
    if (!this.#agents.delete(agent) || this.#agents.size > 0) return
    this.#unwatch()
  }

  /** The plugin's dispose: nothing is watched or remembered. */
  close(): void {
    this.#unwatch()
    this.#seen.clear()
  }

  #unwatch(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    for (const w of this.#watchers.values()) w.close()
    this.#watchers.clear()
  }

  #arm(path: string): void {
    const folder = [dirname(path), dirname(dirname(path))].find((d) => existsSync(d))
    if (!folder || this.#watchers.has(folder)) return
    try {
      // Only a watched file, or the `.claude` folder it will be in, is worth a look: `~/.claude` and a
      // workspace root change all the time (a null name, which some platforms give, is looked at).
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || this.#concerns(join(folder, name))) this.#schedule()
      })
      watcher.on('error', (error) => {
        watcher.close()
        this.#watchers.delete(folder)
        this.#bridge.warn(`stopped watching ${folder} for settings changes: ${error.message}`)
      })
      // `persistent: false` already leaves the process free to exit; unref says so for any handle left.
      watcher.unref()
      this.#watchers.set(folder, watcher)
    } catch (error) {
      this.#bridge.warnOnce(
        `watch:${folder}`,
        `cannot watch ${folder} for settings changes (ConfigChange will not fire for it): ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  #concerns(changed: string): boolean {
    for (const path of this.#seen.keys()) if (changed === path || changed === dirname(path)) return true
    return false
  }

  #schedule(): void {
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.#checking = this.#checking.then(() => this.#check())
    }, this.#debounceMs)
    this.#timer.unref()
  }

  async #check(): Promise<void> {
    for (const [path, before] of [...this.#seen]) {
      // A folder that appeared since (`.claude` created): watch it directly from now on.
      this.#arm(path)
      const now = contentOf(path)
      if (now === before || !this.#seen.has(path)) continue
      this.#seen.set(path, now)
      await this.#fire(path)
    }
  }

  /** Fires ConfigChange for `path` in every session it concerns; applies the change unless one holds it back. */
  async #fire(path: string): Promise<void> {
    const concerned: Array<{ agent: Agent; source: (typeof SOURCE_OF)[keyof typeof SOURCE_OF] }> = []
    for (const agent of this.#agents) {
      const file = this.#bridge.registry.discoveredFiles(agent.cwd).find((f) => f.path === path)
      if (file?.loaded) concerned.push({ agent, source: SOURCE_OF[file.kind] })
    }
    const held: string[] = []
    for (const { agent, source } of concerned) {
      const runs: HandlerRun[] = []
      const outcome = this.#bridge.runPoint(
        {
          point: 'ConfigChange',
          agent,
          fields: { source, file_path: path },
          subjects: [source],
          signal: this.#bridge.state(agent).detachedSignal,
        },
        runs,
      )
      // Tracked like any detached run, so a session's disposal waits for it (AL-24).
      await this.#bridge.detach(agent, outcome, 'ConfigChange hooks')
      const merged = await outcome.catch(() => undefined)
      if (merged?.decision === 'deny') held.push(...blockingMessages(runs, merged.reason || undefined))
    }
    if (held.length > 0) {
      this.#bridge.warn(
        `a ConfigChange hook held back the change to ${path}; the hooks read before stay: ${held.join('\n') || 'blocked'}`,
      )
      return
    }
    this.#bridge.registry.reload(path)
  }
}
