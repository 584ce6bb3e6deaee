// The writer lease across processes (95-fleet.md F1, docs/decisions/0017-writer-lease.md): a session a
// live writer holds is never "recovered" by a reader, nor taken or removed by another writer; a dead
// writer's lease ends at once on its own machine (by pid) and after leaseTimeoutMs elsewhere (by the
// heartbeat the database timed).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { SessionEventError } from '@tack/session'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PostgresSessionStore } from '../src/index.ts'
import { startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

const WRITER = fileURLToPath(new URL('./lease-writer.ts', import.meta.url))
const TTL = 1000

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

/** A writer process holding session `id`, once it has appended its open turn. */
async function startWriter(url: string, id: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WRITER, url, id, String(TTL)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d))
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => d.includes('ready') && resolve())
    child.on('exit', (code) => reject(new Error(`the writer exited ${code}: ${err}`)))
  })
  return child
}

async function killed(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGKILL')
  await gone
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return (error as SessionEventError).code
  }
  return 'no error'
}

async function sql(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await client.query(text, values)
  } finally {
    await client.end()
  }
}

test('a live writer elsewhere keeps its turn open for readers and refuses other writers; killed, its lease lapses after leaseTimeoutMs', async () => {
  const url = await cluster.createDatabase()
  const id = randomUUID()
  const writer = await startWriter(url, id)
  const reader = await PostgresSessionStore.open({ url, leaseTimeoutMs: TTL })
  try {
    // The writer as if on another machine: only its heartbeat can tell that it lives.
    await sql(url, "UPDATE tack.writers SET machine = 'other-host/boot/ns' WHERE session_id = $1", [id])
    for (let i = 0; i < 3; i++) {
      // Past leaseTimeoutMs in total: the heartbeats keep the lease.
      await new Promise((r) => setTimeout(r, TTL / 2))
      expect((await reader.load(id)).events.map((e) => e.type)).toEqual([
        'turn/start',
        'user/message',
        'step/start',
      ])
    }
    expect(await codeOf(reader.load(id, { writer: true }))).toBe('SESSION_BUSY')
    expect(await codeOf(reader.remove(id))).toBe('SESSION_BUSY')
    const busy = await reader.load(id, { writer: true }).catch((e: SessionEventError) => e.message)
    expect(busy).toMatch(/another tack process \(pid \d+ on other-host\) has been writing it since 20\d\d-/)

    await killed(writer)
    // No more heartbeats: after leaseTimeoutMs the turn is interrupted, closed durably, and the lease gone.
    await new Promise((r) => setTimeout(r, TTL + 300))
    const recovered = await reader.load(id)
    expect(recovered.events.slice(3).map((e) => e.type)).toEqual(['step/end', 'turn/end'])
    expect(recovered.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } })
    expect((await sql(url, 'SELECT count(*)::int AS n FROM tack.writers')).rows[0].n).toBe(0)
  } finally {
    writer.kill('SIGKILL')
    await reader.close()
  }
}, 30_000)

test('a writer killed on this machine loses its lease at once (its pid is gone), without waiting for the timeout', async () => {
  const url = await cluster.createDatabase()
  const id = randomUUID()
  const writer = await startWriter(url, id)
  // A long timeout: only the pid check can end this lease within the test.
  const reader = await PostgresSessionStore.open({ url, leaseTimeoutMs: 600_000 })
  try {
    expect((await reader.load(id)).events).toHaveLength(3)
    await killed(writer)
    const recovered = await reader.load(id)
    expect(recovered.events.map((e) => e.type).slice(3)).toEqual(['step/end', 'turn/end'])
    // The new writer takes the lease; the row names this process now.
    await reader.load(id, { writer: true })
    const row = await sql(url, 'SELECT pid FROM tack.writers WHERE session_id = $1', [id])
    expect(row.rows[0].pid).toBe(process.pid)
  } finally {
    writer.kill('SIGKILL')
    await reader.close()
  }
  // Closing releases this store's leases.
  expect((await sql(url, 'SELECT count(*)::int AS n FROM tack.writers')).rows[0].n).toBe(0)
}, 30_000)

test('two stores racing to become the writer of one session: exactly one wins', async () => {
  const url = await cluster.createDatabase()
  const a = await PostgresSessionStore.open({ url })
  const b = await PostgresSessionStore.open({ url })
  try {
    const header = { version: 1 as const, id: randomUUID(), createdAt: new Date().toISOString(), cwd: '/w' }
    await a.create(header)
    const results = await Promise.allSettled([
      a.load(header.id, { writer: true }),
      b.load(header.id, { writer: true }),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    expect((lost?.reason as SessionEventError | undefined)?.code).toBe('SESSION_BUSY')
  } finally {
    await a.close()
    await b.close()
  }
})
