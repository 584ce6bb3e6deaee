// Emit-mode seams are notifications: a listener's failure must never affect the emitter (AL-18,
// "extensions never break a session"). cordis's own `emit` stops at the first throwing listener, so
// emit seams go through `emitSafely`, which isolates each listener and reports its failure.
import type { Context, Events } from 'cordis'
import { listenersOf } from './seam.ts'

export interface ListenerFault {
  readonly seam: string
  readonly error: unknown
}

type Args<K extends keyof Events> = Events[K] extends (...args: infer P) => unknown ? P : never

/** Emits `name` to every listener; a throwing (or rejecting) listener is reported, not propagated. */
export function emitSafely<K extends keyof Events & string>(ctx: Context, name: K, ...args: Args<K>): void {
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
        callback({ seam, error })
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
