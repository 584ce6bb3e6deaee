// The throw-away cluster the fleet's tests share: a real server, password authentication, one database
// per test that the others do not see.
import { afterAll, beforeAll, expect, test } from 'vitest'
import pg from 'pg'
import { startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

test('a database per test, reachable with the password and refused without it', async () => {
  const a = await cluster.createDatabase()
  const b = await cluster.createDatabase()
  const ca = new pg.Client({ connectionString: a })
  await ca.connect()
  await ca.query('CREATE TABLE only_in_a (x int)')
  await ca.end()
  const cb = new pg.Client({ connectionString: b })
  await cb.connect()
  const r = await cb.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_in_a'")
  expect(r.rows[0].n).toBe(0)
  await cb.end()
  const wrong = new pg.Client({ connectionString: a.replace(cluster.password, 'wrong-password') })
  await expect(wrong.connect()).rejects.toThrow(/password authentication failed/)
})
