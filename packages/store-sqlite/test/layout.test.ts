import { DatabaseSync } from 'node:sqlite'
import { type SessionEvent, type SessionHeader, Session, SessionEventError } from '@tack/session'
import { afterEach, describe, expect, test } from 'vitest'
import { openDatabase, SqliteSessionStore, SqliteStoreConfig } from '../src/index.ts'
import { tempDb } from './helpers.ts'

const clock = { now: () => Date.UTC(2025, 0, 2) }
const text = (t: string) => [{ type: 'text' as const, text: t }]
const user = { kind: 'user' } as const

function header(id: string): SessionHeader {
  return { version: 1, id, createdAt: '2025-01-01T00:00:00.000Z', cwd: '/w' }
}

/** A closed turn of seven events (seqs from 0); `marker` goes into the question and the answer. */
function turn(h: SessionHeader, marker = 'plain', t = 1): readonly SessionEvent[] {
  const s = new Session({ header: h, clock })
  s.append('turn/start', { turn: t, trigger: { kind: 'message' } })
  s.append('user/message', { content: text(`question ${marker}`), source: user })
  s.append('step/start', { turn: t, step: 1 })
  s.append('request/header', { header: { config: { model: 'm' } }, reason: 'initial' })
  s.append('assistant/message', { turn: t, step: 1, content: text(`answer ${marker}`), finishReason: 'stop' })
  s.append('step/end', { turn: t, step: 1 })
  s.append('turn/end', { turn: t, reason: { kind: 'completed' } })
  return s.events()
}

/** An open turn cut after a tool call without its result (load closes it with three events). */
function cut(h: SessionHeader): readonly SessionEvent[] {
  const s = new Session({ header: h, clock })
  s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
  s.append('user/message', { content: text('go'), source: user })
  s.append('step/start', { turn: 1, step: 1 })
  s.append('assistant/message', {
    turn: 1,
    step: 1,
    content: [{ type: 'tool-call', callId: 'c1', name: 'read', arguments: '{}' }],
    finishReason: 'tool-calls',
  })
  s.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' })
  return s.events()
}

const open: Array<{ close(): unknown }> = []
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close()
})

function setup(): { path: string; store: SqliteSessionStore; raw: DatabaseSync } {
  const path = tempDb()
  const store = SqliteSessionStore.open({ path }, { clock })
  // A second, independent connection to the same file: what is really stored, and fault triggers.
  const raw = new DatabaseSync(path)
  open.push(store, raw)
  return { path, store, raw }
}

const count = (raw: DatabaseSync, id: string) =>
  (raw.prepare('SELECT count(*) AS n FROM events WHERE session_id = ?').get(id) as { n: number }).n

describe('SQLite layout (SL-27)', () => {
  test('SL-27 tables: sessions (id, header JSON) and events keyed (session_id, seq) with a foreign key', () => {
    const { raw } = setup()
    const columns = (table: string) =>
      (raw.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; pk: number }>).map((c) => [
        c.name,
        c.pk,
      ])
    expect(columns('sessions')).toEqual([
      ['id', 1],
      ['header', 0],
    ])
    expect(columns('events')).toEqual([
      ['session_id', 1],
      ['seq', 2],
      ['type', 0],
      ['time', 0],
      ['data', 0],
      ['op', 0],
    ])
    const fks = raw.prepare('PRAGMA foreign_key_list(events)').all() as Array<Record<string, unknown>>
    expect(fks).toHaveLength(1)
    expect(fks[0]).toMatchObject({ table: 'sessions', from: 'session_id', to: 'id' })
  })

  test('SL-27 the store connection enforces foreign keys: an event row for no session is refused', () => {
    const path = tempDb()
    const db = openDatabase(path, SqliteStoreConfig.parse({ path }))
    open.push(db)
    expect(db.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    expect(() =>
      db
        .prepare(
          "INSERT INTO events (session_id, seq, type, time, data) VALUES ('ghost', 0, 't/x', 't', '{}')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY constraint failed/)
  })

  test('SL-27 one row per event: type, time, data JSON, op JSON on surface events and NULL on the rest', async () => {
    const { store, raw } = setup()
    const h = header('rows')
    await store.create(h)
    const events = turn(h)
    await store.append(h.id, events)
    const rows = raw
      .prepare('SELECT seq, type, time, data, op FROM events WHERE session_id = ? ORDER BY seq')
      .all(h.id) as Array<{ seq: number; type: string; time: string; data: string; op: string | null }>
    expect(rows).toHaveLength(events.length)
    rows.forEach((row, i) => {
      const e = events[i]
      expect([row.seq, row.type, row.time]).toEqual([e.seq, e.type, e.time])
      expect(JSON.parse(row.data)).toEqual(e.data)
      expect(row.op === null ? undefined : JSON.parse(row.op)).toEqual(e.op)
    })
    expect(rows[1].op).toBe('{"kind":"append"}')
    expect(rows[0].op).toBeNull()
    const stored = raw.prepare('SELECT header FROM sessions WHERE id = ?').get(h.id) as { header: string }
    expect(JSON.parse(stored.header)).toEqual(h)
  })

  test('SL-27 a fault on the third row of a batch leaves none of its rows, and the store stays usable', async () => {
    const { store, raw } = setup()
    const h = header('fault')
    await store.create(h)
    const before = turn(h, 'plain')
    await store.append(h.id, before)
    // The fault is SQLite's own: a trigger that aborts the INSERT of a row carrying the marker.
    raw.exec(`CREATE TRIGGER fault BEFORE INSERT ON events WHEN NEW.data LIKE '%FAULT%'
              BEGIN SELECT RAISE(ABORT, 'injected fault'); END`)
    // A batch of seven continuing the log, the marker in its third row (a step/start).
    const next = turn(h, 'plain', 2).map((e) => ({ ...e, seq: e.seq + before.length }))
    const batch = next.map((e, i) => (i === 2 ? { ...e, data: { ...e.data, note: 'FAULT' } } : e))
    await expect(store.append(h.id, batch as SessionEvent[])).rejects.toThrow(/injected fault/)
    expect(count(raw, h.id)).toBe(before.length)
    expect((await store.load(h.id)).events).toEqual(before)
    // The transaction was closed: the clean batch goes in afterwards, from the same seq.
    await store.append(h.id, next)
    expect(count(raw, h.id)).toBe(before.length + next.length)
  })

  test('SL-27 fork copies the rows in one transaction: a fault on the third copied row leaves no child', async () => {
    const { store, raw } = setup()
    const h = header('source')
    await store.create(h)
    const events = turn(h)
    await store.append(h.id, events)
    raw.exec(`CREATE TRIGGER fault BEFORE INSERT ON events WHEN NEW.session_id = 'child' AND NEW.seq = 2
              BEGIN SELECT RAISE(ABORT, 'injected fault'); END`)
    await expect(store.fork(h.id, { ...header('child'), parentSession: h.id }, 7)).rejects.toThrow(
      /injected fault/,
    )
    expect(count(raw, 'child')).toBe(0)
    expect((await store.list()).map((s) => s.id)).toEqual([h.id])
    raw.exec('DROP TRIGGER fault')
    await store.fork(h.id, { ...header('child'), parentSession: h.id }, 7)
    expect((await store.load('child')).events).toEqual(events)
  })

  test('SL-25 the recovery tail is one transaction: a fault on its second row appends none of it', async () => {
    const { store, raw } = setup()
    const h = header('recover')
    await store.create(h)
    const events = cut(h)
    await store.append(h.id, events)
    raw.exec(`CREATE TRIGGER fault BEFORE INSERT ON events WHEN NEW.type = 'step/end'
              BEGIN SELECT RAISE(ABORT, 'injected fault'); END`)
    await expect(store.load(h.id)).rejects.toThrow(/injected fault/)
    expect(count(raw, h.id)).toBe(events.length)
    raw.exec('DROP TRIGGER fault')
    const loaded = await store.load(h.id)
    expect(loaded.events.slice(events.length).map((e) => e.type)).toEqual([
      'tool/result',
      'step/end',
      'turn/end',
    ])
    expect(count(raw, h.id)).toBe(events.length + 3)
    // Durable: a separate store on the same file sees the closed log and appends nothing more.
    const other = SqliteSessionStore.open({ path: store.path }, { clock })
    open.push(other)
    expect((await other.load(h.id)).events).toEqual(loaded.events)
    expect(count(raw, h.id)).toBe(events.length + 3)
  })

  test('SL-26 remove is atomic: a fault deleting the session row keeps its events', async () => {
    const { store, raw } = setup()
    const h = header('keep')
    await store.create(h)
    await store.append(h.id, turn(h))
    raw.exec(`CREATE TRIGGER fault BEFORE DELETE ON sessions
              BEGIN SELECT RAISE(ABORT, 'injected fault'); END`)
    await expect(store.remove(h.id)).rejects.toThrow(/injected fault/)
    expect(count(raw, h.id)).toBe(7)
    raw.exec('DROP TRIGGER fault')
    await store.remove(h.id)
    expect(count(raw, h.id)).toBe(0)
  })

  test('SL-26 two stores on one file: a batch for seqs the other already stored fails SEQ_CONFLICT', async () => {
    const { store, path } = setup()
    const other = SqliteSessionStore.open({ path }, { clock })
    open.push(other)
    const h = header('shared')
    await store.create(h)
    await expect(other.create(h)).rejects.toMatchObject({ code: 'SESSION_EXISTS' })
    const a = turn(h, 'a')
    await store.append(h.id, a.slice(0, 3))
    await expect(other.append(h.id, turn(h, 'b').slice(0, 3))).rejects.toMatchObject({ code: 'SEQ_CONFLICT' })
    await other.append(h.id, a.slice(3))
    expect((await store.load(h.id)).events).toEqual(a)
  })

  test('SL-2 a stored value that is not JSON fails load with NOT_JSON naming the file, the seq and a fix', async () => {
    const { store, raw } = setup()
    const h = header('corrupt')
    await store.create(h)
    await store.append(h.id, turn(h))
    raw.prepare("UPDATE events SET data = '{broken' WHERE session_id = ? AND seq = 4").run(h.id)
    const error = await store.load(h.id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SessionEventError)
    expect(error).toMatchObject({ code: 'NOT_JSON', message: expect.stringMatching(/event 4/) })
    const message = (error as Error).message
    expect(message).toContain(store.path)
    expect(message).toContain(`tack sessions rm ${h.id}`)
    expect(message).not.toContain('\n')
  })

  test('SL-2 append refuses a batch holding a non-JSON value with NOT_JSON and stores none of it', async () => {
    const { store, raw } = setup()
    const h = header('nan')
    await store.create(h)
    const events = turn(h).map((e) => ({ ...e }))
    ;(events[4] as { data: unknown }).data = { turn: 1, step: 1, content: text('x'), usage: Number.NaN }
    await expect(store.append(h.id, events as SessionEvent[])).rejects.toMatchObject({
      code: 'NOT_JSON',
      path: '/4/data/usage',
    })
    expect(count(raw, h.id)).toBe(0)
  })

  test('SL-26 append refuses a malformed envelope (type or time not a string) and stores none of the batch', async () => {
    const { store, raw } = setup()
    const h = header('envelope')
    await store.create(h)
    const events = turn(h)
    const badType = events.map((e, i) => (i === 2 ? { ...e, type: 42 } : e))
    await expect(store.append(h.id, badType as unknown as SessionEvent[])).rejects.toMatchObject({
      code: 'UNKNOWN_EVENT',
    })
    const badTime = events.map((e, i) => (i === 2 ? { ...e, time: 0 } : e))
    await expect(store.append(h.id, badTime as unknown as SessionEvent[])).rejects.toThrow(TypeError)
    expect(count(raw, h.id)).toBe(0)
    await expect(store.create({ ...h, id: '' })).rejects.toThrow(TypeError)
  })
})
