import { access, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from 'cordis'
import { describe, expect, test } from 'vitest'
import { defineTool } from '../src/index.ts'
import { echoTool } from '../src/testing/index.ts'
import { call, createToolsContext, tempDir } from './support.ts'

/** A tool whose body writes a real file: its side effect is observable on disk. */
const writeTool = defineTool({
  name: 'write',
  description: 'writes a file',
  parameters: {
    type: 'object',
    properties: { file_path: { type: 'string' }, content: { type: 'string' } },
    required: ['file_path', 'content'],
  },
  execute: async (args) => {
    await writeFile(args.file_path, args.content)
    return { content: `wrote ${args.file_path}`, meta: { bytes: args.content.length } }
  },
})

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

async function withPlugin(ctx: Context, name: string, apply: (inner: Context) => void) {
  await ctx.plugin({ name, apply })
}

describe('TL-8 failing listeners', () => {
  test('TL-8 a throwing pre-execute listener leaves no side effect of the body (fail closed)', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(writeTool)
    await withPlugin(ctx, 'crashy-guard', (inner) =>
      inner.on('tools/pre-execute', () => {
        throw new TypeError('guard exploded')
      }),
    )
    const file = join(await tempDir(), 'should-not-exist.txt')
    const r = await ctx.tools.execute(call('write', { file_path: file, content: 'boom' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'PLUGIN_ERROR' } })
    expect(r.content[0].text).toBe(
      'tools/pre-execute listener of plugin "crashy-guard" failed: guard exploded',
    )
    expect(await exists(file)).toBe(false)
  })

  test('TL-8 a rejecting (async) pre-execute listener fails closed too', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(writeTool)
    await withPlugin(ctx, 'async-guard', (inner) =>
      inner.on('tools/pre-execute', async () => {
        await Promise.resolve()
        throw new Error('later')
      }),
    )
    const file = join(await tempDir(), 'nope.txt')
    const r = await ctx.tools.execute(call('write', { file_path: file, content: 'x' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(await exists(file)).toBe(false)
  })

  test('TL-8 a malformed pre-execute decision is attributed to the plugin that returned it', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(writeTool)
    await withPlugin(ctx, 'typo-policy', (inner) =>
      inner.on('tools/pre-execute', () => ({ action: 'alow' }) as unknown as { action: 'allow' }),
    )
    const file = join(await tempDir(), 'nope.txt')
    const r = await ctx.tools.execute(call('write', { file_path: file, content: 'x' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toBe(
      'tools/pre-execute listener of plugin "typo-policy" failed: returned an invalid value: unknown action "alow" (expected allow, deny or ask)',
    )
    expect(await exists(file)).toBe(false)
  })

  test('TL-8 context without a source is refused (AL-1) as a PLUGIN_ERROR', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    await withPlugin(ctx, 'sourceless', (inner) =>
      inner.on(
        'tools/pre-execute',
        () => ({ action: 'allow', additionalContext: [{ content: 'x' }] }) as never,
      ),
    )
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toContain('MISSING_SOURCE')
  })

  test('TL-8 a throwing tools/execute wrapper turns the call into PLUGIN_ERROR; post-execute still sees the body ran', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(writeTool)
    await withPlugin(ctx, 'metrics', (inner) =>
      inner.on('tools/execute', async (_e, next) => {
        await next()
        throw new Error('metrics backend down')
      }),
    )
    const posted: Array<string | undefined> = []
    ctx.on('tools/post-execute', (_e, r, next) => {
      posted.push(r.error?.code)
      return next()
    })
    const file = join(await tempDir(), 'written.txt')
    const r = await ctx.tools.execute(call('write', { file_path: file, content: 'data' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toBe('tools/execute listener of plugin "metrics" failed: metrics backend down')
    expect(await readFile(file, 'utf8')).toBe('data')
    expect(posted).toEqual(['PLUGIN_ERROR'])
  })

  test('TL-8 a throwing post-execute listener turns the call into PLUGIN_ERROR and keeps meta', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(writeTool)
    await withPlugin(ctx, 'formatter', (inner) =>
      inner.on('tools/post-execute', () => {
        throw new Error('prettier missing')
      }),
    )
    const file = join(await tempDir(), 'f.txt')
    const r = await ctx.tools.execute(call('write', { file_path: file, content: 'abc' }))
    expect(r).toMatchObject({ isError: true, error: { code: 'PLUGIN_ERROR' }, meta: { bytes: 3 } })
    expect(r.content[0].text).toBe(
      'tools/post-execute listener of plugin "formatter" failed: prettier missing',
    )
  })

  test('TL-8 a throwing tools/call listener turns the call into PLUGIN_ERROR', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    await withPlugin(ctx, 'tracer', (inner) =>
      inner.on('tools/call', () => {
        throw new Error('tracer broke')
      }),
    )
    const r = await ctx.tools.execute(call('echo', { text: 'x' }))
    expect(r.error?.code).toBe('PLUGIN_ERROR')
    expect(r.content[0].text).toBe('tools/call listener of plugin "tracer" failed: tracer broke')
  })

  test('TL-8 the registry stays usable: the next call after a failing listener is removed succeeds', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    const off = ctx.on('tools/pre-execute', () => {
      throw new Error('once')
    })
    expect((await ctx.tools.execute(call('echo', { text: 'a' }))).error?.code).toBe('PLUGIN_ERROR')
    off()
    expect((await ctx.tools.execute(call('echo', { text: 'b' }))).content[0].text).toBe('b')
  })
})
