// Emit-mode seams are notifications: a listener's failure must never affect the emitter (AL-18,
// "extensions never break a session"). cordis's own `emit` stops at the first throwing listener, so
// emit seams go through `emitSafely`, which isolates each listener and reports its failure.
import type { Context } from 'cordis'
import type { EmitSeam, SeamArgs } from './seam.ts'
import { listenersOf } from './seam-registry.ts'

export interface ListenerFault {
  readonly seam: string
  readonly error: unknown
}

/** Emits `name` to every listener; a throwing (or rejecting) listener is reported, not propagated. */
export function emitSafely<K extends EmitSeam>(ctx: Context, name: K, ...args: SeamArgs<K>): void {
  for (const { callback } of listenersOf(ctx, name)) {
    try {
      const result = callback(...args)
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        ;(result as Promise<unknown>).then(undefined, (error: unknown) => reportFault(ctx, name, error))
      }
    } catch (error) {
      reportFault(ctx, name, error)
    }
  }
}

function reportFault(ctx: Context, seam: string, error: unknown): void {
  try {
    ctx.logger('tack').warn('listener on %s failed: %s', seam, error instanceof Error ? error.message : error)
    for (const { callback } of listenersOf(ctx, 'kernel/listener-fault')) {
      try {
        callback({ seam, error } satisfies ListenerFault)
      } catch {
        // A failing fault reporter has nowhere left to report to.
      }
    }
  } catch {
    // Reporting must never throw into the emitter.
  }
}

declare module 'cordis' {
  interface Events {
    /** @mode emit — a listener of an emit-mode seam threw or rejected; the emitter carried on. */
    'kernel/listener-fault'(fault: ListenerFault): void
  }
}
