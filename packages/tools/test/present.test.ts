// TL-10 presentation (docs/decisions/0200-tools-own-their-presentation.md): a tool declares how it looks;
// `ctx.tools` resolves a logged call or result into what front ends draw, with defaults for every part
// a tool leaves out and for tools that are gone.
import { describe, expect, test } from 'vitest'
import {
  defineTool,
  plainPresenter,
  ToolRegistrationError,
  type ToolAccess,
  type ToolResultView,
} from '../src/index.ts'
import { echoTool } from '../src/testing/index.ts'
import { captureLogs, createToolsContext } from './support.ts'

const ok: ToolResultView = {
  content: [
    { type: 'text', text: 'line 1' },
    { type: 'text', text: 'line 2' },
  ],
  isError: false,
}

const shell = defineTool({
  name: 'shell',
  description: 'runs a command',
  access: 'execute',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, timeout_ms: { type: 'integer', default: 120000 } },
    required: ['command'],
  },
  execute: () => '',
  present: {
    key: ['command'],
    title: (args) => `shell (${args.timeout_ms} ms)`,
    call: (args) => [{ kind: 'command', command: args.command }],
    result: (_args, result) => [
      { kind: 'terminal', output: result.content.map((b) => b.text).join('\n'), exitCode: 0 },
    ],
  },
})

const toolWith = (name: string, access: ToolAccess | undefined) =>
  defineTool({
    name,
    description: '',
    ...(access && { access }),
    parameters: {
      type: 'object',
      properties: { n: { type: 'integer' }, file: { type: 'string' }, note: { type: 'string' } },
    },
    paths: (args) => (args.file ? [args.file] : []),
    execute: () => '',
  })

describe('TL-10 presentation defaults', () => {
  test('a tool that declares nothing: kind from its access, first string argument as key, its paths as locations, its text as result', async () => {
    const ctx = await createToolsContext()
    const kinds: Record<string, [ToolAccess | undefined, string]> = {
      t_read: ['read', 'read'],
      t_exec: ['execute', 'execute'],
      t_net: ['network', 'fetch'],
      t_session: ['session', 'think'],
      t_write: ['write', 'other'],
      t_none: [undefined, 'other'],
    }
    for (const [name, [access]] of Object.entries(kinds)) ctx.tools.register(toolWith(name, access))
    for (const [name, [, kind]] of Object.entries(kinds))
      expect(ctx.tools.presentCall(name, { n: 3, file: 'src/a.ts', note: 'x' }), name).toEqual({
        kind,
        title: name,
        keyArgument: 'src/a.ts',
        locations: [{ path: 'src/a.ts' }],
        intents: [],
      })
    expect(ctx.tools.presentResult('t_read', {}, ok)).toEqual({
      intents: [{ kind: 'text', text: 'line 1\nline 2' }],
      text: 'line 1\nline 2',
      isError: false,
    })
    expect(ctx.tools.presentResult('t_read', {}, { content: [], isError: false }).intents).toEqual([])
  })

  test('a tool that is gone (replaying an old log) gets the defaults, from raw text too', async () => {
    const ctx = await createToolsContext()
    expect(ctx.tools.presentCall('gone', '{"a": 1, "b": "why"}')).toEqual({
      kind: 'other',
      title: 'gone',
      keyArgument: 'why',
      locations: [],
      intents: [],
    })
    expect(ctx.tools.presentResult('gone', '{}', ok).intents).toEqual([
      { kind: 'text', text: 'line 1\nline 2' },
    ])
    expect(plainPresenter.presentCall('gone', '{"b": "why"}')).toEqual(
      ctx.tools.presentCall('gone', '{"b": "why"}'),
    )
  })
})

describe('TL-10 declared presentation', () => {
  test('the presenters get validated, default-filled arguments (parsed or raw text); undeclared parts default', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(shell)
    const expected = {
      kind: 'execute',
      title: 'shell (120000 ms)',
      keyArgument: 'ls -l',
      locations: [],
      intents: [{ kind: 'command', command: 'ls -l' }],
    }
    expect(ctx.tools.presentCall('shell', { command: 'ls -l' })).toEqual(expected)
    expect(ctx.tools.presentCall('shell', '{"command":"ls -l"}')).toEqual(expected)
    expect(ctx.tools.presentResult('shell', { command: 'ls' }, ok)).toEqual({
      intents: [{ kind: 'terminal', output: 'line 1\nline 2', exitCode: 0 }],
      text: 'line 1\nline 2',
      isError: false,
    })
  })

  test('equal inputs give deep-equal presentations', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(shell)
    ctx.tools.register(echoTool)
    for (const name of ['shell', 'echo']) {
      expect(ctx.tools.presentCall(name, { command: 'x', text: 'y' })).toEqual(
        ctx.tools.presentCall(name, { command: 'x', text: 'y' }),
      )
      expect(ctx.tools.presentResult(name, { command: 'x' }, ok)).toEqual(
        ctx.tools.presentResult(name, { command: 'x' }, ok),
      )
    }
  })

  test('invalid arguments keep the declared kind; the rest defaults', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(shell)
    expect(ctx.tools.presentCall('shell', { cmd: 'ls' })).toEqual({
      kind: 'execute',
      title: 'shell',
      keyArgument: 'ls',
      locations: [],
      intents: [],
    })
    expect(ctx.tools.presentResult('shell', { cmd: 'ls' }, ok).intents).toEqual([
      { kind: 'text', text: 'line 1\nline 2' },
    ])
  })

  test('a presenter that throws or answers malformed intents falls back to the defaults and warns', async () => {
    const ctx = await createToolsContext()
    const logs = captureLogs(ctx)
    ctx.tools.register(
      defineTool({
        name: 'fragile',
        description: '',
        access: 'read',
        parameters: { type: 'object', properties: { p: { type: 'string' } } },
        execute: () => '',
        present: {
          kind: 'search',
          title: () => {
            throw new Error('presenter bug')
          },
          result: () => [{ kind: 'diff', path: 7 }] as never,
        },
      }),
    )
    expect(ctx.tools.presentCall('fragile', { p: 'x' })).toEqual({
      kind: 'search',
      title: 'fragile',
      keyArgument: 'x',
      locations: [],
      intents: [],
    })
    expect(ctx.tools.presentResult('fragile', {}, ok).intents).toEqual([
      { kind: 'text', text: 'line 1\nline 2' },
    ])
    const warnings = logs.filter((l) => l.type === 'warn').map((l) => l.text)
    expect(warnings.some((w) => w.includes('fragile') && w.includes('presenter bug'))).toBe(true)
    expect(
      warnings.some((w) => w.includes('fragile') && w.includes('result intents must be a list of intents')),
    ).toBe(true)
  })

  test('defineTool rejects a kind outside the vocabulary and a presenter that is no function', () => {
    const base = { name: 'bad', description: '', parameters: { type: 'object' as const }, execute: () => '' }
    expect(() => defineTool({ ...base, present: { kind: 'delete' as never } })).toThrow(ToolRegistrationError)
    expect(() => defineTool({ ...base, present: { kind: 'delete' as never } })).toThrow(
      /present\.kind must be one of read, edit/,
    )
    expect(() => defineTool({ ...base, present: { call: 'x' as never } })).toThrow(
      /present\.call must be a function/,
    )
    expect(() => defineTool({ ...base, present: { key: 3 as never } })).toThrow(/present\.key must be/)
  })
})
