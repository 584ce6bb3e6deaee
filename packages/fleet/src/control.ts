// `tack jobs cancel|retry` (95-fleet.md F2, F4): pg-boss's own cancel, resume and retry. A running job's
// worker learns of the cancel at its next lease refresh (plugins.fleet.leaseCheckMs) and ends the turn
// like Ctrl-C.
import { type Fleet, WAKE_CHANNEL } from './db.ts'
import { FleetError } from './errors.ts'
import type { JobView } from './job-view.ts'
import { getJob } from './read.ts'

export async function cancelJob(fleet: Fleet, idOrPrefix: string): Promise<JobView> {
  const job = await getJob(fleet, idOrPrefix)
  if (job.state !== 'queued' && job.state !== 'active')
    throw new FleetError('BAD_STATE', `job ${job.id} is already ${job.state}: nothing to cancel`)
  const r = (await fleet.boss.cancel(job.queue, job.id)) as { affected?: number }
  if (!r.affected) throw new FleetError('BAD_STATE', `job ${job.id} ended before it could be cancelled`)
  return job
}

/** A failed job runs again (one more attempt); a cancelled one goes back to the queue. */
export async function retryJob(fleet: Fleet, idOrPrefix: string): Promise<JobView> {
  const job = await getJob(fleet, idOrPrefix)
  let r: { affected?: number }
  if (job.state === 'failed') r = (await fleet.boss.retry(job.queue, job.id)) as typeof r
  else if (job.state === 'cancelled') r = (await fleet.boss.resume(job.queue, job.id)) as typeof r
  else
    throw new FleetError(
      'BAD_STATE',
      `job ${job.id} is ${job.state}: only a failed or cancelled job is retried`,
    )
  if (!r.affected) throw new FleetError('BAD_STATE', `job ${job.id} changed state meanwhile: look again`)
  await fleet.pool.query(`NOTIFY ${WAKE_CHANNEL}`)
  return job
}
