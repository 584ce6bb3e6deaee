// The SessionStore conformance suite (SL-26), self-contained so every backend runs the same tests:
// `describeSessionStore('sqlite', () => new SqliteSessionStore(...))`. Each test gets a fresh store
// from the factory and closes it afterwards.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { SessionEventError, UnsupportedSessionFormatError } from '../errors.ts'
import type { Clock, SessionEvent, SessionHeader } from '../events.ts'
import { Session } from '../session.ts'
import type { SessionStore } from '../store.ts'
import { summarizeLog } from '../summary.ts'
import { checkLogStructure } from './structure.ts'

const clock: Clock = { now: () => Date.UTC(2025, 0, 2, 3, 4, 5, 678) }

let counter = 0
function header(over: Partial<SessionHeader> = {}): SessionHeader {
  counter++
  return {
    version: 1,
    id: `s-${counter}-${Math.random().toString(36).slice(2, 8)}`,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, counter)).toISOString(),
    cwd: '/work/project',
    ...over,
  }
}

/** A builder over a pure Session: the events a well-behaved loop would log. */
function logOf(h: SessionHeader, build: (s: Session) => void): readonly SessionEvent[] {
  const s = new Session({ header: h, clock })
  build(s)
  return s.events()
}

const user = { kind: 'user' } as const
const text = (t: string) => [{ type: 'text' as const, text: t }]

function completedTurn(s: Session, turn: number): void {
  s.append('turn/start', { turn, trigger: { kind: 'message' } })
  s.append('user/message', { content: text(`question ${turn}`), source: user })
  s.append('step/start', { turn, step: 1 })
  s.append('request/header', { header: { config: { model: 'mock/model' } }, reason: 'initial' })
  s.append('assistant/message', { turn, step: 1, content: text(`answer ${turn}`), finishReason: 'stop' })
  s.append('step/end', { turn, step: 1, finishReason: 'stop' })
  s.append('turn/end', { turn, reason: { kind: 'completed' } })
}

/** A turn cut by a crash after two tool calls and one result. */
function interruptedAfterOneResult(s: Session): void {
  s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
  s.append('user/message', { content: text('read two files'), source: user })
  s.append('step/start', { turn: 1, step: 1 })
  s.append('assistant/message', {
    turn: 1,
    step: 1,
    content: [
      { type: 'tool-call', callId: 'c1', name: 'read', arguments: '{"path":"a"}' },
      { type: 'tool-call', callId: 'c2', name: 'read', arguments: '{"path":"b"}' },
    ],
    finishReason: 'tool-calls',
  })
  s.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{"path":"a"}' })
  s.append('tool/result', { callId: 'c1', name: 'read', content: text('A'), isError: false })
  s.append('tool/call', { turn: 1, step: 1, callId: 'c2', name: 'read', arguments: '{"path":"b"}' })
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof SessionEventError) return error.code
    throw error
  }
  throw new Error('expected a SessionEventError, but the call succeeded')
}

export function describeSessionStore(
  name: string,
  factory: () => Promise<SessionStore> | SessionStore,
): void {
  describe(`SessionStore conformance: ${name}`, () => {
    let store: SessionStore
    beforeEach(async () => {
      store = await factory()
    })
    afterEach(async () => {
      await store.close()
    })

    test('SL-26 create then load returns the header and an empty log', async () => {
      const h = header({ parentSession: 'p-1', seedLength: 0 })
      await store.create(h)
      const loaded = await store.load(h.id)
      expect(loaded.header).toEqual(h)
      expect(loaded.events).toEqual([])
    })

    test('SL-26 a duplicate create fails SESSION_EXISTS and leaves the session as it was', async () => {
      const h = header()
      await store.create(h)
      await store.append(
        h.id,
        logOf(h, (s) => completedTurn(s, 1)),
      )
      expect(await codeOf(store.create({ ...h, cwd: '/elsewhere' }))).toBe('SESSION_EXISTS')
      const loaded = await store.load(h.id)
      expect(loaded.header.cwd).toBe(h.cwd)
      expect(loaded.events).toHaveLength(7)
    })

    test('SL-26 an unknown id fails SESSION_NOT_FOUND for append, load, fork and remove', async () => {
      const events = logOf(header(), (s) => completedTurn(s, 1))
      expect(await codeOf(store.append('missing', events))).toBe('SESSION_NOT_FOUND')
      expect(await codeOf(store.load('missing'))).toBe('SESSION_NOT_FOUND')
      expect(await codeOf(store.fork('missing', header(), 0))).toBe('SESSION_NOT_FOUND')
      expect(await codeOf(store.remove('missing'))).toBe('SESSION_NOT_FOUND')
    })

    test('SL-26 batches appended in turn load back equal and in order', async () => {
      const h = header()
      await store.create(h)
      const events = logOf(h, (s) => {
        completedTurn(s, 1)
        completedTurn(s, 2)
      })
      await store.append(h.id, events.slice(0, 3))
      await store.append(h.id, events.slice(3, 4))
      await store.append(h.id, events.slice(4))
      expect((await store.load(h.id)).events).toEqual(events)
    })

    test('SL-26 an empty batch is a no-op', async () => {
      const h = header()
      await store.create(h)
      await store.append(h.id, [])
      expect((await store.load(h.id)).events).toEqual([])
    })

    test('SL-26 a batch whose first seq is not the stored count fails SEQ_CONFLICT and stores nothing', async () => {
      const h = header()
      await store.create(h)
      const events = logOf(h, (s) => completedTurn(s, 1))
      expect(await codeOf(store.append(h.id, events.slice(1, 3)))).toBe('SEQ_CONFLICT') // a gap
      await store.append(h.id, events.slice(0, 3))
      expect(await codeOf(store.append(h.id, events.slice(2, 5)))).toBe('SEQ_CONFLICT') // a replay
      expect((await store.list()).find((s) => s.id === h.id)?.eventCount).toBe(3)
      // (load then also closes the open turn; the stored events come first, unchanged)
      expect((await store.load(h.id)).events.slice(0, 3)).toEqual(events.slice(0, 3))
    })

    test('SL-26 appends are all-or-nothing: a batch broken after valid events stores none of it', async () => {
      const h = header()
      await store.create(h)
      const events = logOf(h, (s) => completedTurn(s, 1))
      const broken = [events[0], events[1], events[3]] // the third skips seq 2
      expect(await codeOf(store.append(h.id, broken))).toBe('SEQ_CONFLICT')
      expect((await store.load(h.id)).events).toEqual([])
      await store.append(h.id, events)
      expect((await store.load(h.id)).events).toEqual(events)
    })

    test('SL-26 of two concurrent batches for the same seqs exactly one is stored', async () => {
      const h = header()
      await store.create(h)
      const a = logOf(h, (s) => completedTurn(s, 1))
      const b = logOf(h, (s) => completedTurn(s, 7))
      const results = await Promise.allSettled([store.append(h.id, a), store.append(h.id, b)])
      const won = results.filter((r) => r.status === 'fulfilled')
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(1)
      expect((lost[0].reason as SessionEventError).code).toBe('SEQ_CONFLICT')
      const stored = (await store.load(h.id)).events
      expect([a, b]).toContainEqual(stored)
    })

    test('SL-26 stored events do not follow later changes to the appended objects', async () => {
      const h = header()
      await store.create(h)
      const plain = JSON.parse(JSON.stringify(logOf(h, (s) => completedTurn(s, 1)))) as SessionEvent[]
      const expected = structuredClone(plain)
      await store.append(h.id, plain)
      ;(plain[1].data as { content: Array<{ text: string }> }).content[0].text = 'changed'
      expect((await store.load(h.id)).events).toEqual(expected)
    })

    test('SL-2 payloads round-trip exactly (unicode, escapes, nesting, numbers)', async () => {
      const h = header()
      await store.create(h)
      const tricky = 'ünïcødé ✓ 𝄞 emoji 🧪 "quotes" \\ back\nslash\ttab \u0000 nul \u2028 ls'
      const events = logOf(h, (s) => {
        s.append('context/message', { content: text(tricky), source: { kind: 'plugin', name: 'p/x "y"' } })
        s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
        s.append('step/start', { turn: 1, step: 1 })
        s.append('assistant/message', {
          turn: 1,
          step: 1,
          content: [{ type: 'reasoning', text: '', signature: 'sig==' }],
          finishReason: 'stop',
          usage: { inputTokens: 2 ** 53 - 1, outputTokens: 0, cachedInputTokens: 0 },
        })
        s.append('tool/call', { turn: 1, step: 1, callId: 'x', name: 'n', arguments: '{"deep":[[[{}]]]}' })
      })
      await store.append(h.id, events)
      const loaded = (await store.load(h.id)).events.slice(0, events.length)
      expect(loaded).toEqual(events)
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(events))
    })

    test('SL-26 list summarises every session, ordered by createdAt then id', async () => {
      const early = header({ createdAt: '2024-01-01T00:00:00.000Z', id: 'b-early' })
      const tieA = header({ createdAt: '2024-06-01T00:00:00.000Z', id: 'a-tie' })
      const tieB = header({
        createdAt: '2024-06-01T00:00:00.000Z',
        id: 'c-tie',
        parentSession: 'b-early',
        seedLength: 0,
      })
      for (const h of [tieB, early, tieA]) await store.create(h)
      const events = logOf(early, (s) => completedTurn(s, 1))
      await store.append(early.id, events)
      const list = await store.list()
      expect(list.map((s) => s.id)).toEqual(['b-early', 'a-tie', 'c-tie'])
      expect(list[0]).toEqual({
        id: 'b-early',
        createdAt: early.createdAt,
        cwd: early.cwd,
        eventCount: events.length,
        lastTime: events[events.length - 1].time,
        turns: 1,
        firstPrompt: 'question 1',
        model: 'mock/model',
      })
      expect(list[1].eventCount).toBe(0)
      expect(list[1].turns).toBe(0)
      expect(list[1].firstPrompt).toBeUndefined()
      expect(list[1].lastTime).toBeUndefined()
      expect(list[2].parentSession).toBe('b-early')
      expect(list[2].seedLength).toBe(0)
    })

    test('issue 10: list summarises turns, the first prompt (cut) and the model in force, as summarizeLog does', async () => {
      const h = header()
      await store.create(h)
      const long = `${'😀'.repeat(150)}${'x'.repeat(150)}`
      const events = logOf(h, (s) => {
        s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
        s.append('user/message', { content: text(long), source: user })
        s.append('step/start', { turn: 1, step: 1 })
        s.append('request/header', { header: { config: { model: 'first/model' } }, reason: 'initial' })
        s.append('assistant/message', { turn: 1, step: 1, content: text('a'), finishReason: 'stop' })
        s.append('step/end', { turn: 1, step: 1, finishReason: 'stop' })
        s.append('turn/end', { turn: 1, reason: { kind: 'completed' } })
        s.append('turn/start', { turn: 2, trigger: { kind: 'message' } })
        s.append('user/message', { content: text('second'), source: user })
        s.append('step/start', { turn: 2, step: 1 })
        s.append('request/header-delta', { system: { keepStart: 0, keepEnd: 0, insert: ['s'] } })
        s.append('request/header-delta', { config: { model: 'second/model' } })
        s.append('request/header-delta', { system: { keepStart: 0, keepEnd: 0, insert: ['t'] } })
        s.append('assistant/message', { turn: 2, step: 1, content: text('b'), finishReason: 'stop' })
        s.append('step/end', { turn: 2, step: 1, finishReason: 'stop' })
        s.append('turn/end', { turn: 2, reason: { kind: 'completed' } })
      })
      await store.append(h.id, events)
      const child = header({ parentSession: h.id, seedLength: 7 })
      await store.fork(h.id, child, 7)
      const list = await store.list()
      const summary = list.find((x) => x.id === h.id)
      expect(summary).toMatchObject({ turns: 2, model: 'second/model' })
      // the cut goes through the run of x's, which is left out whole (cutPrompt)
      expect(summary?.firstPrompt).toBe('😀'.repeat(150))
      expect(summary).toMatchObject(summarizeLog(events))
      const forked = list.find((x) => x.id === child.id)
      expect(forked).toMatchObject({ turns: 1, model: 'first/model', eventCount: 7 })
      expect(forked).toMatchObject(summarizeLog(events.slice(0, 7)))
    })

    test("issue 28: a key the first prompt's cut goes through is left out of the summary whole, a word before it kept", async () => {
      const key = 'sk-live-summarycut-0123456789abcdef'
      const cases = [
        // the cut (200 code points) inside the key: the prompt ends before it
        { prompt: `${'word '.repeat(37)}paste ${key} and more`, firstPrompt: `${'word '.repeat(37)}paste ` },
        // the cut right after a space: nothing is left out
        { prompt: `${'word '.repeat(40)}${key}`, firstPrompt: 'word '.repeat(40) },
        // multi-byte text before the key counts in code points
        { prompt: `${'日本語 '.repeat(48)}${key}`, firstPrompt: '日本語 '.repeat(48) },
      ]
      for (const { prompt, firstPrompt } of cases) {
        const h = header()
        await store.create(h)
        const events = logOf(h, (s) => {
          s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
          s.append('user/message', { content: text(prompt), source: user })
        })
        await store.append(h.id, events)
        const summary = (await store.list()).find((x) => x.id === h.id)
        expect(summary?.firstPrompt).toBe(firstPrompt)
        expect(summary).toMatchObject(summarizeLog(events))
      }
    })

    test('SL-22 fork copies the source prefix exactly and leaves the source untouched', async () => {
      const source = header()
      await store.create(source)
      const events = logOf(source, (s) => {
        completedTurn(s, 1)
        completedTurn(s, 2)
      })
      await store.append(source.id, events)
      const child = header({ parentSession: source.id, seedLength: 7 })
      await store.fork(source.id, child, 7)
      const loaded = await store.load(child.id)
      expect(loaded.header).toEqual(child)
      expect(loaded.events).toEqual(events.slice(0, 7))
      expect((await store.load(source.id)).events).toEqual(events)
      // The copy is independent: appending to the child does not reach the source.
      await store.append(child.id, events.slice(7, 8))
      expect((await store.load(source.id)).events).toHaveLength(events.length)
      const empty = header({ parentSession: source.id, seedLength: 0 })
      await store.fork(source.id, empty, 0)
      expect((await store.load(empty.id)).events).toEqual([])
    })

    test('SL-22 fork refuses cuts out of range or inside a turn, and a taken child id', async () => {
      const source = header()
      await store.create(source)
      const events = logOf(source, (s) => completedTurn(s, 1))
      await store.append(source.id, events)
      const child = header()
      expect(await codeOf(store.fork(source.id, child, 3))).toBe('BAD_FORK_POINT') // mid-turn
      expect(await codeOf(store.fork(source.id, child, events.length + 1))).toBe('BAD_FORK_POINT')
      expect(await codeOf(store.fork(source.id, child, -1))).toBe('BAD_FORK_POINT')
      expect(await codeOf(store.fork(source.id, child, 1.5))).toBe('BAD_FORK_POINT')
      expect(await codeOf(store.fork(source.id, source, 0))).toBe('SESSION_EXISTS')
      expect((await store.list()).map((s) => s.id)).toEqual([source.id])
    })

    test('SL-25 load closes a turn cut after two calls and one result, durably and once', async () => {
      const h = header()
      await store.create(h)
      const cut = logOf(h, interruptedAfterOneResult)
      await store.append(h.id, cut)
      const first = await store.load(h.id)
      const tail = first.events.slice(cut.length)
      expect(tail.map((e) => e.type)).toEqual(['tool/result', 'step/end', 'turn/end'])
      expect(tail.map((e) => e.seq)).toEqual([cut.length, cut.length + 1, cut.length + 2])
      const result = tail[0] as SessionEvent<'tool/result'>
      expect(result.data).toMatchObject({
        callId: 'c2',
        name: 'read',
        isError: true,
        error: { code: 'INTERRUPTED' },
      })
      expect(result.op).toEqual({ kind: 'append' })
      expect(tail[1].data).toEqual({ turn: 1, step: 1 })
      expect(tail[2].data).toEqual({ turn: 1, reason: { kind: 'interrupted' } })
      checkLogStructure(first.events)
      const session = new Session({ header: first.header, events: first.events })
      expect(session.inProgressToolCalls).toBe(0)
      expect(session.deriveMessages().map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool'])
      const second = await store.load(h.id)
      expect(second.events).toEqual(first.events)
      // The tail is part of the stored log: the next batch continues after it, not after the cut.
      expect(await codeOf(store.append(h.id, [{ ...cut[0], seq: cut.length }]))).toBe('SEQ_CONFLICT')
      await store.append(h.id, [{ ...cut[0], seq: first.events.length }])
      expect((await store.list()).find((x) => x.id === h.id)?.eventCount).toBe(first.events.length + 1)
    })

    test('SL-25 load closes a turn cut mid-stream and one cut between steps', async () => {
      const midStream = header()
      await store.create(midStream)
      await store.append(
        midStream.id,
        logOf(midStream, (s) => {
          s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
          s.append('user/message', { content: text('hi'), source: user })
          s.append('step/start', { turn: 1, step: 1 })
          s.append('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', text: 'Hel' } })
        }),
      )
      const a = await store.load(midStream.id)
      expect(a.events.slice(4).map((e) => e.type)).toEqual(['step/end', 'turn/end'])
      checkLogStructure(a.events)

      const betweenSteps = header()
      await store.create(betweenSteps)
      await store.append(
        betweenSteps.id,
        logOf(betweenSteps, (s) => {
          completedTurn(s, 1)
          s.append('turn/start', { turn: 2, trigger: { kind: 'injection' } })
          s.append('step/start', { turn: 2, step: 1 })
          s.append('step/end', { turn: 2, step: 1 })
        }),
      )
      const b = await store.load(betweenSteps.id)
      expect(b.events.slice(10).map((e) => [e.type, e.data])).toEqual([
        ['turn/end', { turn: 2, reason: { kind: 'interrupted' } }],
      ])
      checkLogStructure(b.events)
      expect((await store.load(betweenSteps.id)).events).toHaveLength(11)
    })

    test('SL-25 load of a closed log appends nothing', async () => {
      const h = header()
      await store.create(h)
      const events = logOf(h, (s) => completedTurn(s, 1))
      await store.append(h.id, events)
      expect((await store.load(h.id)).events).toEqual(events)
    })

    test('SL-21 load refuses a session whose format version is not 1, and changes nothing', async () => {
      const h = header({ version: 2 })
      await store.create(h)
      await store.append(h.id, logOf({ ...h, version: 1 }, interruptedAfterOneResult))
      await expect(store.load(h.id)).rejects.toBeInstanceOf(UnsupportedSessionFormatError)
      const summary = (await store.list()).find((s) => s.id === h.id)
      expect(summary?.eventCount).toBe(7)
    })

    test('SL-26 remove deletes a session and its events; others, and forks of it, stay', async () => {
      const gone = header()
      const kept = header()
      await store.create(gone)
      await store.create(kept)
      const events = logOf(gone, (s) => completedTurn(s, 1))
      await store.append(gone.id, events)
      await store.append(
        kept.id,
        logOf(kept, (s) => completedTurn(s, 1)),
      )
      const child = header({ parentSession: gone.id, seedLength: events.length })
      await store.fork(gone.id, child, events.length)
      await store.remove(gone.id)
      expect(await codeOf(store.load(gone.id))).toBe('SESSION_NOT_FOUND')
      expect((await store.list()).map((s) => s.id).sort()).toEqual([kept.id, child.id].sort())
      expect((await store.load(kept.id)).events).toHaveLength(7)
      expect((await store.load(child.id)).events).toEqual(events)
      // The id is free again, with no leftover events.
      await store.create(gone)
      expect((await store.load(gone.id)).events).toEqual([])
      expect(await codeOf(store.remove('never-was'))).toBe('SESSION_NOT_FOUND')
    })

    test('SL-26 close is idempotent and later calls reject', async () => {
      const h = header()
      await store.create(h)
      await store.close()
      await store.close()
      await expect(store.list()).rejects.toThrow()
      await expect(store.load(h.id)).rejects.toThrow()
    })
  })
}
