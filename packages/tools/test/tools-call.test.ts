import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import { defineTool, type ToolExecutionResult } from '../src/index.ts'
import { echoTool } from '../src/testing/index.ts'
import { agentWith, call, createToolsContext, eventsOf, newSession } from './support.ts'

async function setup() {
  const ctx = await createToolsContext()
  const bodies: unknown[] = []
  ctx.tools.register(
    defineTool({
      name: 'search',
      description: 'searches',
      parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      execute: (args) => {
        bodies.push(args)
        return `results for ${args.query}`
      },
    }),
  )
  const inner: string[] = []
  ctx.on('tools/pre-execute', (_e, next) => {
    inner.push('pre-execute')
    return next()
  })
  ctx.on('tools/execute', (_e, next) => {
    inner.push('execute')
    return next()
  })
  ctx.on('tools/post-execute', (_e, _r, next) => {
    inner.push('post-execute')
    return next()
  })
  const session = newSession()
  const agent = agentWith(session)
  return { ctx, bodies, inner, session, agent }
}

const plugin = (ctx: Context, name: string, apply: (inner: Context) => void) => ctx.plugin({ name, apply })

describe('TL-31 tools/call', () => {
  test('TL-31 TL-35 an answering listener means no body and no inner seam; tool/answered names the listener', async () => {
    const { ctx, bodies, inner, session, agent } = await setup()
    await plugin(ctx, 'cache', (c) => c.on('tools/call', () => ({ content: 'cached results' })))
    const exec = call('search', { query: 'x' }, { agent })
    const r = await ctx.tools.execute(exec)
    expect(r).toEqual({
      callId: exec.callId,
      name: 'search',
      content: [{ type: 'text', text: 'cached results' }],
      isError: false,
    })
    expect(bodies).toEqual([])
    expect(inner).toEqual([])
    expect(eventsOf(session)).toEqual([{ type: 'tool/answered', data: { callId: exec.callId, by: 'cache' } }])
  })

  test('TL-31 a listener can answer even before look-up, e.g. for a tool it serves itself', async () => {
    const { ctx, session, agent } = await setup()
    await plugin(ctx, 'remote-tools', (c) =>
      c.on('tools/call', (e, next) =>
        e.name === 'remote' ? { content: 'from elsewhere', meta: { host: 'h' } } : next(),
      ),
    )
    const r = await ctx.tools.execute(call('remote', '{}', { agent }))
    expect(r).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'from elsewhere' }],
      meta: { host: 'h' },
    })
    expect(eventsOf(session).map((e) => e.type)).toEqual(['tool/answered'])
  })

  test('TL-31 an answer with an error is an error result', async () => {
    const { ctx } = await setup()
    ctx.on('tools/call', () => ({ content: 'quota exceeded', error: { name: 'QuotaError', code: 'QUOTA' } }))
    const r = await ctx.tools.execute(call('search', { query: 'x' }))
    expect(r).toMatchObject({ isError: true, error: { name: 'QuotaError', code: 'QUOTA' } })
  })

  test('TL-31 an observing listener sees the call end to end and logs nothing', async () => {
    const { ctx, bodies, inner, session, agent } = await setup()
    const seen: ToolExecutionResult[] = []
    ctx.on('tools/call', async (_e, next) => {
      inner.push('call:before')
      const result = await next()
      inner.push('call:after')
      seen.push(result)
      return result
    })
    await ctx.tools.execute(call('search', { query: 'q' }, { agent }))
    expect(inner).toEqual(['call:before', 'pre-execute', 'execute', 'post-execute', 'call:after'])
    expect(seen[0].content).toEqual([{ type: 'text', text: 'results for q' }])
    expect(bodies).toEqual([{ query: 'q' }])
    expect(eventsOf(session)).toEqual([])
  })

  test('TL-31 TL-32 a listener may rewrite the argument text before validation; the rewrite is logged', async () => {
    const { ctx, bodies, session, agent } = await setup()
    await plugin(ctx, 'query-fixer', (c) =>
      c.on('tools/call', (e, next) =>
        next({ ...e, rawArguments: e.rawArguments.replace('"qeury"', '"query"') }),
      ),
    )
    const exec = call('search', '{"qeury": "cats"}', { agent })
    const r = await ctx.tools.execute(exec)
    expect(r.content[0].text).toBe('results for cats')
    expect(bodies).toEqual([{ query: 'cats' }])
    expect(eventsOf(session)).toEqual([
      {
        type: 'tool/arguments-rewritten',
        data: { callId: exec.callId, arguments: { query: 'cats' }, by: 'query-fixer' },
      },
    ])
  })

  test('TL-31 an invalid argument-text rewrite is INVALID_ARGS naming the plugin', async () => {
    const { ctx, bodies } = await setup()
    await plugin(ctx, 'mangler', (c) =>
      c.on('tools/call', (e, next) => next({ ...e, rawArguments: '{"query": 1}' })),
    )
    const r = await ctx.tools.execute(call('search', { query: 'fine' }))
    expect(r.error?.code).toBe('INVALID_ARGS')
    expect(r.content[0].text).toBe(
      'Arguments rewritten by plugin "mangler" are invalid for tool "search":\n/query: expected string',
    )
    expect(bodies).toEqual([])
  })

  test('TL-31 only rawArguments and signal are taken from a replaced exec', async () => {
    const { ctx, bodies } = await setup()
    ctx.tools.register(echoTool)
    ctx.on('tools/call', (e, next) => next({ ...e, name: 'echo', callId: 'forged' }))
    const exec = call('search', { query: 'q' })
    const r = await ctx.tools.execute(exec)
    expect(r).toMatchObject({
      callId: exec.callId,
      name: 'search',
      content: [{ type: 'text', text: 'results for q' }],
    })
    expect(bodies).toHaveLength(1)
  })

  test('TL-31 a malformed answer is a PLUGIN_ERROR naming the plugin', async () => {
    const { ctx } = await setup()
    await plugin(ctx, 'sloppy', (c) => c.on('tools/call', () => ({ text: 'oops' }) as never))
    const r = await ctx.tools.execute(call('search', { query: 'q' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toBe(
      'tools/call listener of plugin "sloppy" failed: returned an invalid value: content must be a string or an array of text blocks',
    )
  })

  test('TL-31 without an agent nothing is logged and the answer still stands', async () => {
    const { ctx } = await setup()
    ctx.on('tools/call', () => ({ content: 'x' }))
    const r = await ctx.tools.execute(call('search', { query: 'q' }))
    expect(r.content).toEqual([{ type: 'text', text: 'x' }])
  })
})
