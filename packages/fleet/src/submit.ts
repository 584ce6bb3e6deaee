// Submitting jobs (95-fleet.md F2): every job of a call goes in one transaction — tack's row and
// pg-boss's job together — so a batch is all queued or none of it is.
import { randomUUID } from 'node:crypto'
import { type Fleet, inTransaction, WAKE_CHANNEL } from './db.ts'
import type { JobSpec } from './job-spec.ts'
import { queueFor } from './labels.ts'

export interface SubmitOptions {
  readonly retryLimit: number
  readonly heartbeatSeconds: number
  readonly maxJobMinutes: number
  /** Who submitted (user@host), shown by `jobs show`. */
  readonly submittedBy: string
}

/** Queues (one per label set) are created on first use; pg-boss's create_queue is idempotent. */
export async function ensureQueue(fleet: Fleet, queue: string): Promise<void> {
  if (await fleet.boss.getQueue(queue)) return
  await fleet.boss.createQueue(queue, { retentionSeconds: 14 * 86_400, deleteAfterSeconds: 30 * 86_400 })
}

/** Returns the new jobs' ids, in the order of `specs`. */
export async function submitJobs(
  fleet: Fleet,
  specs: readonly JobSpec[],
  options: SubmitOptions,
): Promise<string[]> {
  const byQueue = new Map<string, Array<{ id: string; spec: JobSpec }>>()
  const ids = specs.map((spec) => {
    const id = randomUUID()
    const queue = queueFor(spec.labels)
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), { id, spec }])
    return id
  })
  for (const queue of byQueue.keys()) await ensureQueue(fleet, queue)
  await inTransaction(fleet, async (db, client) => {
    for (const [queue, jobs] of byQueue) {
      await client.query(
        'INSERT INTO tack_fleet.jobs (id, queue, submitted_by) SELECT unnest($1::uuid[]), $2, $3',
        [jobs.map((j) => j.id), queue, options.submittedBy],
      )
      await fleet.boss.insert(
        queue,
        jobs.map(({ id, spec }) => ({
          id,
          data: spec,
          retryLimit: options.retryLimit,
          // pg-boss retries at once; a short delay spreads a dead machine's jobs over the others.
          retryDelay: 1,
          heartbeatSeconds: options.heartbeatSeconds,
          expireInSeconds: options.maxJobMinutes * 60,
        })),
        { db },
      )
    }
    // Wakes idle workers at once (delivered on commit); a worker behind a pooler that drops LISTEN
    // still finds the jobs at its next poll.
    await client.query(`NOTIFY ${WAKE_CHANNEL}`)
  })
  return ids
}
