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
