// SL-26 on PostgreSQL (95-fleet.md F1): the shared conformance suite, a fresh database per test on a
// real throw-away server.
import { describeSessionStore } from '@tack/session/testing'
import { afterAll, beforeAll } from 'vitest'
import { PostgresSessionStore } from '../src/index.ts'
import { startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

describeSessionStore('postgres', async () =>
  PostgresSessionStore.open({ url: await cluster.createDatabase() }),
)
