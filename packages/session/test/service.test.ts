import { ConfigError, Context } from '@tack/kernel'
import { describe, expect, test } from 'vitest'
import {
  MemorySessionStore,
  type Session,
  type SessionEvent,
  SessionEventError,
  type SessionStore,
  sessionsPlugin,
} from '../src/index.ts'
import { InvariantError, installSessionStructureInvariant } from '../src/testing/index.ts'
import { assistantCalls, reasonOf, startStep, startTurn, text, user } from './helpers.ts'

async function boot(config: { store?: 'memory' | 'external' } = {}) {
  const ctx = new Context()
  const fiber = await ctx.plugin(sessionsPlugin, config)
  return { ctx, fiber }
}

function completeTurn(s: Session, turn = 1) {
  s.append('turn/start', { turn, trigger: { kind: 'message' } })
  s.append('user/message', { content: text(`q${turn}`), source: user })
  s.append('step/start', { turn, step: 1 })
  s.recordRequestHeader({ config: { model: 'm' }, system: 'sys' })
  s.append('assistant/message', { turn, step: 1, content: text(`a${turn}`), finishReason: 'stop' })
  s.append('step/end', { turn, step: 1 })
  s.append('turn/end', { turn, reason: { kind: 'completed' } })
}

describe('sessions plugin', () => {
  test('config: the default store is memory, so ctx.sessions and ctx.sessionStore exist', async () => {
    const { ctx } = await boot()
    expect(ctx.get('sessionStore')).toBeInstanceOf(MemorySessionStore)
    const s = await ctx.sessions.create({ cwd: '/w' })
    expect(await ctx.sessions.list()).toHaveLength(1)
    expect(s.header).toMatchObject({ version: 1, cwd: '/w' })
  })

  test('storeFromFirstTurn: the store gets the session, with every event so far, from its first turn', async () => {
    const { ctx } = await boot()
    const s = await ctx.sessions.create({ cwd: '/w', storeFromFirstTurn: true })
    s.append('context/message', { content: text('before any turn'), source: user })
    await s.flush()
    expect(await ctx.sessions.list()).toEqual([])
    expect(ctx.sessions.isStored(s)).toBe(false)
    completeTurn(s)
    await s.flush()
    expect(ctx.sessions.isStored(s)).toBe(true)
    const stored = await ctx.sessionStore.load(s.id)
    expect(stored.events.map((e) => e.seq)).toEqual(s.events().map((e) => e.seq))
    expect(stored.events[0].type).toBe('context/message')
  })

  test("config: store 'external' waits for the host's ctx.sessionStore and uses it", async () => {
    const { ctx } = await boot({ store: 'external' })
    expect(ctx.get('sessions')).toBeUndefined()
    const host = new MemorySessionStore()
    await ctx.plugin({ name: 'host-store', apply: (c: Context) => c.provide('sessionStore', host) })
    const s = await ctx.sessions.create({ cwd: '/w', id: 'from-host' })
    s.append('context/message', { content: text('x'), source: user })
    await s.flush()
    expect((await host.load('from-host')).events).toHaveLength(1)
  })

  test('config: an unknown store kind or key is rejected at load, naming the field and allowed values', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(sessionsPlugin, { store: 'sqlite' } as never)).rejects.toThrow(
      /store.*'memory', 'external'/,
    )
    await expect(ctx.plugin(sessionsPlugin, { stroe: 'memory' } as never)).rejects.toThrow(/unknown key/)
    expect(() => sessionsPlugin.Config.parse({ store: 'disk' }, 'tack.json')).toThrow(ConfigError)
    expect(sessionsPlugin.Config.parse({})).toEqual({ store: 'memory' })
  })

  test('create stamps a v1 header with a fresh id (or the given one); a taken id fails SESSION_EXISTS', async () => {
    const { ctx } = await boot()
    const a = await ctx.sessions.create({ cwd: '/w' })
    const b = await ctx.sessions.create({ cwd: '/w' })
    expect(a.id).not.toBe(b.id)
    expect(a.header.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    await ctx.sessions.create({ cwd: '/w', id: 'named' })
    await expect(ctx.sessions.create({ cwd: '/w', id: 'named' })).rejects.toMatchObject({
      code: 'SESSION_EXISTS',
    })
    await expect(ctx.sessions.create({ cwd: '' })).rejects.toThrow(TypeError)
  })

  test('session/event re-emits every append synchronously; session/opened names the origin', async () => {
    const { ctx } = await boot()
    const seen: Array<[string, number]> = []
    const opened: string[] = []
    ctx.on('session/event', (session, event) => {
      seen.push([session.id, event.seq])
    })
    ctx.on('session/opened', (_s, origin) => {
      opened.push(origin)
    })
    const s = await ctx.sessions.create({ cwd: '/w', id: 'e1' })
    s.append('context/message', { content: text('a'), source: user })
    expect(seen).toEqual([['e1', 0]])
    s.append('context/message', { content: text('b'), source: user })
    expect(seen).toEqual([
      ['e1', 0],
      ['e1', 1],
    ])
    await s.flush()
    await ctx.sessions.open('e1')
    await ctx.sessions.fork('e1')
    expect(opened).toEqual(['create', 'open', 'fork'])
  })

  test('a throwing session/event listener is reported, never breaks the append', async () => {
    const { ctx } = await boot()
    const faults: string[] = []
    ctx.on('session/event', () => {
      throw new Error('reporter broke')
    })
    ctx.on('kernel/listener-fault', (f) => {
      faults.push(f.seam)
    })
    const s = await ctx.sessions.create({ cwd: '/w' })
    expect(s.append('context/message', { content: text('a'), source: user }).seq).toBe(0)
    expect(faults).toEqual(['session/event'])
  })

  test('SL-24 flush persists through session/flush to ctx.sessionStore', async () => {
    const { ctx } = await boot()
    const flushed: number[][] = []
    ctx.on('session/flush', async (_s, events) => {
      flushed.push(events.map((e) => e.seq))
    })
    const s = await ctx.sessions.create({ cwd: '/w', id: 'f1' })
    completeTurn(s)
    expect(s.pendingCount).toBe(7)
    await s.flush()
    expect(s.pendingCount).toBe(0)
    expect(flushed).toEqual([[0, 1, 2, 3, 4, 5, 6]])
    expect((await ctx.sessionStore.load('f1')).events).toEqual(s.events())
  })

  test('SL-24 a failing session/flush listener makes flush reject and keeps events pending; a retry writes each event once', async () => {
    const { ctx } = await boot()
    let failing = true
    ctx.on('session/flush', async () => {
      if (failing) throw new Error('mirror unavailable')
    })
    const s = await ctx.sessions.create({ cwd: '/w', id: 'f2' })
    s.append('context/message', { content: text('a'), source: user })
    await expect(s.flush()).rejects.toThrow('mirror unavailable')
    expect(s.pendingCount).toBe(1)
    s.append('context/message', { content: text('b'), source: user })
    failing = false
    await s.flush() // the store already holds seq 0: only seq 1 is written, no SEQ_CONFLICT
    expect(s.pendingCount).toBe(0)
    expect((await ctx.sessionStore.load('f2')).events.map((e) => e.seq)).toEqual([0, 1])
  })

  test('SL-24 a failing store makes flush reject with its error', async () => {
    const failing: SessionStore = Object.assign(new MemorySessionStore(), {
      append: async () => {
        throw new SessionEventError('SEQ_CONFLICT', 'someone else wrote')
      },
    })
    const { ctx } = await boot({ store: 'external' })
    await ctx.plugin({ name: 'failing-store', apply: (c: Context) => c.provide('sessionStore', failing) })
    const s = await ctx.sessions.create({ cwd: '/w' })
    s.append('context/message', { content: text('a'), source: user })
    await expect(s.flush()).rejects.toMatchObject({ code: 'SEQ_CONFLICT' })
    expect(s.pendingCount).toBe(1)
  })

  test('SL-24 after the plugin is disposed, flush fails closed instead of silently dropping events', async () => {
    const { ctx, fiber } = await boot()
    const s = await ctx.sessions.create({ cwd: '/w' })
    s.append('context/message', { content: text('a'), source: user })
    await fiber.dispose()
    await expect(s.flush()).rejects.toThrow(/disposed/)
    expect(s.pendingCount).toBe(1)
  })

  test('SL-23 write, reopen: the rebuilt session derives the same messages and header', async () => {
    const { ctx } = await boot()
    const s = await ctx.sessions.create({ cwd: '/w', id: 'r1' })
    completeTurn(s, 1)
    completeTurn(s, 2)
    await s.flush()
    const again = await ctx.sessions.open('r1')
    expect(again).not.toBe(s)
    expect(again.events()).toEqual(s.events())
    expect(again.deriveMessages()).toEqual(s.deriveMessages())
    expect(again.requestHeader()).toEqual(s.requestHeader())
    expect(again.header).toEqual(s.header)
    expect(again.pendingCount).toBe(0)
    expect(reasonOf(again.recordRequestHeader({ config: { model: 'm' }, system: 'sys' }))).toBe('resume')
  })

  test('SL-23 SL-25 open recovers an interrupted turn durably before handing the session out', async () => {
    const { ctx } = await boot()
    const s = await ctx.sessions.create({ cwd: '/w', id: 'crash' })
    startTurn(s)
    s.append('user/message', { content: text('go'), source: user })
    startStep(s)
    assistantCalls(s, [['c1', 'bash']])
    s.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{}' })
    await s.flush() // then the process "dies"
    const reopened = await ctx.sessions.open('crash')
    expect(
      reopened
        .events()
        .slice(s.length)
        .map((e) => e.type),
    ).toEqual(['tool/result', 'step/end', 'turn/end'])
    expect(reopened.inProgressToolCalls).toBe(0)
    expect(reopened.pendingCount).toBe(0)
    expect((await ctx.sessionStore.load('crash')).events).toHaveLength(reopened.length)
  })

  test('SL-22 fork copies the prefix, sets parentSession and seedLength, refuses mid-turn cuts, leaves the source', async () => {
    const { ctx } = await boot()
    const src = await ctx.sessions.create({ cwd: '/src', id: 'src' })
    completeTurn(src, 1)
    completeTurn(src, 2)
    await src.flush()
    const child = await ctx.sessions.fork('src', { atSeq: 7, childId: 'kid' })
    expect(child.id).toBe('kid')
    expect(child.header).toMatchObject({ parentSession: 'src', seedLength: 7, cwd: '/src', version: 1 })
    expect(child.events()).toEqual(src.events().slice(0, 7))
    await expect(ctx.sessions.fork('src', { atSeq: 3 })).rejects.toMatchObject({ code: 'BAD_FORK_POINT' })
    await expect(ctx.sessions.fork('src', { atSeq: 99 })).rejects.toMatchObject({ code: 'BAD_FORK_POINT' })
    expect((await ctx.sessionStore.load('src')).events).toEqual(src.events())
    const whole = await ctx.sessions.fork('src')
    expect(whole.header.seedLength).toBe(src.length)
    expect((await ctx.sessions.list()).map((x) => x.id)).toContain('kid')
  })

  test("SL-22 a child's first header is resume when the copy holds a header event, initial otherwise", async () => {
    const { ctx } = await boot()
    const src = await ctx.sessions.create({ cwd: '/w', id: 'src2' })
    src.append('context/message', { content: text('notes'), source: user })
    completeTurn(src)
    await src.flush()
    const h = { config: { model: 'm' } }
    const withHeader = await ctx.sessions.fork('src2')
    withHeader.append('turn/start', { turn: 2, trigger: { kind: 'message' } })
    withHeader.append('step/start', { turn: 2, step: 1 })
    expect(reasonOf(withHeader.recordRequestHeader(h))).toBe('resume')
    const before = await ctx.sessions.fork('src2', { atSeq: 1 })
    before.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    before.append('step/start', { turn: 1, step: 1 })
    expect(reasonOf(before.recordRequestHeader(h))).toBe('initial')
  })

  test('remove deletes through the store; unknown ids fail SESSION_NOT_FOUND', async () => {
    const { ctx } = await boot()
    await ctx.sessions.create({ cwd: '/w', id: 'gone' })
    await ctx.sessions.remove('gone')
    expect(await ctx.sessions.list()).toEqual([])
    await expect(ctx.sessions.open('gone')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    await expect(ctx.sessions.remove('gone')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
  })

  test('SL-20 installSessionStructureInvariant makes a broken append throw InvariantError', async () => {
    const { ctx } = await boot()
    installSessionStructureInvariant(ctx)
    const s = await ctx.sessions.create({ cwd: '/w' })
    startTurn(s)
    let error: unknown
    try {
      s.append('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', text: 'x' } })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvariantError)
    expect((error as InvariantError).rule).toBe('enclosure')
    expect((error as InvariantError).seq).toBe(1)
  })

  test('SL-20 installSessionStructureInvariant reports a broken stored log at the first append after open', async () => {
    const { ctx } = await boot()
    installSessionStructureInvariant(ctx)
    const bad = [
      { type: 'step/start', seq: 0, time: '2025-01-01T00:00:00.000Z', data: { turn: 1, step: 1 } },
    ] as SessionEvent[]
    await ctx.sessionStore.create({ version: 1, id: 'bad', createdAt: '2025-01-01T00:00:00.000Z', cwd: '/w' })
    await ctx.sessionStore.append('bad', bad)
    const s = await ctx.sessions.open('bad') // recovery closes the step; the step/start outside a turn stays
    expect(() => s.append('context/message', { content: text('x'), source: user })).toThrow(InvariantError)
  })
})
