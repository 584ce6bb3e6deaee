// The jobs page's source for `tack serve` (95-fleet.md F5, docs/decisions/0360-web-view.md): the fleet's
// read API (`@tack/fleet`: listJobs, getJob, cancelJob, retryJob) mapped onto the web view's own
// `JobSource`, so @tack/web never depends on how jobs are stored. Opened only when the sessions live in
// PostgreSQL (the fleet's jobs are in the same database); with the SQLite file there are no jobs to show.
import type { JobDetail, JobSource, JobSummary } from '@tack/web'
import type { JobView } from '@tack/fleet'

/** A `JobSource` on the fleet at `url`; its `close` ends the fleet's connections. */
export async function fleetJobSource(url: string, warn: (line: string) => void): Promise<JobSource> {
  const fleetLib = await import('@tack/fleet')
  const { JobActionError } = await import('@tack/web')
  const fleet = await fleetLib.openFleet(url, { warn })
  /** The fleet's refusal of a cancel or retry in the job's state is the page's 409. */
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action()
    } catch (error) {
      if (
        error instanceof fleetLib.FleetError &&
        (error.code === 'BAD_STATE' || error.code === 'NO_SUCH_JOB')
      )
        throw new JobActionError(error.message)
      throw error
    }
  }
  return {
    async listJobs() {
      return (await fleetLib.listJobs(fleet, { limit: 200 })).map(summaryOf)
    },
    async getJob(id) {
      try {
        return detailOf(await fleetLib.getJob(fleet, id))
      } catch (error) {
        if (error instanceof fleetLib.FleetError && error.code === 'NO_SUCH_JOB') return undefined
        throw error
      }
    },
    cancel: (id) => act(() => fleetLib.cancelJob(fleet, id)),
    retry: (id) => act(() => fleetLib.retryJob(fleet, id)),
    close: () => fleet.close(),
  }
}

/** The attempt running now, else the last one. */
function latestAttempt(job: JobView) {
  return job.current ?? job.attempts.at(-1)
}

export function summaryOf(job: JobView): JobSummary {
  const attempt = latestAttempt(job)
  const sessionId = job.result?.sessionId ?? attempt?.sessionId
  const updatedAt = attempt ? (attempt.lastEventAt ?? attempt.endedAt ?? attempt.startedAt) : undefined
  return {
    id: job.id,
    state: job.state,
    task: job.spec.task,
    repo: job.spec.repo,
    ...(job.spec.ref !== undefined ? { ref: job.spec.ref } : {}),
    ...(job.spec.model !== undefined ? { model: job.spec.model } : {}),
    labels: job.spec.labels,
    ...(attempt ? { attempt: attempt.attempt, worker: attempt.worker } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
    createdAt: job.submittedAt,
    ...(updatedAt !== undefined ? { updatedAt } : {}),
    ...(job.result?.costUsd !== undefined ? { costUsd: job.result.costUsd } : {}),
  }
}

export function detailOf(job: JobView): JobDetail {
  const result = job.result
  return {
    ...summaryOf(job),
    attempts: job.attempts.map((a) => ({
      attempt: a.attempt,
      worker: a.worker,
      outcome: a.outcome,
      ...(a.sessionId !== undefined ? { sessionId: a.sessionId } : {}),
      ...(a.reason !== undefined ? { reason: a.reason } : {}),
    })),
    ...(result
      ? {
          finalAnswer: result.finalText,
          exitReason: result.exitReason,
          diff: result.diff,
          usage: { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 },
        }
      : {}),
    ...(job.reason !== undefined ? { reason: job.reason } : {}),
  }
}
