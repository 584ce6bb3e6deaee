import { Session, type SessionEvent } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { defineTool } from '../src/index.ts'
import { agentWith, call, captureLogs, createToolsContext, newSession } from './support.ts'

const counter = defineTool({
  name: 'count',
  description: 'counts lines',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: (args) => ({
    content: `3 lines in ${args.path}`,
    meta: { path: args.path, lines: 3, when: undefined },
  }),
  present: {
    result: (args, result) => [
      { kind: 'text', text: `${args.path}: meta says ${JSON.stringify(result.meta)}` },
    ],
  },
})

describe('TL-9 meta', () => {
  test('TL-9 a card rebuilt from a reloaded log equals the live one', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(counter)
    const session = newSession()
    const exec = call('count', { path: 'a.txt' }, { agent: agentWith(session) })
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('step/start', { turn: 1, step: 1 })
    session.append('tool/call', {
      turn: 1,
      step: 1,
      callId: exec.callId,
      name: exec.name,
      arguments: exec.rawArguments,
    })
    const result = await ctx.tools.execute(exec)
    // The canonical copy is what the result carries: `undefined` members are gone.
    expect(result.meta).toEqual({ path: 'a.txt', lines: 3 })
    expect(Object.keys(result.meta as object)).toEqual(['path', 'lines'])
    session.append('tool/result', {
      callId: result.callId,
      name: result.name,
      content: result.content,
      isError: result.isError,
      meta: result.meta as never,
    })
    const live = ctx.tools.presentResult('count', exec.rawArguments, result)

    // Reload: the log as a store would hand it back, then a fresh registry.
    const stored = JSON.parse(JSON.stringify(session.events())) as SessionEvent[]
    const reloaded = new Session({ header: session.header, events: stored })
    const logged = reloaded.events()
    const loggedCall = logged.find((e) => e.type === 'tool/call') as SessionEvent<'tool/call'>
    const loggedResult = logged.find((e) => e.type === 'tool/result') as SessionEvent<'tool/result'>
    const replayCtx = await createToolsContext()
    replayCtx.tools.register(counter)
    const replayed = replayCtx.tools.presentResult('count', loggedCall.data.arguments, loggedResult.data)
    expect(replayed).toEqual(live)
    expect(live.intents).toEqual([{ kind: 'text', text: 'a.txt: meta says {"path":"a.txt","lines":3}' }])
  })

  test('TL-9 a BigInt meta is dropped with a warning; the result is otherwise unchanged', async () => {
    const ctx = await createToolsContext()
    const logs = captureLogs(ctx)
    ctx.tools.register(
      defineTool({
        name: 'big',
        description: '',
        parameters: { type: 'object' },
        execute: () => ({ content: 'done', meta: { size: 10n } }),
      }),
    )
    const exec = call('big')
    const r = await ctx.tools.execute(exec)
    expect(r).toEqual({
      callId: exec.callId,
      name: 'big',
      content: [{ type: 'text', text: 'done' }],
      isError: false,
    })
    const warnings = logs.filter((l) => l.type === 'warn' && l.name === 'tools')
    expect(warnings).toHaveLength(1)
    expect(warnings[0].text).toContain(
      `tool big (call ${exec.callId}) returned meta that is not lossless JSON at /size`,
    )
  })

  test('TL-9 post-execute listeners see the canonical meta, and a listener-supplied bad meta is dropped too', async () => {
    const ctx = await createToolsContext()
    const logs = captureLogs(ctx)
    ctx.tools.register(
      defineTool({
        name: 'dated',
        description: '',
        parameters: { type: 'object' },
        execute: () => ({ content: 'ok', meta: { at: new Date(0) } }),
      }),
    )
    const seenMeta: unknown[] = []
    ctx.on('tools/post-execute', (_e, r, next) => {
      seenMeta.push(r.meta)
      return next()
    })
    ctx.on('tools/call', async (_e, next) => ({ ...(await next()), meta: { fn: () => 1 } }))
    const r = await ctx.tools.execute(call('dated'))
    expect(seenMeta).toEqual([undefined])
    expect('meta' in r).toBe(false)
    expect(logs.filter((l) => l.type === 'warn')).toHaveLength(2)
  })
})
