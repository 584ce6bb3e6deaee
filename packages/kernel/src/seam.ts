// Seam names and signatures as the dispatch helpers see them, `SeamError`, and the `serial` and
// `parallel` modes. Every helper is keyed on the seam's name and takes its argument tuple and result
// from the seam's `Events` declaration, so a misspelled seam or a wrong argument does not compile.
// Listeners live in the seam registry (`seam-registry.ts`), which records each one's plugin so a
// failing listener is attributed to it.
import type { Context, Events } from 'cordis'
import { listenersOf } from './seam-registry.ts'

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

/** Every declared tack seam: an `Events` key `<area>/<name>` outside cordis's `internal/` area. */
export type SeamName = Exclude<Extract<keyof Events, `${string}/${string}`>, `internal/${string}`>

/** The arguments a seam's listeners receive (for a waterfall, including `next`). */
export type SeamArgs<K extends SeamName> = Parameters<Events[K]>

/** What a seam's listener returns, awaited. */
export type SeamResult<K extends SeamName> = Awaited<ReturnType<Events[K]>>

// biome-ignore lint/suspicious/noExplicitAny: matches any `next`, whatever it accepts
type AnyNext = (...args: any[]) => unknown

/** A waterfall seam: its declaration ends with the `next` parameter. */
export type WaterfallSeam = {
  [K in SeamName]: SeamArgs<K> extends [...unknown[], AnyNext] ? K : never
}[SeamName]

/** A waterfall seam's arguments without `next`: what the dispatcher passes in. */
export type WaterfallArgs<K extends SeamName> = SeamArgs<K> extends [...infer A, AnyNext] ? A : never

/** A notification seam: its listeners return nothing (`@mode emit`). */
export type EmitSeam = {
  [K in SeamName]: ReturnType<Events[K]> extends void ? K : never
}[SeamName]

/** Awaits every listener of `name` in registration order; return values are ignored. */
export async function serial<K extends SeamName>(ctx: Context, name: K, ...args: SeamArgs<K>): Promise<void> {
  for (const listener of listenersOf(ctx, name)) {
    try {
      await listener.callback(...args)
    } catch (error) {
      throw new SeamError(name, listener.plugin, error)
    }
  }
}

/**
 * Runs every listener of `name` concurrently and waits for all of them; when any rejects, rejects with
 * an `AggregateError` of the reasons, as they were thrown (cordis's `parallel` semantics).
 */
export async function parallel<K extends SeamName>(
  ctx: Context,
  name: K,
  ...args: SeamArgs<K>
): Promise<void> {
  const settled = await Promise.allSettled(
    listenersOf(ctx, name).map(async (listener) => listener.callback(...args)),
  )
  const reasons = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []))
  if (reasons.length > 0) throw new AggregateError(reasons, `${name}: ${reasons.length} listener(s) failed`)
}
