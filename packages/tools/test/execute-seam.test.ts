import { describe, expect, test } from 'vitest'
import { defineTool, type ToolExecutionResult, ToolFailure } from '../src/index.ts'
import { createGatedTool, echoTool, throwingTool } from '../src/testing/index.ts'
import { call, createToolsContext } from './support.ts'

describe('TL-6 tools/execute', () => {
  test('TL-6 a wrapper receives a thrown tool as a result, not an exception', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(throwingTool)
    const seen: Array<ToolExecutionResult | 'threw'> = []
    ctx.on('tools/execute', async (_e, next) => {
      try {
        const result = await next()
        seen.push(result)
        return result
      } catch {
        seen.push('threw')
        throw new Error('unreachable')
      }
    })
    const r = await ctx.tools.execute(call('fail', { message: 'kaput', name: 'SyntaxError' }))
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      isError: true,
      error: { name: 'SyntaxError', code: 'TOOL_FAILED', message: 'kaput' },
    })
    expect(r.error?.code).toBe('TOOL_FAILED')
  })

  test('TL-6 a wrapper may swap the body signal with next({...exec, signal})', async () => {
    const ctx = await createToolsContext()
    const gated = createGatedTool()
    ctx.tools.register(gated.tool)
    const mine = new AbortController()
    ctx.on('tools/execute', (e, next) => next({ ...e, signal: mine.signal }))
    const pending = ctx.tools.execute(call('gated'))
    const bodySignal = await gated.started
    expect(bodySignal.aborted).toBe(false)
    mine.abort()
    expect(bodySignal.aborted).toBe(true)
    expect((await pending).error?.code).toBe('ABORTED')
  })

  test('TL-6 a wrapper may retry by calling next() again', async () => {
    const ctx = await createToolsContext()
    let attempts = 0
    ctx.tools.register(
      defineTool({
        name: 'flaky',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          attempts++
          if (attempts < 3) throw new Error(`attempt ${attempts} failed`)
          return `ok after ${attempts}`
        },
      }),
    )
    ctx.on('tools/execute', async (_e, next) => {
      let result = await next()
      while (result.isError && attempts < 3) result = await next()
      return result
    })
    const r = await ctx.tools.execute(call('flaky'))
    expect(r).toMatchObject({ isError: false, content: [{ type: 'text', text: 'ok after 3' }] })
  })

  test('TL-6 a wrapper answering without next() skips the body and post-execute', async () => {
    const ctx = await createToolsContext()
    let bodies = 0
    ctx.tools.register(
      defineTool({
        name: 'x',
        description: '',
        parameters: { type: 'object' },
        execute: () => `${++bodies}`,
      }),
    )
    let posts = 0
    ctx.on('tools/post-execute', (_e, _r, next) => {
      posts++
      return next()
    })
    ctx.on('tools/execute', () => ({
      callId: 'ignored',
      name: 'ignored',
      content: [{ type: 'text', text: 'cached' }],
      isError: false,
    }))
    const e = call('x')
    const r = await ctx.tools.execute(e)
    expect(r).toMatchObject({ callId: e.callId, name: 'x', content: [{ type: 'text', text: 'cached' }] })
    expect(bodies).toBe(0)
    expect(posts).toBe(0)
  })

  test('TL-6 the body gets its own mutable copy of the arguments and the call context', async () => {
    const ctx = await createToolsContext()
    const seen: unknown[] = []
    ctx.tools.register(
      defineTool({
        name: 'mutates',
        description: '',
        parameters: {
          type: 'object',
          properties: { list: { type: 'array', items: { type: 'integer' } } },
          required: ['list'],
        },
        execute: (args, callCtx) => {
          args.list.push(99)
          seen.push(callCtx.callId, callCtx.cwd, callCtx.agent)
          return args.list.join(',')
        },
      }),
    )
    let frozenArgs: unknown
    ctx.on('tools/execute', (e, next) => {
      frozenArgs = e.arguments
      return next()
    })
    const e = call('mutates', { list: [1, 2] }, { cwd: '/work/x' })
    const r = await ctx.tools.execute(e)
    expect(r.content[0].text).toBe('1,2,99')
    expect(frozenArgs).toEqual({ list: [1, 2] })
    expect(seen).toEqual([e.callId, '/work/x', undefined])
  })

  test('TL-6 a timed-out body that ignores its signal is given up on after abortGraceMs and tracked by settled()', async () => {
    const ctx = await createToolsContext({ abortGraceMs: 0 })
    const { promise: finish, resolve: letFinish } = Promise.withResolvers<void>()
    let finished = false
    ctx.tools.register(
      defineTool({
        name: 'stubborn',
        description: 'ignores its signal',
        parameters: { type: 'object' },
        timeoutMs: 1,
        execute: async () => {
          await finish
          finished = true
          return 'late'
        },
      }),
    )
    const r = await ctx.tools.execute(call('stubborn'))
    expect(r.error?.code).toBe('TIMEOUT')
    expect(r.content[0].text).toBe(
      'Tool "stubborn" timed out after 1 ms.\n\nThe tool did not stop when cancelled; it may still be running.',
    )
    let settled = false
    const waiting = ctx.tools.settled().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    letFinish()
    await waiting
    expect(finished).toBe(true)
  })

  test('TL-6 a cancelled body that settles within the grace keeps its own account in the result', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(
      defineTool({
        name: 'partial',
        description: 'returns what it has when cancelled',
        parameters: { type: 'object' },
        timeoutMs: 1,
        execute: (_a, { signal }) =>
          new Promise((resolve) =>
            signal.addEventListener('abort', () =>
              resolve({ content: 'half the output', meta: { lines: 3 } }),
            ),
          ),
      }),
    )
    const r = await ctx.tools.execute(call('partial'))
    expect(r).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT' },
      content: [{ type: 'text', text: 'Tool "partial" timed out after 1 ms.\n\nhalf the output' }],
      meta: { lines: 3 },
    })
  })

  test('AL-23 an aborted body that answers for itself has its own result recorded', async () => {
    const ctx = await createToolsContext()
    let started = Promise.withResolvers<void>()
    ctx.tools.register(
      defineTool({
        name: 'polite',
        description: 'stops early when cancelled',
        parameters: { type: 'object', properties: { fail: { type: 'boolean', default: false } } },
        execute: (args, { signal }) =>
          new Promise((resolve, reject) => {
            started.resolve()
            signal.addEventListener('abort', () =>
              args.fail
                ? reject(new ToolFailure('KILLED', 'killed after 2 lines', { meta: { lines: 2 } }))
                : resolve('stopped early'),
            )
          }),
      }),
    )
    for (const fail of [false, true]) {
      const controller = new AbortController()
      started = Promise.withResolvers<void>()
      const pending = ctx.tools.execute(call('polite', { fail }, { signal: controller.signal }))
      await started.promise
      controller.abort()
      const r = await pending
      if (fail) expect(r).toMatchObject({ isError: true, error: { code: 'KILLED' }, meta: { lines: 2 } })
      else expect(r).toMatchObject({ isError: false, content: [{ type: 'text', text: 'stopped early' }] })
    }
  })

  test('AL-23 an aborted body that ignores its signal is given up on after abortGraceMs: ABORTED', async () => {
    const ctx = await createToolsContext({ abortGraceMs: 0 })
    const gate = Promise.withResolvers<void>()
    const { promise: started, resolve: start } = Promise.withResolvers<void>()
    ctx.tools.register(
      defineTool({
        name: 'deaf',
        description: '',
        parameters: { type: 'object' },
        execute: async () => {
          start()
          await gate.promise
          return 'too late'
        },
      }),
    )
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('deaf', {}, { signal: controller.signal }))
    await started
    controller.abort()
    const r = await pending
    expect(r.error?.code).toBe('ABORTED')
    expect(r.content[0].text).toBe(
      'The call to "deaf" was aborted.\n\nThe tool did not stop when cancelled; it may still be running.',
    )
    gate.resolve()
    await ctx.tools.settled()
  })

  test('TL-6 next() given something that is not an exec is a PLUGIN_ERROR naming the wrapper', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    await ctx.plugin({
      name: 'bad-wrapper',
      apply: (inner) =>
        inner.on('tools/execute', (e, next) => next({ ...e, signal: 'nope' as unknown as AbortSignal })),
    })
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toContain('plugin "bad-wrapper"')
  })
})
