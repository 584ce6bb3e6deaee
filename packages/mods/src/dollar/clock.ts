// `$.clock` (65-mod-host.md requirement 11): timers end with the instance (session end or dispose); a
// throwing callback is reported and `every` keeps its schedule. Once ended, the clock schedules nothing: a
// timer asked for later (a continuation of work still settling at session end) would keep tack alive past
// its session, and a sleep asked for later never wakes (it is waiting, not work, so nothing waits for it)
// (docs/decisions/0190-mod-loading-and-release-bounds.md).
export interface Timers {
  readonly clock: {
    now(): Promise<number>
    sleep(ms: number, opts?: { signal?: AbortSignal }): Promise<void>
    after(ms: number, fn: () => unknown): Promise<{ cancel(): void }>
    every(ms: number, fn: () => unknown): Promise<{ cancel(): void }>
  }
  /** Cancels every timer of the instance. */
  dispose(): void
}

export function createClock(report: (message: string) => void): Timers {
  const live = new Set<ReturnType<typeof setTimeout>>()
  const sleepers = new Set<() => void>()
  let ended = false
  const nothing = { cancel() {} }
  const guarded = (fn: () => unknown) => () => {
    try {
      Promise.resolve(fn()).catch((error) => report(`timer callback failed: ${(error as Error).message}`))
    } catch (error) {
      report(`timer callback failed: ${(error as Error).message}`)
    }
  }
  const handle = (timer: ReturnType<typeof setTimeout>, clear: () => void) => {
    live.add(timer)
    return {
      cancel() {
        clear()
        live.delete(timer)
      },
    }
  }
  return {
    clock: {
      now: async () => Date.now(),
      sleep: (ms, opts) =>
        new Promise<void>((resolve, reject) => {
          if (ended) return
          const done = () => {
            clearTimeout(timer)
            sleepers.delete(done)
            resolve()
          }
          const timer = setTimeout(done, ms)
          sleepers.add(done)
          opts?.signal?.addEventListener('abort', () => {
            clearTimeout(timer)
            sleepers.delete(done)
            reject(opts.signal?.reason)
          })
        }),
      after: async (ms, fn) => {
        if (ended) return nothing
        const timer = setTimeout(() => {
          live.delete(timer)
          guarded(fn)()
        }, ms)
        return handle(timer, () => clearTimeout(timer))
      },
      every: async (ms, fn) => {
        if (ended) return nothing
        const timer = setInterval(guarded(fn), Math.max(1, ms))
        return handle(timer, () => clearInterval(timer))
      },
    },
    dispose() {
      ended = true
      for (const timer of live) {
        clearTimeout(timer)
        clearInterval(timer)
      }
      live.clear()
      for (const wake of [...sleepers]) wake()
    },
  }
}
