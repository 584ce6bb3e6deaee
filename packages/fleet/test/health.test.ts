// fleetHealth over one connection (tack doctor's own, apps/tack/src/commands/doctor-fleet.ts): with jobs on
// several queues it counts each, and never sends that connection two queries at once (pg's deprecated
// use, which printed a DeprecationWarning on doctor's stderr).
import { startThrowawayCluster, type ThrowawayCluster } from '@tack/store-postgres/testing'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { checkJob, fleetHealth, openFleet, submitJobs } from '../src/index.ts'
import { makeRepo } from './fixtures.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

test('doctor counts every queue through its one connection without overlapping queries', async () => {
  const url = await cluster.createDatabase()
  const repo = makeRepo()
  const fleet = await openFleet(url)
  try {
    const specs = [{}, { os: 'linux' }, { gpu: '1' }].map((labels) =>
      checkJob({ task: 't', repo, labels }, '/'),
    )
    await submitJobs(fleet, specs, {
      retryLimit: 0,
      heartbeatSeconds: 10,
      maxJobMinutes: 5,
      submittedBy: 't',
    })
  } finally {
    await fleet.close()
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let inFlight = 0
  let most = 0
  try {
    const health = await fleetHealth({
      db: {
        executeSql: async (text, values) => {
          most = Math.max(most, ++inFlight)
          try {
            return await client.query(text, values as unknown[])
          } finally {
            inFlight--
          }
        },
      },
    })
    expect(health.queues.map((q) => [q.name, q.queued]).sort()).toEqual([
      ['tack-jobs', 1],
      ['tack-jobs/gpu/1', 1],
      ['tack-jobs/os/linux', 1],
    ])
    expect(most).toBe(1)
  } finally {
    await client.end()
  }
}, 30_000)
