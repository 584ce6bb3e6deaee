// A hook's budget clock (65-mod-host.md requirement 9): it counts the hook's own time, pausing while a
// `next()` or a `$` call is pending (nested pauses count), unless it is a wall-clock bound that never
// pauses (`session.end`). On expiry it aborts `next.signal` and rejects `expired`.
export class BudgetExpired extends Error {
  override readonly name = 'BudgetExpired'
}

export class BudgetClock {
  readonly controller = new AbortController()
  readonly expired: Promise<never>
  private remaining: number
  private startedAt = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private pauses = 0
  private expire!: (error: Error) => void
  private done = false

  readonly ms: number
  private readonly pausable: boolean

  constructor(ms: number, pausable = true) {
    this.ms = ms
    this.pausable = pausable
    this.remaining = ms
    this.expired = new Promise<never>((_, reject) => {
      this.expire = reject
    })
    this.expired.catch(() => {})
    this.run()
  }

  get remainingMs(): number {
    if (this.done) return Math.max(0, this.remaining)
    return this.timer
      ? Math.max(0, this.remaining - (Date.now() - this.startedAt))
      : Math.max(0, this.remaining)
  }

  pause(): void {
    if (!this.pausable || this.done) return
    if (this.pauses++ === 0 && this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
      this.remaining -= Date.now() - this.startedAt
    }
  }

  resume(): void {
    if (!this.pausable || this.done) return
    if (--this.pauses === 0) this.run()
  }

  /** Stops the clock for good (the hook settled). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.done = true
  }

  private run(): void {
    this.startedAt = Date.now()
    this.timer = setTimeout(
      () => {
        this.done = true
        this.timer = undefined
        this.remaining = 0
        this.controller.abort(new BudgetExpired(`ran past its ${this.ms} ms budget`))
        this.expire(new BudgetExpired(`ran past its ${this.ms} ms budget`))
      },
      Math.max(0, this.remaining),
    )
    // Not unref'd: a hook awaiting what never settles leaves nothing else in the event loop, and the
    // process must live until this timer skips the hook (an unref'd timer let Node end the run instead).
  }
}
