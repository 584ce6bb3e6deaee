// The seam registry: where the listeners of tack seams live. cordis fires its public bail event
// `internal/listener` on every `ctx.on(name, listener, options)`, and a handler that returns a value
// takes the registration over (cordis does the same for `internal/update`). The kernel's root context
// takes over every tack seam that way, so listeners are in a list tack owns — never cordis's private
// `_hooks` — and each registration is an effect of the registering plugin's fiber: disposing the
// plugin removes its listeners. The plugin's name is recorded at registration for `SeamError`.
// Dispatch order is the seam's declared phases, not registration order alone (seam-phases.ts).
// Everything else (`internal/*`, cordis's own lifecycle, events of non-tack plugins) stays cordis's.
import type { Context, EventOptions } from 'cordis'
import { isBuiltin, phaseIndex, seamPhases } from './seam-phases.ts'

/** One registered listener of a seam. */
export interface SeamListener {
  /** The cordis plugin (fiber) that registered it; `root` for the root context. */
  readonly plugin: string
  // biome-ignore lint/suspicious/noExplicitAny: listeners of different seams have different signatures
  readonly callback: (...args: any[]) => any
}

/**
 * Whether `name` is a tack seam: a string `<area>/<name>` outside cordis's own `internal/` area.
 * Every seam the repository declares has that shape (`agent/…`, `tools/…`, `llm/…`, …); cordis's own
 * events are `internal/*` or have no slash.
 */
export function isSeamName(name: unknown): name is string {
  if (typeof name !== 'string') return false
  const slash = name.indexOf('/')
  return slash > 0 && slash < name.length - 1 && !name.startsWith('internal/')
}

/** A listener as the registry keeps it: with what decides its place (seam-phases.ts). */
interface Entry {
  readonly listener: SeamListener
  readonly phase: string | undefined
  readonly prepend: boolean
  readonly builtin: boolean
  readonly seq: number
}

class SeamRegistry {
  readonly #lists = new Map<string, Entry[]>()
  /** Each seam's listeners in dispatch order, until its list changes. */
  readonly #sorted = new Map<string, readonly SeamListener[]>()
  #seq = 0

  /** Adds `listener` in its place (seam-phases.ts); returns its remover. */
  add(name: string, listener: SeamListener, options: Omit<Entry, 'listener' | 'seq'>): () => void {
    // A phase the seam does not declare is refused now when the seam's package is loaded; otherwise
    // at the first dispatch (a plugin may load before the package that declares the seam).
    if (seamPhases(name)) phaseIndex(name, options.phase, listener.plugin)
    let list = this.#lists.get(name)
    if (!list) this.#lists.set(name, (list = []))
    const entry: Entry = { listener, ...options, seq: this.#seq++ }
    list.push(entry)
    this.#sorted.delete(name)
    return () => {
      const current = this.#lists.get(name)
      const index = current?.indexOf(entry) ?? -1
      if (current && index >= 0) current.splice(index, 1)
      this.#sorted.delete(name)
    }
  }

  /** A snapshot: a listener registered while a seam runs joins its next dispatch, not this one. */
  listeners(name: string): readonly SeamListener[] {
    let sorted = this.#sorted.get(name)
    if (!sorted) {
      sorted = dispatchOrder(name, this.#lists.get(name) ?? [])
      this.#sorted.set(name, sorted)
    }
    return sorted
  }
}

/** Phase, then within it: prepended (newest first), built-ins by plugin name, the rest as registered. */
function dispatchOrder(name: string, entries: readonly Entry[]): readonly SeamListener[] {
  const keyed = entries.map((entry) => ({
    entry,
    phase: phaseIndex(name, entry.phase, entry.listener.plugin),
    group: entry.prepend ? 0 : entry.builtin ? 1 : 2,
  }))
  keyed.sort(
    (a, b) =>
      a.phase - b.phase ||
      a.group - b.group ||
      (a.group === 0 ? b.entry.seq - a.entry.seq : 0) ||
      (a.group === 1 ? compareNames(a.entry.listener.plugin, b.entry.listener.plugin) : 0) ||
      a.entry.seq - b.entry.seq,
  )
  return Object.freeze(keyed.map((k) => k.entry.listener))
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const registries = new WeakMap<object, SeamRegistry>()

/**
 * Makes `root` keep the listeners of tack seams in a seam registry. Called by `@tack/kernel`'s
 * `Context` constructor; idempotent.
 */
export function installSeamRegistry(root: Context): void {
  if (registries.has(root)) return
  const registry = new SeamRegistry()
  registries.set(root, registry)
  // `this` is the context `ctx.on` was called on; its fiber owns the registration.
  root.on('internal/listener', function (this: Context, name: unknown, listener: unknown, options: unknown) {
    if (!isSeamName(name) || typeof listener !== 'function') return
    const entry: SeamListener = {
      plugin: pluginName(this),
      callback: listener as SeamListener['callback'],
    }
    // cordis passes its normalised options object; a bare boolean is the legacy `prepend` flag.
    const given = typeof options === 'object' && options !== null ? (options as EventOptions) : {}
    const placement = {
      phase: typeof given.phase === 'string' ? given.phase : undefined,
      prepend: typeof options === 'object' ? given.prepend === true : options === true,
      builtin: isBuiltin(this),
    }
    return this.fiber.effect(() => registry.add(name, entry, placement), `ctx.on(${JSON.stringify(name)})`)
  })
  // Firing a seam through cordis's own `ctx.emit`/`ctx.waterfall`/… would reach no listener (they
  // live here): fail loudly instead of silently skipping every plugin.
  root.on('internal/dispatch', (mode, name) => {
    if (isSeamName(name)) {
      throw new Error(
        `seam "${name}" was fired through cordis's ctx.${mode}; fire tack seams with @tack/kernel's emitSafely, serial, parallel, waterfall or dispatch`,
      )
    }
  })
}

/** The listeners currently registered on seam `name`, in dispatch order (a snapshot). */
export function listenersOf(ctx: Context, name: string): readonly SeamListener[] {
  const registry = registries.get(ctx.root)
  if (!registry) {
    throw new Error(
      `seam "${name}" fired on a context without the seam registry: create the root context with @tack/kernel's Context, not cordis's`,
    )
  }
  return registry.listeners(name)
}

function pluginName(ctx: Context): string {
  try {
    return ctx.fiber?.name ?? 'root'
  } catch {
    return 'unknown'
  }
}
