// The seam registry: where the listeners of tack seams live. cordis fires its public bail event
// `internal/listener` on every `ctx.on(name, listener, options)`, and a handler that returns a value
// takes the registration over (cordis does the same for `internal/update`). The kernel's root context
// takes over every tack seam that way, so listeners are in a list tack owns — never cordis's private
// `_hooks` — and each registration is an effect of the registering plugin's fiber: disposing the
// plugin removes its listeners. The plugin's name is recorded at registration for `SeamError`.
// Everything else (`internal/*`, cordis's own lifecycle, events of non-tack plugins) stays cordis's.
import type { Context } from 'cordis'

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

class SeamRegistry {
  readonly #lists = new Map<string, SeamListener[]>()

  /** Adds `listener` (first when `prepend`); returns its remover. */
  add(name: string, listener: SeamListener, prepend: boolean): () => void {
    let list = this.#lists.get(name)
    if (!list) this.#lists.set(name, (list = []))
    if (prepend) list.unshift(listener)
    else list.push(listener)
    return () => {
      const current = this.#lists.get(name)
      const index = current?.indexOf(listener) ?? -1
      if (current && index >= 0) current.splice(index, 1)
    }
  }

  /** A snapshot: a listener registered while a seam runs joins its next dispatch, not this one. */
  listeners(name: string): readonly SeamListener[] {
    return [...(this.#lists.get(name) ?? [])]
  }
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
    const prepend =
      typeof options === 'object' && options !== null
        ? (options as { prepend?: unknown }).prepend === true
        : options === true
    return this.fiber.effect(() => registry.add(name, entry, prepend), `ctx.on(${JSON.stringify(name)})`)
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
