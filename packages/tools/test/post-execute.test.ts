import { describe, expect, test } from 'vitest'
import { defineTool, type ToolExecutionResult } from '../src/index.ts'
import { echoTool, throwingTool } from '../src/testing/index.ts'
import { call, createToolsContext } from './support.ts'

const withMeta = defineTool({
  name: 'edit',
  description: 'pretends to edit',
  parameters: { type: 'object' },
  execute: () => ({ content: 'edited 1 file', meta: { path: 'a.txt', hunks: [] } }),
})

describe('TL-7 tools/post-execute', () => {
  test('TL-7 a thrown tool reaches the listener with isError: true', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(throwingTool)
    const seen: ToolExecutionResult[] = []
    ctx.on('tools/post-execute', (_e, result, next) => {
      seen.push(result)
      return next()
    })
    await ctx.tools.execute(call('fail'))
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({ isError: true, error: { code: 'TOOL_FAILED' } })
    expect(Object.isFrozen(seen[0])).toBe(true)
  })

  test('TL-7 a timed-out body reaches the listener too', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(
      defineTool({
        name: 'waits',
        description: '',
        parameters: { type: 'object' },
        timeoutMs: 1,
        execute: (_a, { signal }) =>
          new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      }),
    )
    const codes: Array<string | undefined> = []
    ctx.on('tools/post-execute', (_e, result, next) => {
      codes.push(result.error?.code)
      return next()
    })
    await ctx.tools.execute(call('waits'))
    expect(codes).toEqual(['TIMEOUT'])
  })

  test('TL-7 block replaces the content, sets isError and BLOCKED, and keeps meta', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(withMeta)
    ctx.on('tools/post-execute', () => ({
      action: 'block',
      feedback: 'Run the formatter before editing again.',
    }))
    const r = await ctx.tools.execute(call('edit'))
    expect(r).toMatchObject({
      isError: true,
      error: { name: 'BlockedError', code: 'BLOCKED', message: 'Run the formatter before editing again.' },
      content: [{ type: 'text', text: 'Run the formatter before editing again.' }],
      meta: { path: 'a.txt', hunks: [] },
    })
  })

  test('TL-7 accept may replace the content', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    ctx.on('tools/post-execute', (_e, result) => ({
      action: 'accept',
      content: `${result.content[0].text} (checked)`,
    }))
    const r = await ctx.tools.execute(call('echo', { text: 'hi' }))
    expect(r).toMatchObject({ isError: false, content: [{ type: 'text', text: 'hi (checked)' }] })
  })

  test('TL-7 additionalContext from pre and post is collected, in that order, for the loop', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const pre = { content: 'from pre', source: { kind: 'plugin', name: 'a' } } as const
    const post = {
      content: [{ type: 'text', text: 'from post' }],
      source: { kind: 'plugin', name: 'b' },
    } as const
    ctx.on('tools/pre-execute', () => ({ action: 'allow', additionalContext: [pre] }))
    ctx.on('tools/post-execute', () => ({ action: 'accept', additionalContext: [post] }))
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r.additionalContext).toEqual([pre, post])
    expect(r.content).toEqual([{ type: 'text', text: 'x' }])
  })

  test('TL-7 block keeps the context of its decision', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const note = { content: 'why', source: { kind: 'plugin', name: 'p' } } as const
    ctx.on('tools/post-execute', () => ({ action: 'block', feedback: 'no', additionalContext: [note] }))
    expect((await ctx.tools.execute(call('echo', { text: 'x' }))).additionalContext).toEqual([note])
  })

  test('TL-7 a result without context carries no additionalContext key', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect('additionalContext' in r).toBe(false)
    expect(Object.isFrozen(r)).toBe(true)
  })
})
