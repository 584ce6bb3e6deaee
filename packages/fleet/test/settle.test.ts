// The two settles pg-boss has no single call for (docs/decisions/0385-fleet-retries.md), on a real
// PostgreSQL and at the edges the end-to-end test does not reach: a cost stop on a job's last retry and
// with retries left, a hand-back on the last retry (which pg-boss's fail alone would end `failed`), and a
// stale claim, which neither may settle.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import type { Job } from 'pg-boss'
import { beginAttempt } from '../src/attempts.ts'
import { type Fleet, getJob, type JobSpec, openFleet, retryJob, submitJobs } from '../src/index.ts'
import { failForGood, handBackUncounted } from '../src/settle.ts'
import { makeRepo } from './fixtures.ts'

let cluster: ThrowawayCluster
let repo: string
beforeAll(async () => {
  cluster = await startThrowawayCluster()
  repo = makeRepo()
}, 60_000)
afterAll(() => cluster?.stop())

async function withJob(retryLimit: number, body: (fleet: Fleet, id: string) => Promise<void>) {
  const fleet = await openFleet(await cluster.createDatabase())
  try {
    const [id] = await submitJobs(fleet, [{ task: 't', repo, labels: {} }], {
      retryLimit,
      heartbeatSeconds: 10,
      maxJobMinutes: 5,
      submittedBy: 'test',
    })
    await body(fleet, id)
  } finally {
    await fleet.close()
  }
}

/** Takes the job as a worker does (waiting out pg-boss's retry delay), its attempt recorded. */
async function take(fleet: Fleet): Promise<Job<JobSpec>> {
  const end = Date.now() + 10_000
  for (;;) {
    const [job] = await fleet.boss.fetch<JobSpec>('tack-jobs', { batchSize: 1 })
    if (job) {
      await beginAttempt(fleet, job.id, job.retryCount + 1, 'w')
      return job
    }
    if (Date.now() > end) throw new Error('no job to take')
    await new Promise((r) => setTimeout(r, 100))
  }
}

test('a cost stop ends the job failed with retries left; retry gives exactly one more attempt', async () => {
  await withJob(2, async (fleet, id) => {
    const job = await take(fleet)
    expect(await failForGood(fleet, 'tack-jobs', job, 1, { reason: 'stopped by its cost limit' })).toBe(true)
    let view = await getJob(fleet, id)
    expect(view).toMatchObject({ state: 'failed', reason: 'stopped by its cost limit', retryLimit: 0 })
    expect(view.attempts).toMatchObject([
      { attempt: 1, outcome: 'failed', reason: 'stopped by its cost limit' },
    ])
    await retryJob(fleet, id)
    const again = await take(fleet)
    expect(again.retryCount).toBe(1)
    expect(await failForGood(fleet, 'tack-jobs', again, 2, { reason: 'stopped again' })).toBe(true)
    view = await getJob(fleet, id)
    expect(view).toMatchObject({ state: 'failed', reason: 'stopped again', retryLimit: 1 })
    expect(view.attempts.map((a) => a.outcome)).toEqual(['failed', 'failed'])
  })
})

test('a hand-back on the last retry queues the job again, the attempt not counted', async () => {
  await withJob(0, async (fleet, id) => {
    const job = await take(fleet)
    expect(await handBackUncounted(fleet, 'tack-jobs', job, 1, { reason: 'handed back' })).toBe(true)
    const view = await getJob(fleet, id)
    expect(view).toMatchObject({ state: 'queued', retryLimit: 1 })
    expect(view.attempts).toMatchObject([{ attempt: 1, outcome: 'handed-back', reason: 'handed back' }])
    // The job still has the one attempt it was submitted with: a plain failure of it ends the job.
    const again = await take(fleet)
    expect(again.retryCount).toBe(1)
    await fleet.boss.fail('tack-jobs', again, { reason: 'the job failed' })
    expect(await getJob(fleet, id)).toMatchObject({ state: 'failed', reason: 'the job failed' })
  })
})

test('neither settles a claim that is no longer the worker', async () => {
  await withJob(2, async (fleet, id) => {
    const job = await take(fleet)
    await fleet.boss.fail('tack-jobs', job, { reason: 'lapsed' })
    const newer = await take(fleet)
    expect(await failForGood(fleet, 'tack-jobs', job, 1, { reason: 'late' })).toBe(false)
    expect(await handBackUncounted(fleet, 'tack-jobs', job, 1, { reason: 'late' })).toBe(false)
    const view = await getJob(fleet, id)
    expect(view).toMatchObject({ state: 'active', retryLimit: 2 })
    expect(view.current).toMatchObject({ attempt: newer.retryCount + 1 })
  })
})
