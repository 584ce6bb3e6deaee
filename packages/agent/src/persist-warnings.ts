// A session that cannot be written (a full disk, a store gone read-only) fails every flush until the
// cause is fixed. Warning at each one repeated the same store error at every turn end and again at
// exit, burying everything else; a person needs to hear once that writes fail and once that they work
// again. Nothing is dropped meanwhile: a session moves its flushed mark only on success, so the next
// flush that works writes every event held back.

export type Warn = (format: string, ...args: unknown[]) => void

/** The warnings of one session's failure streak: its first failure, and its recovery. */
export class PersistWarnings {
  #failing = false
  readonly #warn: Warn
  readonly #sessionId: string

  constructor(sessionId: string, warn: Warn) {
    this.#sessionId = sessionId
    this.#warn = warn
  }

  /** A flush of `what` failed: warns when it starts a streak, stays quiet while the streak lasts. */
  failed(what: string, error: unknown): void {
    if (this.#failing) return
    this.#failing = true
    this.#warn(
      'could not persist %s of session %s: %s (kept in memory and written by the next flush that works; further failures are not repeated)',
      what,
      this.#sessionId,
      String(error),
    )
  }

  /** A flush worked: ends a streak with one line saying what was held back is stored now. */
  succeeded(): void {
    if (!this.#failing) return
    this.#failing = false
    this.#warn('session %s persists again: everything held back is now stored', this.#sessionId)
  }
}
