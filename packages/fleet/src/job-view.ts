// What a person (and `tack serve`) sees of a job: pg-boss's state mapped onto the fleet's five states
// (95-fleet.md F2), with tack's record of every attempt beside it.
import type { JobSpec } from './job-spec.ts'

export const JOB_STATES = ['queued', 'active', 'done', 'failed', 'cancelled'] as const
export type JobState = (typeof JOB_STATES)[number]

/** How an attempt ended. `running` only while its worker holds the lease. */
export type AttemptOutcome = 'running' | 'done' | 'failed' | 'interrupted' | 'cancelled' | 'handed-back'

export interface AttemptView {
  readonly attempt: number
  readonly worker: string
  readonly sessionId?: string
  readonly startedAt: string
  readonly lastEventAt?: string
  readonly endedAt?: string
  readonly outcome: AttemptOutcome
  readonly reason?: string
}

/** What a finished session left: stored with the job so nothing of value lives on a worker's disk. */
export interface JobResult {
  readonly sessionId: string
  readonly attempt: number
  readonly exitReason: string
  readonly finalText: string
  readonly usage: Readonly<Record<string, number>>
  readonly costUsd?: number
  /** `git diff` of the workspace against the checked-out ref (binary-safe), empty when nothing changed. */
  readonly diff: string
}

export interface JobView {
  readonly id: string
  readonly state: JobState
  readonly spec: JobSpec
  readonly queue: string
  readonly submittedAt: string
  readonly submittedBy: string
  /** Attempts pg-boss allows after the first. */
  readonly retryLimit: number
  readonly attempts: readonly AttemptView[]
  /** The attempt running now (state `active`). */
  readonly current?: AttemptView
  readonly result?: JobResult
  /** Why it failed or was cancelled, in one line. */
  readonly reason?: string
}

const PG_BOSS_STATES: Record<string, JobState> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
}

export function stateOf(pgBossState: string): JobState {
  return PG_BOSS_STATES[pgBossState] ?? 'queued'
}
