// turn.step streams, session and turn events, per-session instances and the UI test entry through a
// scripted tack session (65-mod-host.md requirements 2, 7 and 10).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { fireModEvent, modsIdle, modsReady } from '../src/testing.ts'
import { type ModSession, modSession, tempDir, writeMod } from './helpers.ts'

let sessions: ModSession[] = []
afterEach(async () => {
  for (const s of sessions) await s.dispose()
  sessions = []
})

const user = (content: string) => ({ content, source: { kind: 'user' as const } })
const usage = { inputTokens: 120, outputTokens: 7, cachedInputTokens: 20 }

async function start(source: string, script: Parameters<typeof modSession>[1], config = {}) {
  const out = tempDir()
  const dir = writeMod({ name: 'observer', source: source.replaceAll('OUT', JSON.stringify(out)) })
  const s = await modSession([{ dir }], script, config)
  sessions.push(s)
  return { s, out, read: (name: string) => JSON.parse(readFileSync(join(out, name), 'utf8')) }
}

describe('turn.step (requirement 7)', () => {
  it('a generator hook sees every chunk and the usage, and the request proceeds', async () => {
    const { s, read } = await start(
      `const seen = []
      export function register(on) {
        on('turn.step', async function* ($, e, next) {
          const stream = next(e)
          let r
          while (true) { const c = await stream.next(); if (c.done) { r = c.value; break } seen.push(c.value.type); yield c.value }
          await $.fs.write(OUT + '/step.json', JSON.stringify({ seen, usage: r.usage, answer: r.answer, e }))
          return r
        })
      }`,
      [text('hello there', { usage, reasoning: 'thinking…' })],
    )
    await s.agent.send(user('hi'))
    const got = read('step.json')
    expect(got.seen).toContain('text')
    expect(got.seen).toContain('thinking')
    expect(got.seen.at(-1)).toBe('stop')
    expect(got.answer).toBe('hello there')
    expect(got.usage).toEqual({
      input_tokens: 100,
      output_tokens: 7,
      cache_read_input_tokens: 20,
      cache_creation_input_tokens: 0,
      model: 'scripted/test',
    })
    expect(got.e).toMatchObject({ turnId: `${s.agent.session.id}:1`, index: 0, model: 'scripted/test' })
    const message = s.events().find((e) => e.type === 'assistant/message')?.data as {
      content: { text: string }[]
    }
    expect(message.content.map((b) => b.text)).toContain('hello there')
  })

  it('yielding without next answers the request: no model call, a logged assistant message', async () => {
    const { s } = await start(
      `export function register(on) {
        on('turn.step', async function* ($, e) { yield { type: 'text', text: 'answered by the mod' }; yield { type: 'stop', reason: 'stop' } })
      }`,
      [],
    )
    const outcome = await s.agent.send(user('hi'))
    expect(outcome.reason.kind).toBe('completed')
    const message = s.events().find((e) => e.type === 'assistant/message')?.data as {
      content: { type: string; text: string }[]
      usage?: unknown
    }
    expect(message.content).toEqual([{ type: 'text', text: 'answered by the mod' }])
    expect(message.usage).toBeUndefined()
  })

  it('a non-generator hook is skipped ("returned no stream") and the request proceeds', async () => {
    const { s } = await start(
      `export function register(on) { on('turn.step', async ($, e, next) => next(e)) }`,
      [text('from the model')],
    )
    await s.agent.send(user('hi'))
    const fault = s.events().find((e) => e.type === 'mod/fault')?.data
    expect(fault).toMatchObject({ kind: 'shape', event: 'turn.step' })
    expect(String((fault as { message: string }).message)).toContain('returned no stream')
    const message = s.events().find((e) => e.type === 'assistant/message')?.data as {
      content: { text: string }[]
    }
    expect(message.content[0].text).toBe('from the model')
  })
})

describe('session and turn events (requirement 10)', () => {
  it('session.start, turn.start, turn.complete and session.end carry their fields; $.session.version says tack', async () => {
    const { s, out } = await start(
      // One file per event: the hooks of turn.complete and session.end may overlap, and two writes of one
      // growing file could land out of order.
      `const save = ($, name, entry) => $.fs.write(OUT + '/' + name + '.json', JSON.stringify(entry))
      export function register(on) {
        on('session.start', async ($, e, next) => { await save($, 'session.start', ['session.start', e, await $.session.version()]); return next(e) })
        on('turn.start', async ($, e, next) => { await save($, 'turn.start', ['turn.start', e]); return next(e) })
        on('turn.complete', async ($, e, next) => { await save($, 'turn.complete', ['turn.complete', e]); return next(e) })
        on('session.end', async ($, e, next) => { await save($, 'session.end', ['session.end', e]); return next(e) })
      }`,
      [toolCalls([{ name: 'bash', args: { command: 'true' }, id: 'b' }], { usage }), text('done', { usage })],
    )
    await s.agent.send(user('do it'))
    await s.dispose()
    sessions = []
    const names = ['session.start', 'turn.start', 'turn.complete', 'session.end']
    const events = names.map(
      (name) =>
        JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8')) as [
          string,
          Record<string, unknown>,
          unknown?,
        ],
    )
    expect(events.map((e) => e[0])).toEqual(names)
    expect(events[0][1]).toEqual({ cwd: s.cwd, surface: null, isInteractive: false })
    expect(events[0][2]).toMatchObject({ host: 'tack' })
    expect(events[1][1]).toEqual({ text: 'do it', turnId: `${s.agent.session.id}:1` })
    expect(events[2][1]).toMatchObject({ answer: 'done', isAborted: false, reason: 'answer' })
    expect((events[2][1].usage as { output_tokens: number }).output_tokens).toBe(14)
    expect(events[3][1]).toEqual({ reason: 'other', sessionId: s.agent.session.id })
  })

  it('session.measure follows each turn with the context in use, only when something changed', async () => {
    const { s, read } = await start(
      `const seen = []
      export function register(on) {
        on('session.measure', async ($, e, next) => { seen.push(e); await $.fs.write(OUT + '/measure.json', JSON.stringify(seen)); return next(e) })
      }`,
      [
        text('one', { usage }),
        text('two', { usage }),
        text('three', { usage: { inputTokens: 300, outputTokens: 1 } }),
      ],
    )
    await s.agent.send(user('a'))
    await s.agent.send(user('b'))
    await s.agent.send(user('c'))
    await s.agent.whenIdle()
    await modsIdle(s.ctx, s.agent) // the last hook's write has landed (a fixed wait raced it under load)
    const seen = read('measure.json') as {
      context: { tokens: number; window: number }
      rateLimits: []
      changed: string[]
    }[]
    // turn 2 used the same context as turn 1 and the scripted model has no price: no event for it
    expect(seen.map((e) => e.context.tokens)).toEqual([120, 300])
    expect(seen[0]).toMatchObject({ rateLimits: [], changed: ['context'] })
    expect(seen[0].context.window).toBeGreaterThan(0)
  })

  it('prompt.submit: {drop} blocks the prompt; a rewritten text is what the model gets', async () => {
    const { s } = await start(
      `export function register(on) {
        on('prompt.submit', async ($, e, next) => e.text.includes('secret') ? { drop: 'no secrets' } : next({ ...e, text: e.text.toUpperCase() }))
      }`,
      [text('ok')],
    )
    const blocked = await s.agent.send(user('my secret'))
    expect(blocked.reason.kind).toBe('rejected')
    await s.agent.send(user('shout this'))
    const message = s.events().find((e) => e.type === 'user/message')?.data as { content: { text: string }[] }
    expect(message.content[0].text).toBe('SHOUT THIS')
  })

  it('prompt.submit: a cancel while the mod hook runs ends the turn at once; the hook going on later starts no later listener (AL-23)', async () => {
    const { s } = await start(
      `export function register(on) {
        on('prompt.submit', async ($, e, next) => { await new Promise((r) => setTimeout(r, 1500)); return next(e) })
      }`,
      [text('never')],
    )
    const later: string[] = []
    s.ctx.on('agent/prompt-submit', async (_agent, prompt, next) => {
      later.push(String(prompt.content))
      return next()
    })
    const sent = s.agent.send(user('hello'))
    while (!s.events().some((e) => e.type === 'turn/start')) await new Promise((r) => setTimeout(r, 5))
    await new Promise((r) => setTimeout(r, 50))
    s.agent.cancel()
    const started = performance.now()
    expect((await sent).reason).toEqual({ kind: 'aborted' })
    // Far below the 1.5 s the hook still has to go.
    expect(performance.now() - started).toBeLessThan(1000)
    // The mod hook finishes and calls next(): the listener after it is not started.
    await new Promise((r) => setTimeout(r, 2000))
    expect(later).toEqual([])
    expect(s.events().some((e) => e.type === 'user/message')).toBe(false)
  })

  it('each session gets its own instance: a module counter reports 1 in each (requirement 2)', async () => {
    const out = tempDir()
    const dir = writeMod({
      name: 'counter',
      // the counter lives in a relative import: the instance query reaches it too
      source: `import { bump } from './state.mjs'
      export function register(on) {
        on('turn.start', async ($, e, next) => { const turns = bump(); await $.fs.write(${JSON.stringify(out)} + '/' + (await $.session.id()), String(turns)); return next(e) })
      }`,
      files: { 'hooks/state.mjs': 'let turns = 0\nexport const bump = () => ++turns\n' },
    })
    const a = await modSession([{ dir }], [text('a')])
    const b = await modSession([{ dir }], [text('b')])
    sessions.push(a, b)
    await a.agent.send(user('one'))
    await b.agent.send(user('two'))
    expect(readFileSync(join(out, a.agent.session.id), 'utf8')).toBe('1')
    expect(readFileSync(join(out, b.agent.session.id), 'utf8')).toBe('1')
  })

  it('the test entry fires prompt.edit, prompt.suggest and command.run', async () => {
    const { s } = await start(
      `export function register(on) {
        on('prompt.edit', async ($, e) => ({ text: e.text.replace('teh', 'the'), cursor: e.cursor }))
        on('prompt.suggest', async ($, e, next) => ({ isShown: e.text.length > 0 }))
        on('command.run', { command: 'hello' }, async ($, e) => ({ text: 'hi ' + e.args }))
      }`,
      [],
    )
    await modsReady(s.ctx, s.agent)
    const origin = { kind: 'composer' }
    expect(
      await fireModEvent(s.ctx, s.agent, 'prompt.edit', {
        origin,
        text: 'teh cat',
        cursor: 7,
        start: 0,
        end: 7,
        inputText: 't',
      }),
    ).toEqual({ text: 'the cat', cursor: 7 })
    expect(
      await fireModEvent(s.ctx, s.agent, 'prompt.suggest', { text: 'x', origin: { kind: 'suggestion' } }),
    ).toEqual({
      isShown: true,
    })
    const command = (name: string, args: string) =>
      fireModEvent(s.ctx, s.agent, 'command.run', {
        command: name,
        args,
        origin: { kind: 'sdk' },
        presentation: { isFullscreen: false, columns: 80 },
      })
    expect(await command('hello', 'there')).toEqual({ text: 'hi there' })
    expect(await command('other', '')).toEqual({})
  })
})

describe("tack's own failures pass through a hook", () => {
  it('a model error beneath an observing turn.step hook ends the turn with that error, not an empty answer', async () => {
    const { s } = await start(
      `export function register(on) { on('turn.step', async function* ($, e, next) { return yield* next(e) }) }`,
      [{ kind: 'error', message: 'upstream exploded', code: 'BOOM' }],
    )
    const outcome = await s.agent.send(user('hi'))
    expect(outcome.reason.kind).toBe('error')
    expect(JSON.stringify(outcome.reason)).toContain('upstream exploded')
    expect(s.events().filter((e) => e.type === 'mod/fault')).toEqual([])
  })
})
