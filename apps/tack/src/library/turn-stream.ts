// One prompt's events as an async iterable (api.ts Turn): events are pushed as the session appends
// them and kept until the prompt ends, so every iterator, started early or late, reads them all in
// order, and one that is never started holds nothing up. `result` settles on its own.
import type { TackEvent, Turn, TurnResult } from './api.ts'

export class TurnStream implements Turn {
  readonly #events: TackEvent[] = []
  #ended = false
  #failure: { error: unknown } | undefined
  #waiters: Array<() => void> = []
  readonly result: Promise<TurnResult>

  constructor(result: Promise<TurnResult>) {
    this.result = result
    // Read through `result`, a rejection is the caller's; an iterating caller without it must not crash the process.
    result.catch(() => {})
  }

  push(event: TackEvent): void {
    this.#events.push(event)
    this.#wake()
  }

  /** No more events; with `failure`, iterating throws it after the events (the prompt failed, not the turn). */
  end(failure?: { error: unknown }): void {
    this.#ended = true
    this.#failure = failure
    this.#wake()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TackEvent> {
    for (let next = 0; ; ) {
      if (next < this.#events.length) yield this.#events[next++]
      else if (this.#ended) {
        if (this.#failure) throw this.#failure.error
        return
      } else await new Promise<void>((resolve) => this.#waiters.push(resolve))
    }
  }

  #wake(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }
}
