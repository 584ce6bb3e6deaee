import { describe, expect, test } from 'vitest'
import { defineTool, type RenderIntent, type ToolResultView } from '../src/index.ts'
import { echoTool } from '../src/testing/index.ts'
import { captureLogs, createToolsContext } from './support.ts'

const ok: ToolResultView = {
  content: [
    { type: 'text', text: 'line 1' },
    { type: 'text', text: 'line 2' },
  ],
  isError: false,
}
const failed: ToolResultView = {
  content: [{ type: 'text', text: 'No such file' }],
  isError: true,
  error: { name: 'ToolFailure', code: 'NOT_FOUND' },
}

const bash = defineTool({
  name: 'bash',
  description: 'runs a command',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, timeout_ms: { type: 'integer', default: 120000 } },
    required: ['command'],
  },
  execute: () => '',
  presentCall: (args): RenderIntent => ({
    kind: 'terminal',
    title: 'bash',
    command: `${args.command} (${args.timeout_ms})`,
  }),
  presentResult: (args, result): RenderIntent => ({
    kind: 'terminal',
    title: 'bash',
    command: args.command,
    output: result.content.map((b) => b.text).join('\n'),
  }),
})

describe('TL-10 render intents', () => {
  test('TL-10 a tool without presenters gets generic intents: name, compact JSON arguments, text content', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(echoTool)
    expect(ctx.tools.presentCall('echo', { text: 'a b', n: [1, 2] })).toEqual({
      kind: 'generic',
      title: 'echo',
      body: '{"text":"a b","n":[1,2]}',
    })
    expect(ctx.tools.presentResult('echo', { text: 'x' }, ok)).toEqual({
      kind: 'generic',
      title: 'echo',
      body: 'line 1\nline 2',
    })
    expect(ctx.tools.presentResult('echo', { text: 'x' }, failed)).toEqual({
      kind: 'generic',
      title: 'echo failed (NOT_FOUND)',
      body: 'No such file',
    })
    expect(ctx.tools.presentResult('echo', {}, { content: [], isError: false })).toEqual({
      kind: 'generic',
      title: 'echo',
    })
  })

  test('TL-10 an unknown tool (e.g. replaying an old log) gets generic intents; raw text is shown as is', async () => {
    const ctx = await createToolsContext()
    expect(ctx.tools.presentCall('gone', '{"a": 1}')).toEqual({
      kind: 'generic',
      title: 'gone',
      body: '{"a": 1}',
    })
    expect(ctx.tools.presentResult('gone', '{}', ok)).toEqual({
      kind: 'generic',
      title: 'gone',
      body: 'line 1\nline 2',
    })
  })

  test('TL-10 the tool presenters get validated, default-filled arguments (parsed or raw text)', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(bash)
    const expected = { kind: 'terminal', title: 'bash', command: 'ls (120000)' }
    expect(ctx.tools.presentCall('bash', { command: 'ls' })).toEqual(expected)
    expect(ctx.tools.presentCall('bash', '{"command":"ls"}')).toEqual(expected)
    expect(ctx.tools.presentResult('bash', { command: 'ls' }, ok)).toEqual({
      kind: 'terminal',
      title: 'bash',
      command: 'ls',
      output: 'line 1\nline 2',
    })
  })

  test('TL-10 equal inputs give deep-equal intents', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(bash)
    ctx.tools.register(echoTool)
    for (const name of ['bash', 'echo']) {
      expect(ctx.tools.presentCall(name, { command: 'x', text: 'y' })).toEqual(
        ctx.tools.presentCall(name, { command: 'x', text: 'y' }),
      )
      expect(ctx.tools.presentResult(name, { command: 'x' }, ok)).toEqual(
        ctx.tools.presentResult(name, { command: 'x' }, ok),
      )
    }
  })

  test('TL-10 invalid arguments or a throwing presenter fall back to the generic intent', async () => {
    const ctx = await createToolsContext()
    const logs = captureLogs(ctx)
    ctx.tools.register(bash)
    ctx.tools.register(
      defineTool({
        name: 'fragile',
        description: '',
        parameters: { type: 'object' },
        execute: () => '',
        presentCall: () => {
          throw new Error('presenter bug')
        },
      }),
    )
    expect(ctx.tools.presentCall('bash', { cmd: 'ls' })).toEqual({
      kind: 'generic',
      title: 'bash',
      body: '{"cmd":"ls"}',
    })
    expect(ctx.tools.presentCall('fragile', {})).toEqual({ kind: 'generic', title: 'fragile', body: '{}' })
    expect(
      logs.some(
        (l) => l.type === 'warn' && l.text.includes('presentCall of tool fragile failed: presenter bug'),
      ),
    ).toBe(true)
  })
})
