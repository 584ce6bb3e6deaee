// Dispatch helpers for seams. Listeners are registered with cordis (`ctx.on`), so every registration
// is an effect undone when its plugin is disposed; dispatch goes through these helpers so that a
// failing listener is attributed to its plugin (the seam and plugin are named in `SeamError`) and so
// that a waterfall's `next` may pass replaced arguments where a seam documents it.
import type { Context } from 'cordis'

export class SeamError extends Error {
  override readonly name = 'SeamError'
  readonly seam: string
  readonly plugin: string
  constructor(seam: string, plugin: string, cause: unknown) {
    super(
      `${seam} listener of plugin "${plugin}" failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    )
    this.seam = seam
    this.plugin = plugin
  }
}

export interface SeamListener {
  readonly plugin: string
  // biome-ignore lint/suspicious/noExplicitAny: listeners of different seams have different signatures
  readonly callback: (...args: any[]) => any
}

interface HookEntry {
  ctx: Context
  // biome-ignore lint/suspicious/noExplicitAny: see SeamListener
  callback: (...args: any[]) => any
}

/** The listeners currently registered on `name`, in dispatch order. */
export function listenersOf(ctx: Context, name: string): SeamListener[] {
  const hooks = (ctx.events._hooks[name] ?? []) as unknown as HookEntry[]
  return hooks.map((h) => ({ plugin: pluginName(h.ctx), callback: h.callback }))
}

function pluginName(ctx: Context): string {
  try {
    return ctx.fiber?.name ?? 'root'
  } catch {
    return 'unknown'
  }
}

/**
 * Runs a waterfall: each listener gets `(...args, next)`. Calling `next()` delegates with the same
 * arguments; `next(...replacement)` delegates with replaced arguments (only where a seam documents
 * it). Returning without calling `next` answers for everything downstream, including `inner`.
 * A listener that throws or rejects surfaces as a `SeamError` naming the seam and its plugin.
 */
export async function waterfall<R>(
  ctx: Context,
  name: string,
  args: readonly unknown[],
  inner: (...args: unknown[]) => R | Promise<R>,
): Promise<R> {
  const listeners = listenersOf(ctx, name)
  // Errors from `inner` (or already attributed) pass through listener frames unchanged.
  const passthrough = new WeakSet<object>()
  const dispatch = async (index: number, current: readonly unknown[]): Promise<R> => {
    const listener = listeners[index]
    if (!listener) {
      try {
        return await inner(...current)
      } catch (error) {
        if (error !== null && typeof error === 'object') passthrough.add(error)
        throw error
      }
    }
    let called = false
    const next = (...replacement: unknown[]): Promise<R> => {
      if (called) return Promise.reject(new Error(`${name}: next() called more than once`))
      called = true
      return dispatch(index + 1, replacement.length ? replacement : current)
    }
    try {
      return await listener.callback(...current, next)
    } catch (error) {
      if (
        error instanceof SeamError ||
        (error !== null && typeof error === 'object' && passthrough.has(error))
      ) {
        throw error
      }
      const wrapped = new SeamError(name, listener.plugin, error)
      passthrough.add(wrapped)
      throw wrapped
    }
  }
  return dispatch(0, args)
}

/** Awaits every listener of `name` in registration order; return values are ignored. */
export async function serial(ctx: Context, name: string, args: readonly unknown[]): Promise<void> {
  for (const listener of listenersOf(ctx, name)) {
    try {
      await listener.callback(...args)
    } catch (error) {
      throw new SeamError(name, listener.plugin, error)
    }
  }
}
