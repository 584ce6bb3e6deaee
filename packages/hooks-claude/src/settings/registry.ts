// Which handlers exist and which of them run (40-hooks.md B1, B11). User-level and configured sources
// are read once at load; a workspace's project files once, when the first session in that workspace
// needs them. Sources merge in this order: `~/.claude/settings.json`, `<workspace>/.claude/settings.json`,
// `<workspace>/.claude/settings.local.json`, then the configured sources in config order.
import { join, resolve } from 'node:path'
import { isWorkspaceTrusted } from '@tack/kernel/workspace-trust'
import {
  type DiscoveredHandler,
  type HookSource,
  isProjectSource,
  isSettingsSource,
  type ReadSource,
  readHookSource,
} from './source.ts'
import type { SourceSpec } from '../config.ts'

/** A `skip` predicate: sees the handler object as written, and where it came from. */
export type SkipPredicate = (handler: Readonly<Record<string, unknown>>, info: DiscoveredHandler) => boolean

export interface HandlerStatus {
  readonly runs: boolean
  /** Why it does not run (absent when it does). */
  readonly why?: string
}

/** One row of `list()`: a discovered handler, where it came from and whether it will run. */
export interface ListedHandler extends HandlerStatus {
  readonly id: string
  readonly source: string
  readonly sourceKind: HookSource['kind']
  readonly event: string
  readonly matcher?: string
  readonly handler: Readonly<Record<string, unknown>>
}

/** The handlers in effect for one workspace, in merge order. */
export interface WorkspaceHooks {
  readonly dir: string
  readonly handlers: readonly DiscoveredHandler[]
  /** The settings file that set `disableAllHooks: true`, if one did. */
  readonly disabledBy?: string
  /** Whether project-level files may run (a trusted workspace, or `assumeTrusted`). */
  readonly projectAllowed: boolean
  /** Project files that could not be read (path and problem). */
  readonly problems: readonly SourceProblem[]
}

/** A hooks file that exists but could not be used; its hooks do not run. */
export interface SourceProblem {
  readonly path: string
  readonly problem: string
}

/** Why project hooks are held back in an untrusted workspace, and how to lift it. */
export const UNTRUSTED_PROJECT_HOOKS =
  'this workspace is not trusted: run `tack trust` in it (or pass --trust for one run)'

export interface RegistryOptions {
  readonly discover: boolean
  readonly sources: readonly SourceSpec[]
  readonly home: string
  /** tack's home: its `trusted-workspaces.json` is the one trust store (`tack trust` writes it). */
  readonly tackHome: string
  readonly assumeTrusted: boolean
  readonly warn: (message: string) => void
  readonly info: (message: string) => void
}

/** A workspace's two project-level settings files, in merge order. */
const PROJECT_FILES = [
  ['settings.json', 'project'],
  ['settings.local.json', 'local'],
] as const

const kindOrder = (kind: HookSource['kind']): number => (kind === 'project' ? 0 : 1)

interface Skip {
  readonly predicate: SkipPredicate
  readonly reason: string
}

export class HookRegistry {
  readonly #opts: RegistryOptions
  readonly #user: ReadSource[] = []
  readonly #configured: ReadSource[] = []
  readonly #problems: SourceProblem[] = []
  readonly #workspaces = new Map<string, WorkspaceHooks>()
  /** Each workspace's project files as last applied (a change held back by ConfigChange keeps the old read). */
  readonly #projectReads = new Map<string, ReadSource[]>()
  readonly #skips: Skip[] = []
  readonly #skipLogged = new Set<string>()

  constructor(opts: RegistryOptions) {
    this.#opts = opts
    if (opts.discover) {
      const user = this.#read({ path: join(opts.home, '.claude', 'settings.json'), kind: 'user' }, true)
      if (user) this.#user.push(user)
      if (user?.error) this.#problems.push({ path: user.source.path, problem: user.error })
    }
    for (const spec of opts.sources) {
      const source: HookSource = spec.pluginRoot
        ? { path: resolve(spec.path), kind: 'plugin', pluginRoot: resolve(spec.pluginRoot) }
        : { path: resolve(spec.path), kind: 'configured' }
      const read = this.#read(source, false)
      if (read) this.#configured.push(read)
      if (read?.error) this.#problems.push({ path: source.path, problem: read.error })
    }
  }

  /** The handlers for sessions in `dir` (project files read on first use, then cached). */
  forWorkspace(dir: string): WorkspaceHooks {
    const key = resolve(dir)
    let hooks = this.#workspaces.get(key)
    if (!hooks) {
      hooks = this.#loadWorkspace(key)
      this.#workspaces.set(key, hooks)
      for (const h of hooks.handlers) this.#logSkip(h)
    }
    return hooks
  }

  /** B11: handlers `predicate` selects never run; each is logged once with `reason`. Returns an undo. */
  skip(predicate: SkipPredicate, reason: string): () => void {
    const entry: Skip = { predicate, reason: String(reason) }
    this.#skips.push(entry)
    for (const hooks of this.#workspaces.values()) for (const h of hooks.handlers) this.#logSkip(h)
    for (const read of [...this.#user, ...this.#configured]) for (const h of read.handlers) this.#logSkip(h)
    return () => {
      const i = this.#skips.indexOf(entry)
      if (i >= 0) this.#skips.splice(i, 1)
    }
  }

  /** Whether `handler` runs in `hooks`, and why not. */
  status(handler: DiscoveredHandler, hooks: WorkspaceHooks): HandlerStatus {
    if (handler.unusable) return { runs: false, why: handler.unusable }
    if (hooks.disabledBy && isSettingsSource(handler.source)) {
      return { runs: false, why: `disableAllHooks is set in ${hooks.disabledBy}` }
    }
    if (isProjectSource(handler.source) && !hooks.projectAllowed) {
      return { runs: false, why: UNTRUSTED_PROJECT_HOOKS }
    }
    const skip = this.#skipOf(handler)
    if (skip) return { runs: false, why: `skipped: ${skip.reason}` }
    return { runs: true }
  }

  /** Every discovered handler for `dir`, with whether it will run and why not (`tack hooks list`). */
  list(dir: string): ListedHandler[] {
    const hooks = this.forWorkspace(dir)
    return hooks.handlers.map((h) => ({
      id: h.id,
      source: h.source.path,
      sourceKind: h.source.kind,
      event: h.event,
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      handler: h.handler,
      ...this.status(h, hooks),
    }))
  }

  /** User-level and configured files, then `dir`'s project files, that could not be read. */
  problems(dir: string): SourceProblem[] {
    return [...this.#problems, ...this.forWorkspace(dir).problems]
  }

  /** Whether `dir` is a workspace recorded by `tack trust` (in tack's home). */
  isTrusted(dir: string): boolean {
    return isWorkspaceTrusted(dir, this.#opts.tackHome)
  }

  /**
   * The settings files discovered for sessions in `dir` (the user's, then the project's two), with
   * whether they are loaded: project files are not in an untrusted workspace. Empty unless `discover`.
   */
  discoveredFiles(dir: string): Array<{ path: string; kind: 'user' | 'project' | 'local'; loaded: boolean }> {
    if (!this.#opts.discover) return []
    const hooks = this.forWorkspace(dir)
    return [
      { path: this.#userPath(), kind: 'user', loaded: true },
      ...PROJECT_FILES.map(([name, kind]) => ({
        path: join(hooks.dir, '.claude', name),
        kind,
        loaded: hooks.projectAllowed,
      })),
    ]
  }

  /**
   * Reads a discovered settings file again (a ConfigChange that was not held back): the user's file
   * changes every workspace's hooks, a project file its workspace's. From the next point on, the new
   * handlers run.
   */
  reload(path: string): void {
    if (path === this.#userPath()) {
      const read = this.#read({ path, kind: 'user' }, true)
      this.#user.splice(0, this.#user.length, ...(read ? [read] : []))
      const i = this.#problems.findIndex((p) => p.path === path)
      if (i >= 0) this.#problems.splice(i, 1)
      if (read?.error) this.#problems.unshift({ path, problem: read.error })
      for (const dir of this.#workspaces.keys()) this.#compose(dir)
      return
    }
    for (const [dir, reads] of this.#projectReads) {
      const entry = PROJECT_FILES.find(([name]) => join(dir, '.claude', name) === path)
      if (!entry) continue
      const read = this.#read({ path, kind: entry[1] }, true)
      const kept = reads.filter((r) => r.source.path !== path)
      // Merge order stays settings.json before settings.local.json.
      const next = [...kept, ...(read ? [read] : [])].sort(
        (a, b) => kindOrder(a.source.kind) - kindOrder(b.source.kind),
      )
      this.#projectReads.set(dir, next)
      this.#compose(dir)
    }
  }

  #userPath(): string {
    return join(this.#opts.home, '.claude', 'settings.json')
  }

  #loadWorkspace(dir: string): WorkspaceHooks {
    const project: ReadSource[] = []
    if (this.#opts.discover) {
      for (const [name, kind] of PROJECT_FILES) {
        const read = this.#read({ path: join(dir, '.claude', name), kind }, true)
        if (read) project.push(read)
      }
    }
    this.#projectReads.set(dir, project)
    const hooks = this.#composed(dir, project)
    // The CLI says once per run what an untrusted workspace held back; here it is only information.
    if (!hooks.projectAllowed && project.some((r) => r.handlers.length > 0)) {
      this.#opts.info(`project hooks in ${dir} are not run: ${UNTRUSTED_PROJECT_HOOKS}`)
    }
    return hooks
  }

  #compose(dir: string): void {
    const hooks = this.#composed(dir, this.#projectReads.get(dir) ?? [])
    this.#workspaces.set(dir, hooks)
    for (const h of hooks.handlers) this.#logSkip(h)
  }

  #composed(dir: string, project: readonly ReadSource[]): WorkspaceHooks {
    const projectAllowed = this.#opts.assumeTrusted || this.isTrusted(dir)
    const reads = [...this.#user, ...project, ...this.#configured]
    const disabling = reads.find((r) => r.disableAllHooks && (projectAllowed || !isProjectSource(r.source)))
    return {
      dir,
      handlers: reads.flatMap((r) => r.handlers),
      ...(disabling ? { disabledBy: disabling.source.path } : {}),
      projectAllowed,
      problems: project.flatMap((r) => (r.error ? [{ path: r.source.path, problem: r.error }] : [])),
    }
  }

  #read(source: HookSource, missingOk: boolean): ReadSource | undefined {
    const read = readHookSource(source, { missingOk })
    if (!read) return undefined
    if (read.error) this.#opts.warn(`${source.path}: ${read.error} — its hooks are not run until it is fixed`)
    for (const w of read.warnings) this.#opts.warn(w)
    const notBridged = new Set(
      read.handlers.filter((h) => h.unusable?.startsWith('not fired by tack')).map((h) => h.event),
    )
    if (notBridged.size > 0) {
      this.#opts.info(
        `${source.path}: hooks for ${[...notBridged].join(', ')} are not run (tack does not fire these events)`,
      )
    }
    return read
  }

  #skipOf(handler: DiscoveredHandler): Skip | undefined {
    return this.#skips.find((s) => {
      try {
        return s.predicate(handler.handler, handler) === true
      } catch {
        return false
      }
    })
  }

  #logSkip(handler: DiscoveredHandler): void {
    if (this.#skipLogged.has(handler.id)) return
    const skip = this.#skipOf(handler)
    if (!skip) return
    this.#skipLogged.add(handler.id)
    this.#opts.info(`hook ${handler.id} is skipped: ${skip.reason}`)
  }
}
