// The read API of jobs (for `tack jobs list|show` and `tack serve`): listJobs, getJob and followJobs.
// Documented in packages/fleet/README.md; a reader needs only the database URL.
import type { JobWithMetadata } from 'pg-boss'
import type { Fleet } from './db.ts'
import { FleetError } from './errors.ts'
import type { JobSpec } from './job-spec.ts'
import {
  type AttemptOutcome,
  type AttemptView,
  type JobResult,
  type JobState,
  type JobView,
  stateOf,
} from './job-view.ts'

interface JobRow {
  id: string
  queue: string
  submitted_at: Date
  submitted_by: string
}

interface AttemptRow {
  job_id: string
  attempt: number
  worker: string
  session_id: string | null
  started_at: Date
  last_event_at: Date | null
  ended_at: Date | null
  outcome: AttemptOutcome
  reason: string | null
}

export interface ListOptions {
  /** Newest first; default 50, at most 1000. */
  readonly limit?: number
  readonly state?: JobState
}

export async function listJobs(fleet: Fleet, options: ListOptions = {}): Promise<JobView[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 1000)
  // With a state filter the newest `limit` jobs of that state are wanted: read more rows and filter.
  const rows = await fleet.pool.query<JobRow>(
    'SELECT id, queue, submitted_at, submitted_by FROM tack_fleet.jobs ORDER BY submitted_at DESC, id LIMIT $1',
    [options.state ? Math.min(limit * 20, 20_000) : limit],
  )
  const views = await viewsOf(fleet, rows.rows)
  const wanted = options.state ? views.filter((v) => v.state === options.state) : views
  return wanted.slice(0, limit)
}

/** A job by its id or a unique prefix of it (at least 6 characters), as `jobs show` prints ids. */
export async function getJob(fleet: Fleet, idOrPrefix: string): Promise<JobView> {
  const text = idOrPrefix.trim().toLowerCase()
  if (!/^[0-9a-f-]{6,36}$/.test(text))
    throw new FleetError('NO_SUCH_JOB', `"${idOrPrefix}" is not a job id (at least its first 6 characters)`)
  const rows = await fleet.pool.query<JobRow>(
    "SELECT id, queue, submitted_at, submitted_by FROM tack_fleet.jobs WHERE id::text LIKE $1 || '%' LIMIT 2",
    [text],
  )
  if (rows.rows.length === 0) throw new FleetError('NO_SUCH_JOB', `no job ${idOrPrefix}`)
  if (rows.rows.length > 1)
    throw new FleetError('NO_SUCH_JOB', `${idOrPrefix} names more than one job: give more of its id`)
  const [view] = await viewsOf(fleet, rows.rows)
  if (!view) throw new FleetError('NO_SUCH_JOB', `job ${idOrPrefix} is no longer kept by the queue`)
  return view
}

export interface FollowOptions {
  /** How often the jobs are read; default 1000 ms. */
  readonly intervalMs?: number
  readonly limit?: number
  readonly signal?: AbortSignal
}

/**
 * Calls `onChange` with every job whose view changed since the last look (all of them the first time),
 * until `signal` aborts. Polling, so it works over any connection pooler; the interval bounds the delay.
 */
export async function followJobs(
  fleet: Fleet,
  onChange: (changed: readonly JobView[]) => void,
  options: FollowOptions = {},
): Promise<void> {
  const seen = new Map<string, string>()
  const interval = options.intervalMs ?? 1000
  while (!options.signal?.aborted) {
    const jobs = await listJobs(fleet, { limit: options.limit ?? 200 })
    const changed = jobs.filter((job) => {
      const text = JSON.stringify(job)
      if (seen.get(job.id) === text) return false
      seen.set(job.id, text)
      return true
    })
    if (changed.length) onChange(changed)
    await sleep(interval, options.signal)
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

async function viewsOf(fleet: Fleet, rows: readonly JobRow[]): Promise<JobView[]> {
  if (rows.length === 0) return []
  // The queue's state first, tack's attempts after: every settle writes an attempt's end before the
  // job's, or in one transaction with it, so a job read as ended has its attempt's end in the read that
  // follows. The other order, two reads apart, showed a done job whose attempt was still running.
  const jobs = await Promise.all(
    rows.map(async (r) => (await fleet.boss.findJobs<JobSpec>(r.queue, { id: r.id }))[0]),
  )
  const attempts = await fleet.pool.query<AttemptRow>(
    'SELECT * FROM tack_fleet.attempts WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, attempt',
    [rows.map((r) => r.id)],
  )
  const byJob = new Map<string, AttemptRow[]>()
  for (const a of attempts.rows) byJob.set(a.job_id, [...(byJob.get(a.job_id) ?? []), a])
  const views: JobView[] = []
  rows.forEach((row, i) => {
    const job = jobs[i]
    if (job) views.push(viewOf(row, job, byJob.get(row.id) ?? []))
  })
  return views
}

const LOST = 'lost: its worker stopped heartbeating (killed, cut off or its machine gone)'

function viewOf(row: JobRow, job: JobWithMetadata<JobSpec>, rows: readonly AttemptRow[]): JobView {
  const state = stateOf(job.state)
  // pg-boss counts claims in retry_count: the running (or last) claim is attempt retryCount + 1.
  const currentNumber = state === 'active' ? job.retryCount + 1 : undefined
  const attempts = rows.map((a): AttemptView => {
    // A `running` row that is not the live claim belonged to a worker that died: shown as interrupted
    // (the next attempt also writes it so). A cancelled job's worker settles its row at its next lease
    // check; until a heartbeat's time has passed the row is still its to settle.
    const settling =
      state === 'cancelled' &&
      Date.now() - (a.last_event_at ?? a.started_at).getTime() < (job.heartbeatSeconds ?? 30) * 1000
    const lost = a.outcome === 'running' && a.attempt !== currentNumber && !settling
    return {
      attempt: a.attempt,
      worker: a.worker,
      ...(a.session_id ? { sessionId: a.session_id } : {}),
      startedAt: a.started_at.toISOString(),
      ...(a.last_event_at ? { lastEventAt: a.last_event_at.toISOString() } : {}),
      ...(a.ended_at ? { endedAt: a.ended_at.toISOString() } : {}),
      outcome: lost ? 'interrupted' : a.outcome,
      ...(lost ? { reason: LOST } : a.reason ? { reason: a.reason } : {}),
    }
  })
  const current = attempts.find((a) => a.attempt === currentNumber && a.outcome === 'running')
  const output = job.output as Record<string, unknown> | null
  const result =
    state === 'done' && output && typeof output.sessionId === 'string'
      ? (output as unknown as JobResult)
      : undefined
  const reason = state === 'failed' || state === 'cancelled' ? reasonOf(state, output, attempts) : undefined
  return {
    id: row.id,
    state,
    spec: job.data,
    queue: row.queue,
    submittedAt: row.submitted_at.toISOString(),
    submittedBy: row.submitted_by,
    retryLimit: job.retryLimit,
    attempts,
    ...(current ? { current } : {}),
    ...(result ? { result } : {}),
    ...(reason ? { reason } : {}),
  }
}

function reasonOf(
  state: JobState,
  output: Record<string, unknown> | null,
  attempts: readonly AttemptView[],
): string {
  if (state === 'cancelled') return 'cancelled'
  if (output && typeof output.reason === 'string') return output.reason
  const message = (output?.value as { message?: unknown } | undefined)?.message
  if (message === 'job heartbeat timeout') return LOST
  if (typeof message === 'string') return message
  return attempts.at(-1)?.reason ?? 'failed'
}
