// What the jobs page reads and does (95-fleet.md F2, F5): a small interface of the web view's own, so the
// page does not depend on how jobs are stored. `tack serve` connects it to the fleet's read API when the
// configuration names a fleet database; without one the page says jobs are not connected.

export type JobState = 'queued' | 'active' | 'done' | 'failed' | 'cancelled'

export interface JobUsage {
  readonly inputTokens: number
  readonly outputTokens: number
}

/** A row of the job table. */
export interface JobSummary {
  readonly id: string
  readonly state: JobState
  readonly task: string
  readonly repo: string
  readonly ref?: string
  readonly model?: string
  readonly labels?: Readonly<Record<string, string>>
  /** The attempt running or last run, from 1. */
  readonly attempt?: number
  readonly worker?: string
  /** The session of the attempt running or last run. */
  readonly sessionId?: string
  readonly createdAt: string
  /** The last thing that happened to it (state change, session event). */
  readonly updatedAt?: string
  readonly costUsd?: number
}

export interface JobAttempt {
  readonly attempt: number
  readonly sessionId?: string
  readonly worker?: string
  /** How it ended (`running` while it runs): `done`, `failed`, `interrupted`, `cancelled`, … */
  readonly outcome?: string
  /** Why it ended, when it failed or was cut short. */
  readonly reason?: string
}

/** One job's page: its row, its attempts and its result. */
export interface JobDetail extends JobSummary {
  readonly attempts: readonly JobAttempt[]
  readonly finalAnswer?: string
  readonly exitReason?: string
  /** Why the job failed or was cancelled, in one line. */
  readonly reason?: string
  readonly usage?: JobUsage
  /** The workspace's diff at the end (unified format). */
  readonly diff?: string
}

/** A cancel or retry the job's state does not allow (cancelling a finished job): answered 409. */
export class JobActionError extends Error {
  override readonly name = 'JobActionError'
}

export interface JobSource {
  listJobs(): Promise<readonly JobSummary[]>
  /** undefined for an unknown id. */
  getJob(id: string): Promise<JobDetail | undefined>
  /** Cancels a queued or running job (a running session stops as on Ctrl-C); `JobActionError` otherwise. */
  cancel(id: string): Promise<void>
  /** Runs a failed or cancelled job again; `JobActionError` otherwise. */
  retry(id: string): Promise<void>
  close?(): Promise<void>
}
