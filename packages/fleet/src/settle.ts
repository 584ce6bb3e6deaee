// Two ends of an attempt that pg-boss's `fail` alone gets wrong (docs/decisions/0385-fleet-retries.md):
// a job stopped by its own cost limit must not run again by itself, and an attempt its worker could not
// even start (no key for the model) must not use up one of the job's retries. pg-boss 12 has neither a
// "fail without retry" nor a "release" for a fetched job, so each is its public `fail`, fenced to the
// claim, followed in the same transaction by `update` of the job's retry limit (allowed once the job is
// no longer active) — and, for the stop, a second `fail` that now finds no retry left. The job ends in
// pg-boss's own `failed` (or `retry`) state, so `tack jobs retry` and the job views need nothing new.
import type { Db, JobWithMetadata } from 'pg-boss'
import { endAttempt } from './attempts.ts'
import { type Fleet, inTransaction, WAKE_CHANNEL } from './db.ts'

/** The claim a worker fetched: pg-boss fences every settle to it. */
export interface Claim {
  readonly id: string
  readonly retryCount: number
}

/** What the job's output says when it failed: shown as its reason by `tack jobs show`. */
export interface FailureOutput {
  readonly reason: string
  readonly sessionId?: string
}

/**
 * Fails the job for good: state `failed` with `output`, whatever retries it had left, and the attempt
 * recorded `failed` with the same reason. False when the claim was no longer this worker's.
 */
export async function failForGood(
  fleet: Fleet,
  queue: string,
  claim: Claim,
  attempt: number,
  output: FailureOutput,
): Promise<boolean> {
  return inTransaction(fleet, async (db, client) => {
    const now = await failFenced(fleet, queue, claim, output, db)
    if (now === false) return false
    if (now?.state === 'retry') {
      // No retry left: the second fail finds retry_count = retry_limit and ends the job `failed`. A
      // person's `tack jobs retry` raises the limit by one again, so it runs once more.
      await fleet.boss.update(queue, undefined, { id: claim.id, retryLimit: now.retryCount, db })
      await fleet.boss.fail(queue, claim.id, { ...output }, { db })
    }
    await endAttempt(client, claim.id, attempt, 'failed', output.reason)
    return true
  })
}

/**
 * Puts the job back in the queue without counting this attempt: fails it (so another worker takes it
 * after the job's retry delay) and gives it one more retry than it had. The attempt is recorded
 * `handed-back`. False when the claim was no longer this worker's.
 */
export async function handBackUncounted(
  fleet: Fleet,
  queue: string,
  claim: Claim,
  attempt: number,
  output: FailureOutput,
): Promise<boolean> {
  return inTransaction(fleet, async (db, client) => {
    const now = await failFenced(fleet, queue, claim, output, db)
    if (now === false) return false
    if (now?.state === 'retry')
      await fleet.boss.update(queue, undefined, { id: claim.id, retryLimit: now.retryLimit + 1, db })
    // Its last retry: the fail ended it; pg-boss's retry queues it again with the limit one higher.
    else if (now?.state === 'failed') await fleet.boss.retry(queue, claim.id, { db })
    await endAttempt(client, claim.id, attempt, 'handed-back', output.reason)
    await client.query(`NOTIFY ${WAKE_CHANNEL}`)
    return true
  })
}

/**
 * pg-boss's `fail`, fenced to the claim, then the job as it stands after it (in `retry` or `failed`);
 * false when the claim was no longer this worker's.
 */
async function failFenced(
  fleet: Fleet,
  queue: string,
  claim: Claim,
  output: FailureOutput,
  db: Db,
): Promise<JobWithMetadata | undefined | false> {
  const failed = (await fleet.boss.fail(queue, claim, { ...output }, { db })) as { affected?: number }
  if (!failed.affected) return false
  const [job] = await fleet.boss.findJobs<object>(queue, { id: claim.id, db })
  return job
}
