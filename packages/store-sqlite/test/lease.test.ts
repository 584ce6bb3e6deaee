// Issue 9 item 5: readers never disturb a writer. A session's writer holds a lease; a load from another
// connection leaves its open turn alone while that writer lives, and recovers it once the writer is
// gone — exited, killed, its pid reused, or (on another host) silent past leaseTimeoutMs.
import { spawnSync } from 'node:child_process'
import { DatabaseSync } from 'node:sqlite'
import { type SessionEvent, type SessionHeader, Session } from '@tack/session'
import { afterEach, describe, expect, test } from 'vitest'
import { SqliteSessionStore } from '../src/index.ts'
import { currentMachine, heldByOther, type LeaseRow, probeProcess } from '../src/lease.ts'
import { tempDb } from './helpers.ts'

const clock = { now: () => Date.UTC(2025, 0, 2) }
const header = (id: string): SessionHeader => ({
  version: 1,
  id,
  createdAt: '2025-01-01T00:00:00.000Z',
  cwd: '/w',
})

/** A turn left open mid-step, as a running writer has it (recovery would add two events). */
function openTurn(h: SessionHeader): readonly SessionEvent[] {
  const s = new Session({ header: h, clock })
  s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
  s.append('user/message', { content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } })
  s.append('step/start', { turn: 1, step: 1 })
  return s.events()
}

const opened: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const s of opened.splice(0).reverse()) await s.close()
})
function store(path: string, extra: Record<string, unknown> = {}): SqliteSessionStore {
  const s = SqliteSessionStore.open({ path, ...extra }, { clock })
  opened.push(s)
  return s
}
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  )

/** A writer with an open turn in `path`, and a second connection to read it. */
async function writing(id = 's') {
  const path = tempDb()
  const writer = store(path)
  const h = header(id)
  await writer.create(h, { writer: true })
  await writer.append(id, openTurn(h))
  return { path, writer, reader: store(path), h }
}

/** Rewrites the lease row of `id` as if another holder had taken it. */
function forgeLease(path: string, id: string, row: Partial<LeaseRow>): void {
  const raw = new DatabaseSync(path)
  const sets = Object.keys(row).map((k) => `${k} = ?`)
  raw
    .prepare(`UPDATE writers SET ${sets.join(', ')} WHERE session_id = ?`)
    .run(...(Object.values(row) as Array<string | number>), id)
  raw.close()
}

describe('writer lease (issue 9.5)', () => {
  test('a reader leaves a live writer’s open turn alone, and the writer goes on appending', async () => {
    const { writer, reader, h } = await writing()
    const seen = await reader.load(h.id)
    expect(seen.events.map((e) => e.type)).toEqual(['turn/start', 'user/message', 'step/start'])
    expect((await reader.load(h.id)).events).toHaveLength(3) // still nothing appended
    const more = new Session({ header: h, events: seen.events, clock })
    more.append('step/end', { turn: 1, step: 1 })
    more.append('turn/end', { turn: 1, reason: { kind: 'completed' } })
    await writer.append(h.id, more.events().slice(3))
    expect((await reader.load(h.id)).events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
  })

  test('a second writer and a remove are refused SESSION_BUSY, naming the holder’s pid', async () => {
    const { reader, h } = await writing()
    const error = await reader.load(h.id, { writer: true }).catch((e: Error) => e)
    expect(error).toMatchObject({ code: 'SESSION_BUSY' })
    expect((error as Error).message).toContain(`pid ${process.pid}`)
    expect(await codeOf(reader.remove(h.id))).toBe('SESSION_BUSY')
    expect((await reader.load(h.id)).events).toHaveLength(3)
  })

  test('once the writer closes, a reader recovers the open turn', async () => {
    const { writer, reader, h } = await writing()
    await writer.close()
    const loaded = await reader.load(h.id)
    expect(loaded.events.map((e) => e.type).slice(3)).toEqual(['step/end', 'turn/end'])
    expect(loaded.events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } })
  })

  test('a lease whose process is gone is dead: the turn is recovered and the lease dropped', async () => {
    const { path, reader, h } = await writing()
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
    const deadPid = Number(exited.stdout.toString())
    expect(probeProcess(deadPid)).toBeUndefined()
    forgeLease(path, h.id, { owner: 'crashed', pid: deadPid })
    expect((await reader.load(h.id)).events.at(-1)?.type).toBe('turn/end')
    const raw = new DatabaseSync(path, { readOnly: true })
    expect(raw.prepare('SELECT count(*) AS n FROM writers').get()).toEqual({ n: 0 })
    raw.close()
  })

  test('a live pid with another start time is a reused pid, not the writer: recovered', async () => {
    const { path, reader, h } = await writing()
    forgeLease(path, h.id, { owner: 'crashed', started: 'a-different-start-time' })
    expect((await reader.load(h.id)).events.at(-1)?.type).toBe('turn/end')
  })

  test('on another host the heartbeat decides: fresh is live, older than leaseTimeoutMs is dead', async () => {
    const { path, h } = await writing()
    const reader = store(path, { leaseTimeoutMs: 5000 })
    forgeLease(path, h.id, { owner: 'remote', machine: 'elsewhere', pid: 1, heartbeat: Date.now() })
    expect((await reader.load(h.id)).events).toHaveLength(3)
    forgeLease(path, h.id, { heartbeat: Date.now() - 5001 })
    expect((await reader.load(h.id)).events.at(-1)?.type).toBe('turn/end')
  })

  test('the holder refreshes its heartbeat every third of leaseTimeoutMs', async () => {
    const path = tempDb()
    const writer = store(path, { leaseTimeoutMs: 1000 })
    await writer.create(header('beat'), { writer: true })
    const raw = new DatabaseSync(path, { readOnly: true })
    const beat = () => (raw.prepare('SELECT heartbeat FROM writers').get() as { heartbeat: number }).heartbeat
    const first = beat()
    await new Promise((r) => setTimeout(r, 800))
    expect(beat()).toBeGreaterThan(first)
    raw.close()
  })

  test('heldByOther: own leases never block; same machine is judged by pid and start time', () => {
    const self = {
      owner: 'me',
      pid: process.pid,
      machine: currentMachine(),
      started: probeProcess(process.pid)?.started ?? '',
    }
    const row = (over: Partial<LeaseRow>): LeaseRow => ({
      ...self,
      session_id: 's',
      since: '',
      heartbeat: 0,
      ...over,
    })
    expect(heldByOther(row({}), self, Date.now(), 1000)).toBe(false)
    // Another connection of this very process: alive, and on Linux (start time readable) however
    // old its heartbeat.
    const heartbeat = process.platform === 'linux' ? 0 : Date.now()
    expect(heldByOther(row({ owner: 'other', heartbeat }), self, Date.now(), 1000)).toBe(true)
    expect(heldByOther(undefined, self, Date.now(), 1000)).toBe(false)
  })
})
