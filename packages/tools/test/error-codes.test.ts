import { describe, expect, test } from 'vitest'
import {
  defineTool,
  TOOL_ERROR_CODES,
  ToolFailure,
  type ToolExecution,
  type ToolExecutionResult,
} from '../src/index.ts'
import { createGatedTool, echoTool, slowTool, throwingTool } from '../src/testing/index.ts'
import { call, createToolsContext } from './support.ts'

const codeOf = (r: ToolExecutionResult) => r.error?.code

describe('TL-3 execute never throws; a case per shared code', () => {
  test('TL-3 the shared codes', () => {
    expect(TOOL_ERROR_CODES).toEqual([
      'UNKNOWN_TOOL',
      'INVALID_ARGS',
      'DENIED',
      'TOOL_FAILED',
      'TIMEOUT',
      'ABORTED',
      'BLOCKED',
      'PLUGIN_ERROR',
      'CODE_RUN_FAILED',
    ])
  })

  test('TL-3 UNKNOWN_TOOL lists the available names', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(slowTool)
    ctx.tools.register(echoTool)
    const r = await ctx.tools.execute(call('ghost'))
    expect(r).toMatchObject({
      callId: expect.any(String),
      name: 'ghost',
      isError: true,
      error: { code: 'UNKNOWN_TOOL' },
    })
    expect(r.content).toEqual([{ type: 'text', text: 'Unknown tool "ghost". Available tools: echo, slow.' }])
    const empty = await createToolsContext()
    expect((await empty.tools.execute(call('ghost'))).content[0].text).toBe(
      'Unknown tool "ghost". No tools are available.',
    )
  })

  test('TL-3 INVALID_ARGS', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const r = await ctx.tools.execute(call('echo', { text: 5 }))
    expect(codeOf(r)).toBe('INVALID_ARGS')
    expect(r.content[0].text).toBe('Invalid arguments for tool "echo":\n/text: expected string')
  })

  test('TL-3 DENIED', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    ctx.on('tools/pre-execute', () => ({ action: 'deny', reason: 'echo is not allowed here' }))
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'DENIED', message: 'echo is not allowed here' } })
    expect(r.content).toEqual([{ type: 'text', text: 'echo is not allowed here' }])
  })

  test('TL-3 TOOL_FAILED carries the thrown name', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(throwingTool)
    const r = await ctx.tools.execute(call('fail', { name: 'RangeError', message: 'out of range' }))
    expect(r).toMatchObject({
      isError: true,
      error: { name: 'RangeError', code: 'TOOL_FAILED', message: 'out of range' },
    })
    expect(r.content[0].text).toBe('RangeError: out of range')
  })

  test('TL-3 a thrown non-Error value is TOOL_FAILED too', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(
      defineTool({
        name: 'raw_throw',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          throw 'plain string'
        },
      }),
    )
    const r = await ctx.tools.execute(call('raw_throw'))
    expect(r.error).toEqual({ name: 'Error', code: 'TOOL_FAILED', message: 'plain string' })
  })

  test('TL-3 TIMEOUT: the tool timeout aborts the body signal', async () => {
    const ctx = await createToolsContext()
    let seen: unknown
    ctx.tools.register(
      defineTool({
        name: 'waits',
        description: 'waits for its signal',
        parameters: { type: 'object' },
        timeoutMs: 5,
        execute: (_args, { signal }) =>
          new Promise<string>((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              seen = signal.reason
              reject(signal.reason)
            }),
          ),
      }),
    )
    const r = await ctx.tools.execute(call('waits'))
    expect(r).toMatchObject({ isError: true, error: { name: 'TimeoutError', code: 'TIMEOUT' } })
    expect(r.content[0].text).toBe('Tool "waits" timed out after 5 ms.')
    expect((seen as Error).name).toBe('TimeoutError')
  })

  test('TL-3 ABORTED: the outer signal aborts a running body', async () => {
    const ctx = await createToolsContext()
    const gated = createGatedTool()
    ctx.tools.register(gated.tool)
    const controller = new AbortController()
    const pending = ctx.tools.execute(call('gated', {}, { signal: controller.signal }))
    const bodySignal = await gated.started
    controller.abort()
    const r = await pending
    expect(bodySignal.aborted).toBe(true)
    expect(r).toMatchObject({ isError: true, error: { name: 'AbortError', code: 'ABORTED' } })
  })

  test('TL-3 ABORTED: an already aborted call never starts its body', async () => {
    const ctx = await createToolsContext()
    let ran = false
    ctx.tools.register(
      defineTool({
        name: 'x',
        description: '',
        parameters: { type: 'object' },
        execute: () => {
          ran = true
          return ''
        },
      }),
    )
    const r = await ctx.tools.execute(call('x', {}, { signal: AbortSignal.abort() }))
    expect(codeOf(r)).toBe('ABORTED')
    expect(ran).toBe(false)
  })

  test('TL-3 BLOCKED', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    ctx.on('tools/post-execute', () => ({ action: 'block', feedback: 'output withheld' }))
    const r = await ctx.tools.execute(call('echo', { text: 'secret' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'BLOCKED' } })
    expect(r.content).toEqual([{ type: 'text', text: 'output withheld' }])
  })

  test('TL-3 PLUGIN_ERROR', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    await ctx.plugin({
      name: 'broken-policy',
      apply: (inner) =>
        inner.on('tools/pre-execute', () => {
          throw new Error('policy crashed')
        }),
    })
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r).toMatchObject({ isError: true, error: { name: 'SeamError', code: 'PLUGIN_ERROR' } })
    expect(r.content[0].text).toBe(
      'tools/pre-execute listener of plugin "broken-policy" failed: policy crashed',
    )
  })

  test('TL-3 a tool adds its own code by throwing ToolFailure (CODE_RUN_FAILED is how run_code reports)', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(
      defineTool({
        name: 'lookup',
        description: '',
        parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
        execute: (args) => {
          throw new ToolFailure(args.code, 'no such thing', { meta: { tried: 1 } })
        },
      }),
    )
    for (const code of ['NOT_FOUND', 'CODE_RUN_FAILED']) {
      const r = await ctx.tools.execute(call('lookup', { code }))
      expect(r).toMatchObject({
        isError: true,
        error: { name: 'ToolFailure', code, message: 'no such thing' },
        content: [{ type: 'text', text: 'no such thing' }],
        meta: { tried: 1 },
      })
    }
  })

  test('TL-3 a malformed call still resolves', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const nonsense = await ctx.tools.execute(null as unknown as ToolExecution)
    expect(nonsense.isError).toBe(true)
    expect(codeOf(nonsense)).toBe('INTERNAL_ERROR')
    const notText = await ctx.tools.execute({
      ...call('echo'),
      rawArguments: { text: 'x' } as unknown as string,
    })
    expect(codeOf(notText)).toBe('INVALID_ARGS')
  })

  test('TL-3 a body returning something that is not content is TOOL_FAILED', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(
      defineTool({
        name: 'odd',
        description: '',
        parameters: { type: 'object' },
        execute: () => 42 as unknown as string,
      }),
    )
    const r = await ctx.tools.execute(call('odd'))
    expect(r.error).toMatchObject({ name: 'TypeError', code: 'TOOL_FAILED' })
  })
})
