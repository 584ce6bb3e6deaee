import { afterAll, beforeAll, expect, test } from 'vitest'
import { POSTGRES_SCHEMA_VERSION, PostgresSessionStore, PostgresStoreError } from '../src/index.ts'
import { runSql, startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const sql = runSql

async function openError(url: string): Promise<PostgresStoreError> {
  try {
    await (await PostgresSessionStore.open({ url })).close()
  } catch (error) {
    expect(error).toBeInstanceOf(PostgresStoreError)
    return error as PostgresStoreError
  }
  throw new Error('expected the store to refuse the database')
}

test('a fresh database gets the schema at first open; later opens find it current', async () => {
  const url = await cluster.createDatabase()
  const first = await PostgresSessionStore.open({ url })
  expect(first.schemaFound).toBe(0)
  const status = await first.status()
  expect(status).toMatchObject({ schemaVersion: POSTGRES_SCHEMA_VERSION, sessions: 0 })
  expect(status.serverVersion).toMatch(/^\d+/)
  expect(status.url).not.toContain(cluster.password)
  await first.close()
  const again = await PostgresSessionStore.open({ url })
  expect(again.schemaFound).toBe(POSTGRES_SCHEMA_VERSION)
  await again.close()
})

test('six stores opening one fresh database at once create the schema once, and all work', async () => {
  const url = await cluster.createDatabase()
  const stores = await Promise.all(Array.from({ length: 6 }, () => PostgresSessionStore.open({ url })))
  try {
    expect(stores.filter((s) => s.schemaFound === 0)).toHaveLength(1)
    await Promise.all(
      stores.map((s, i) =>
        s.create({ version: 1, id: `s${i}`, createdAt: '2026-01-01T00:00:00.000Z', cwd: '/' }),
      ),
    )
    expect((await stores[0]?.list())?.map((s) => s.id)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5'])
    expect((await sql(url, 'SELECT count(*)::int AS n FROM tack.schema_version')).rows[0].n).toBe(1)
  } finally {
    await Promise.all(stores.map((s) => s.close()))
  }
})

test('a schema from a newer tack is refused in one line naming both versions; nothing is changed', async () => {
  const url = await cluster.createDatabase()
  const store = await PostgresSessionStore.open({ url })
  await store.create({ version: 1, id: 'kept', createdAt: '2026-01-01T00:00:00.000Z', cwd: '/' })
  await store.close()
  await sql(url, 'UPDATE tack.schema_version SET version = 99')
  const error = await openError(url)
  expect(error.code).toBe('STORE_SCHEMA_NEWER')
  expect(error.message).toContain(`tack schema version 99, newer than version ${POSTGRES_SCHEMA_VERSION}`)
  expect(error.message).toContain(`127.0.0.1:${cluster.port}`)
  expect(error.message).not.toContain(cluster.password)
  expect(error.message).not.toContain('\n')
  expect((await sql(url, 'SELECT version FROM tack.schema_version')).rows[0].version).toBe(99)
  expect((await sql(url, 'SELECT id FROM tack.sessions')).rows).toEqual([{ id: 'kept' }])
})

test('tables in the schema `tack` that tack did not make are refused, and left alone', async () => {
  const url = await cluster.createDatabase()
  await sql(url, 'CREATE SCHEMA tack; CREATE TABLE tack.sessions (x int)')
  const error = await openError(url)
  expect(error.code).toBe('STORE_SCHEMA_DAMAGED')
  expect(error.message).toMatch(/holds tables but no tack version row/)
  expect(
    (await sql(url, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'tack'")).rows[0].n,
  ).toBe(1)
})
