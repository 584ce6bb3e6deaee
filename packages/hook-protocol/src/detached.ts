// Detached runs (40-hooks.md A8). Emit-shaped points (SessionStart, SubagentStart, SubagentStop) are not
// awaited by the loop, so their hook runs are tracked here: `track` registers a chain (the hook run
// plus whatever it does after, e.g. injecting context), `signal` goes to every `runHook` of those
// chains, and `drain` aborts it (killing the process groups) and settles once the last chain has.
// A bridge makes `drain` its dispose effect: a resolved dispose means no live hook process and no
// late injection (a chain checks `signal.aborted` before acting on a result).

export interface DetachedRuns {
  /** Aborted by `drain`; pass it to each tracked run. */
  readonly signal: AbortSignal
  /** Registers `chain` and returns it unchanged (its rejection is the caller's; `drain` ignores it). */
  track<T>(chain: Promise<T>): Promise<T>
  /** Aborts `signal`, then resolves once every tracked chain has settled, including ones tracked meanwhile. Never rejects. */
  drain(): Promise<void>
  /** Chains still running. */
  readonly pending: number
}

export function createDetachedRuns(): DetachedRuns {
  const controller = new AbortController()
  const live = new Set<Promise<unknown>>()
  return {
    signal: controller.signal,
    track<T>(chain: Promise<T>): Promise<T> {
      const settled: Promise<void> = chain.then(
        () => {},
        () => {},
      )
      live.add(settled)
      void settled.then(() => live.delete(settled))
      return chain
    },
    async drain(): Promise<void> {
      controller.abort()
      while (live.size > 0) await Promise.all([...live])
    },
    get pending() {
      return live.size
    },
  }
}
