// The one thing the worker needs of tack: run a task as a headless session in a folder. The CLI gives
// an implementation built on tack's library (`openSession`, apps/tack/src/library), so the worker runs
// sessions exactly as a library user would — same plugins, sandbox and permission mode as `tack run`.

export interface SessionOutcome {
  /** The turn's end: `completed`, `aborted`, `error`, `max-tokens`, `rejected`, … */
  readonly exitReason: string
  /** Why, when it did not complete (the error's message, "cost passed $N"). */
  readonly detail?: string
  readonly finalText: string
  readonly usage: Readonly<Record<string, number>>
  readonly costUsd?: number
}

export interface StartSession {
  readonly cwd: string
  readonly task: string
  readonly model?: string
  readonly maxCostUsd?: number
  /** Logged in the session's header, so a session names its job and the attempt before it. */
  readonly metadata: { readonly jobId: string; readonly attempt: number; readonly attemptOf?: string }
  /** Called on every event the session appends (the worker records when it last heard of it). */
  readonly onEvent: () => void
}

export interface RunningSession {
  readonly sessionId: string
  /** Ends the turn like Ctrl-C: it closes `aborted`, and `result` settles. */
  abort(reason: string): void
  readonly result: Promise<SessionOutcome>
}

export interface SessionRunner {
  start(options: StartSession): Promise<RunningSession>
  /**
   * An earlier attempt's session, whose worker died mid-turn: closed as interrupted with its log kept
   * (the store's own recovery of a torn turn). Absent: the store recovers it the next time it is read.
   */
  closeInterrupted?(sessionId: string): Promise<void>
}

/**
 * What `SessionRunner.start` throws when the worker cannot run a session for a reason of its own, not
 * of the job: no key for the model, no model at all. The worker then hands the job back without
 * counting the attempt and stops taking jobs (docs/decisions/0385-fleet-retries.md). Any other error of
 * `start` fails the attempt as the job's.
 */
export class WorkerCannotRunError extends Error {
  override readonly name = 'WorkerCannotRunError'
}
