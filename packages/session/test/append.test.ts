import { describe, expect, test } from 'vitest'
import {
  SESSION_FORMAT_VERSION,
  Session,
  SessionEventError,
  type SessionEvent,
  UnsupportedSessionFormatError,
} from '../src/index.ts'
import {
  codeOf,
  fixedClock,
  header,
  newSession,
  plugin,
  result,
  startStep,
  startTurn,
  text,
  user,
} from './helpers.ts'

describe('append', () => {
  test('SL-1 three appends get seqs 0, 1, 2, each seen by a subscriber before append returns', () => {
    const s = newSession()
    const seen: number[] = []
    s.subscribe((event) => seen.push(event.seq))
    const seqs: number[] = []
    for (let i = 0; i < 3; i++) {
      const e = s.append('context/message', { content: text(`n${i}`), source: user })
      expect(seen).toEqual([...seqs, e.seq]) // delivered before append returned
      seqs.push(e.seq)
    }
    expect(seqs).toEqual([0, 1, 2])
    expect(s.length).toBe(3)
    expect(Object.isFrozen(s.events())).toBe(true)
    expect(() => (s.events() as SessionEvent[]).push(s.events()[0])).toThrow(TypeError)
  })

  test('SL-1 time is ISO-8601 UTC with milliseconds from the injected clock', () => {
    const e = newSession().append('context/message', { content: text('x'), source: user })
    expect(e.time).toBe('2025-05-06T07:08:09.010Z')
  })

  test('SL-2 a non-JSON payload throws NOT_JSON with its path and appends nothing', () => {
    const s = newSession()
    s.append('context/message', { content: text('ok'), source: user })
    let error: unknown
    try {
      s.append('plugin/data' as 'context/message', { items: [0, 1, { at: new Date() }] } as never)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(SessionEventError)
    expect((error as SessionEventError).code).toBe('NOT_JSON')
    expect((error as SessionEventError).path).toBe('/data/items/2/at')
    expect(s.length).toBe(1)
    const next = s.append('context/message', { content: text('next'), source: user })
    expect(next.seq).toBe(1)
  })

  test('SL-2 {a: undefined} is stored as {}', () => {
    const s = newSession()
    const e = s.append('plugin/data' as 'context/message', { a: undefined } as never)
    expect(e.data).toEqual({})
    expect('a' in e.data).toBe(false)
  })

  test('SL-3 the log stores a deep-frozen copy', () => {
    const s = newSession()
    const content = [{ type: 'text' as const, text: 'original' }]
    const e = s.append('user/message', { content, source: user })
    content[0].text = 'mutated'
    expect(e.data.content[0].text).toBe('original')
    expect(s.events()[0].data).toEqual({ content: text('original'), source: user })
    expect(() => {
      ;(e.data.content[0] as { text: string }).text = 'x'
    }).toThrow(TypeError)
    expect(() => {
      ;(e as { seq: number }).seq = 9
    }).toThrow(TypeError)
  })

  test('SL-4 a surface event without op is stored with {kind: append}; a log-only event with op is refused', () => {
    const s = newSession()
    expect(s.append('context/message', { content: text('x'), source: user }).op).toEqual({ kind: 'append' })
    startTurn(s)
    expect(codeOf(() => s.append('step/start', { turn: 1, step: 1 }, { kind: 'append' }))).toBe(
      'SURFACE_OP_MISMATCH',
    )
    expect(s.append('step/start', { turn: 1, step: 1 }).op).toBeUndefined()
    expect(
      codeOf(() =>
        s.append('context/message', { content: text('x'), source: user }, { kind: 'nope' } as never),
      ),
    ).toBe('SURFACE_OP_MISMATCH')
  })

  test('SL-4 replacing nodes 2..4 of six leaves four nodes, the new one at position 2', () => {
    const s = newSession()
    const seqs = [0, 1, 2, 3, 4, 5].map(
      (i) => s.append('context/message', { content: text(`n${i}`), source: user }).seq,
    )
    const r = s.append(
      'context/message',
      { content: text('summary'), source: plugin('compact') },
      {
        kind: 'replace',
        fromSeq: seqs[2],
        toSeq: seqs[4],
      },
    )
    expect(s.surface().map((e) => e.seq)).toEqual([0, 1, r.seq, 5])
    expect(r.op).toEqual({ kind: 'replace', fromSeq: 2, toSeq: 4 })
    // Node 3 was removed by that replace; naming it now is refused, and nothing is appended.
    const before = s.length
    expect(
      codeOf(() =>
        s.append(
          'context/message',
          { content: text('x'), source: user },
          { kind: 'replace', fromSeq: 3, toSeq: 3 },
        ),
      ),
    ).toBe('BAD_REPLACE')
    expect(s.length).toBe(before)
  })

  test('SL-4 replace ranges must be on the surface, in order, and made of integers', () => {
    const s = newSession()
    for (let i = 0; i < 3; i++) s.append('context/message', { content: text(`n${i}`), source: user })
    const rep = (fromSeq: number, toSeq: number) => () =>
      s.append('context/message', { content: text('r'), source: user }, { kind: 'replace', fromSeq, toSeq })
    expect(codeOf(rep(2, 1))).toBe('BAD_REPLACE') // from after to
    expect(codeOf(rep(0, 7))).toBe('BAD_REPLACE') // not in the log
    expect(codeOf(rep(0.5, 1))).toBe('BAD_REPLACE')
    s.append('plugin/marker' as 'context/message', {} as never)
    expect(codeOf(rep(0, 3))).toBe('BAD_REPLACE') // seq 3 is log-only
    expect(
      s.append(
        'context/message',
        { content: text('r'), source: user },
        { kind: 'replace', fromSeq: 1, toSeq: 1 },
      ).seq,
    ).toBe(4)
  })

  test('SL-6 append is typed by SessionEventMap (the @ts-expect-error lines fail tsc if they type-check)', () => {
    const s = newSession()
    startTurn(s)
    // @ts-expect-error — an unknown event type. At runtime any noun/verb type is accepted, since
    // plugin-declared types exist only in the type system; the compiler is what refuses this one.
    s.append('turn/started', { turn: 1 })
    // @ts-expect-error — a wrong payload: turn must be a number and reason is required
    s.append('turn/end', { turn: '1' })
    // @ts-expect-error — a content string where blocks are required (also refused at runtime)
    expect(codeOf(() => s.append('user/message', { content: 'hi', source: user }))).toBe('BAD_PAYLOAD')
    const rangeless = { kind: 'replace' } as const
    // @ts-expect-error — a replace op without its range (also refused at runtime)
    const badOp = () => s.append('context/message', { content: text('x'), source: user }, rangeless)
    expect(codeOf(badOp)).toBe('BAD_REPLACE')
    expect(s.events().map((e) => e.type)).toEqual(['turn/start', 'turn/started', 'turn/end'])
  })

  test('SL-8 user, context and steering messages and prompt/blocked need a source', () => {
    const s = newSession()
    startTurn(s)
    for (const type of ['user/message', 'context/message', 'steering/message'] as const) {
      expect(codeOf(() => s.append(type, { content: text('x') } as never))).toBe('MISSING_SOURCE')
      expect(codeOf(() => s.append(type, { content: text('x'), source: { kind: 'plugin' } } as never))).toBe(
        'MISSING_SOURCE',
      )
      expect(codeOf(() => s.append(type, { content: text('x'), source: null } as never))).toBe(
        'MISSING_SOURCE',
      )
    }
    expect(codeOf(() => s.append('prompt/blocked', { content: text('x'), reason: 'no' } as never))).toBe(
      'MISSING_SOURCE',
    )
    expect(s.length).toBe(1)
  })

  test('core payload shapes that projections read are checked (BAD_PAYLOAD)', () => {
    const s = newSession()
    startTurn(s)
    startStep(s)
    const bad: Array<() => unknown> = [
      () => s.append('user/message', { content: [{ type: 'image', url: 'x' }], source: user } as never),
      () =>
        s.append('assistant/message', {
          turn: 1,
          step: 1,
          content: [{ type: 'tool-call', callId: 'c' }],
          finishReason: 'stop',
        } as never),
      () => s.append('assistant/message', { turn: 1, step: 1, content: [] } as never),
      () => s.append('tool/result', { callId: 'c', name: 'n', content: text('x') } as never),
      () => s.append('request/header', { header: { config: {} }, reason: 'initial' } as never),
      () => s.append('request/header', { header: { config: { model: 'm' } }, reason: 'whenever' } as never),
      () => s.append('prompt/blocked', { content: text('x'), source: user } as never),
      () => s.append('step/end', 5 as never),
    ]
    for (const fn of bad) expect(codeOf(fn)).toBe('BAD_PAYLOAD')
    expect(s.length).toBe(2)
  })

  test('an event type that is not noun/verb is refused with UNKNOWN_EVENT', () => {
    const s = newSession()
    for (const type of ['message', 'Turn/Start', 'a/b/c', '', '/x']) {
      expect(codeOf(() => s.append(type as 'turn/start', { turn: 1, trigger: { kind: 'message' } }))).toBe(
        'UNKNOWN_EVENT',
      )
    }
  })

  test('subscribers: events appended by a listener are delivered in order, after the current one', () => {
    const s = newSession()
    const a: number[] = []
    const b: number[] = []
    s.subscribe((e) => {
      a.push(e.seq)
      if (e.seq === 0) s.append('context/message', { content: text('echo'), source: plugin('echo') })
    })
    s.subscribe((e) => b.push(e.seq))
    s.append('context/message', { content: text('first'), source: user })
    expect(a).toEqual([0, 1])
    expect(b).toEqual([0, 1])
  })

  test('subscribers: a throwing listener does not stop the others; append rethrows after storing', () => {
    const s = newSession()
    const seen: number[] = []
    const off = s.subscribe(() => {
      throw new Error('listener broke')
    })
    s.subscribe((e) => seen.push(e.seq))
    expect(() => s.append('context/message', { content: text('x'), source: user })).toThrow('listener broke')
    expect(seen).toEqual([0])
    expect(s.length).toBe(1)
    off()
    s.append('context/message', { content: text('y'), source: user })
    expect(seen).toEqual([0, 1])
  })

  test('SL-24 flush hands pending events to onFlush; a rejection keeps them pending', async () => {
    const batches: number[][] = []
    let fail = true
    const s = new Session({
      header: header(),
      clock: fixedClock,
      onFlush: async (_s, events) => {
        if (fail) throw new Error('disk full')
        batches.push(events.map((e) => e.seq))
      },
    })
    s.append('context/message', { content: text('a'), source: user })
    s.append('context/message', { content: text('b'), source: user })
    expect(s.pendingCount).toBe(2)
    await expect(s.flush()).rejects.toThrow('disk full')
    expect(s.pendingCount).toBe(2)
    fail = false
    await s.flush()
    expect(batches).toEqual([[0, 1]])
    expect(s.pendingCount).toBe(0)
    await s.flush()
    expect(batches).toEqual([[0, 1]]) // nothing pending: onFlush is not called
  })

  test('SL-24 flushes are serialised: a second flush waits for the first and takes only what followed', async () => {
    const batches: number[][] = []
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    let entered!: () => void
    const inFirst = new Promise<void>((r) => {
      entered = r
    })
    const s = new Session({
      header: header(),
      onFlush: async (_s, events) => {
        batches.push(events.map((e) => e.seq))
        if (batches.length === 1) {
          entered()
          await gate
        }
      },
    })
    s.append('context/message', { content: text('a'), source: user })
    const first = s.flush()
    await inFirst
    s.append('context/message', { content: text('b'), source: user })
    const second = s.flush()
    await new Promise((r) => setImmediate(r))
    expect(batches).toEqual([[0]]) // the second has not started while the first is in flight
    release()
    await Promise.all([first, second])
    expect(batches).toEqual([[0], [1]])
  })

  test('SL-21 a header with another format version is refused', () => {
    expect(SESSION_FORMAT_VERSION).toBe(1)
    expect(() => new Session({ header: { ...header(), version: 2 } })).toThrow(UnsupportedSessionFormatError)
    expect(() => new Session({ header: { ...header(), version: '1' as never } })).toThrow(
      UnsupportedSessionFormatError,
    )
  })

  test('a loaded log is validated lightly: seqs contiguous, surface ops present, headers fold', () => {
    const source = newSession()
    source.append('context/message', { content: text('a'), source: user })
    source.append('context/message', { content: text('b'), source: user })
    const events = source.events()
    expect(new Session({ header: header(), events }).deriveMessages()).toHaveLength(2)
    expect(codeOf(() => new Session({ header: header(), events: [events[1]] }))).toBe('SEQ_CONFLICT')
    const { op: _op, ...noOp } = events[0]
    expect(codeOf(() => new Session({ header: header(), events: [noOp as SessionEvent] }))).toBe(
      'SURFACE_OP_MISMATCH',
    )
    const delta = {
      type: 'request/header-delta',
      seq: 0,
      time: events[0].time,
      data: { config: { model: 'm' } },
    }
    expect(codeOf(() => new Session({ header: header(), events: [delta as SessionEvent] }))).toBe(
      'HEADER_FOLD_ERROR',
    )
  })

  test('a loaded Session continues seqs after the loaded log and treats it as flushed', () => {
    const source = newSession()
    source.append('context/message', { content: text('a'), source: user })
    const s = new Session({ header: header(), events: source.events(), clock: fixedClock })
    expect(s.pendingCount).toBe(0)
    expect(s.append('context/message', { content: text('b'), source: user }).seq).toBe(1)
    expect(s.pendingCount).toBe(1)
  })

  test('result() helper sanity: tool results are surface events', () => {
    const s = newSession()
    expect(result(s, 'c1').op).toEqual({ kind: 'append' })
  })

  test('SL-1 eventAt(seq) is the stored event itself, undefined past the end, and follows appends', () => {
    const s = newSession()
    startTurn(s)
    expect(s.eventAt(0)).toBe(s.events()[0])
    expect(s.eventAt(1)).toBeUndefined()
    startStep(s)
    expect(s.eventAt(1)?.type).toBe('step/start')
    expect(s.eventAt(s.length - 1)).toBe(s.events().at(-1))
    expect(Object.isFrozen(s.eventAt(1))).toBe(true)
  })
})
