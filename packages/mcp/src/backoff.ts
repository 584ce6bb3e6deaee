// When a failed server may be started again (spec 55-mcp.md M2): `restartBackoffMs` after the first
// failure in a row, doubled after each further one up to `restartBackoffMaxMs`; a good start resets it.
export class RestartBackoff {
  #failures = 0
  #notBefore = 0
  readonly #baseMs: number
  readonly #maxMs: number

  constructor(baseMs: number, maxMs: number) {
    this.#baseMs = baseMs
    this.#maxMs = maxMs
  }

  failed(now = Date.now()): void {
    const delay = Math.min(this.#maxMs, this.#baseMs * 2 ** Math.min(this.#failures, 30))
    this.#failures++
    this.#notBefore = now + delay
  }

  succeeded(): void {
    this.#failures = 0
    this.#notBefore = 0
  }

  /** Milliseconds until the next start may be tried (0: now). */
  waitMs(now = Date.now()): number {
    return Math.max(0, this.#notBefore - now)
  }
}
