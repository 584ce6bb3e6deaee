// NUL characters and the PostgreSQL store (docs/decisions/0370-probe-store-postgres-and-library.md): text
// columns cannot hold U+0000. Payloads are JSON, where it is an escape, and round-trip (the conformance
// suite's "tricky" string); an id, an event type or a time is stored as it is, so a lookup of an id holding
// NUL finds nothing (as in the other stores) and one on the way in is refused by name — not as the
// server's "invalid byte sequence for encoding UTF8".
import { randomUUID } from 'node:crypto'
import { type SessionEvent, SessionEventError } from '@tack/session'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PostgresSessionStore } from '../src/index.ts'
import { startThrowawayCluster, type ThrowawayCluster } from '../src/testing/index.ts'

let cluster: ThrowawayCluster
beforeAll(async () => {
  cluster = await startThrowawayCluster()
}, 60_000)
afterAll(() => cluster?.stop())

const header = (id: string) => ({ version: 1 as const, id, createdAt: new Date().toISOString(), cwd: '/w' })
// A type with NUL is no SessionEventType: the cast is the point (a crafted import file carries one).
const turnStart = (seq: number, over: { type?: string; time?: string } = {}): SessionEvent =>
  ({
    type: over.type ?? 'turn/start',
    seq,
    time: over.time ?? new Date().toISOString(),
    data: { turn: 1, trigger: { kind: 'message' }, note: 'a \u0000 inside JSON is fine' },
  }) as SessionEvent

async function codeOf(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected a refusal').toBeInstanceOf(SessionEventError)
  expect((error as Error).message).not.toMatch(/invalid byte sequence/)
  return (error as SessionEventError).code
}

test('an id, event type or time holding NUL: not found on lookup, refused by name on the way in', async () => {
  const store = await PostgresSessionStore.open({ url: await cluster.createDatabase() })
  try {
    const odd = 'a\u0000b'
    expect(await codeOf(store.load(odd))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(store.load(odd, { writer: true }))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(store.append(odd, [turnStart(0)]))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(store.remove(odd))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(store.fork(odd, header(randomUUID()), 0))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(store.create(header(odd)))).toBe('NOT_JSON')

    const id = randomUUID()
    await store.create(header(id))
    expect(await codeOf(store.fork(id, header(odd), 0))).toBe('NOT_JSON')
    expect(await codeOf(store.append(id, [turnStart(0, { type: 'turn/\u0000start' })]))).toBe('NOT_JSON')
    expect(await codeOf(store.append(id, [turnStart(0, { time: '2026\u0000' })]))).toBe('NOT_JSON')
    // Nothing was stored by the refusals; a NUL inside the payload round-trips.
    await store.append(id, [turnStart(0)])
    // (A reader closes the open turn, as for any turn without a live writer: one event more.)
    const { events } = await store.load(id)
    expect(events.map((e) => e.type)).toEqual(['turn/start', 'turn/end'])
    expect(events[0]?.data).toMatchObject({ note: 'a \u0000 inside JSON is fine' })
  } finally {
    await store.close()
  }
}, 60_000)
