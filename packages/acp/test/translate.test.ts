// 50-acp.md requirements 4, 5, 7, 8, 9 and 12 as pure translations: tool kinds and locations, the
// snippet and applied-hunk diffs, stop reasons, replay order, config choices and "always" rules.
import { bootKernel } from '@tack/agent/testing'
import { Context } from '@tack/kernel'
import { imageBlock, type SessionEvent } from '@tack/session'
import { SubagentPlugin } from '@tack/subagent'
import { BashToolPlugin } from '@tack/tool-bash'
import { FsToolsPlugin } from '@tack/tool-fs'
import { WebToolsPlugin } from '@tack/tool-web'
import { defineTool, plainPresenter, ToolsPlugin } from '@tack/tools'
import { beforeAll, describe, expect, test } from 'vitest'
import { choose, configOptions, type SessionChoices } from '../src/options.ts'
import { ruleKey, SessionRules } from '../src/permission.ts'
import { hunkDiff, resultContent } from '../src/result-content.ts'
import { stopReasonOf } from '../src/stop-reason.ts'
import { replayUpdates, toolCallUpdate, toolResultUpdate, type UpdateEnv } from '../src/updates.ts'

/** A registry with tack's own tools (Code Mode on, so `run_code` resolves too): how ACP learns how calls look. */
async function builtInTools(): Promise<Context> {
  const { ctx } = await bootKernel({
    config: { tools: { mode: 'both' } },
    plugins: [
      { plugin: FsToolsPlugin, config: {} },
      { plugin: BashToolPlugin, config: {} },
      { plugin: WebToolsPlugin, config: { searchProvider: 'plugin' } },
      { plugin: SubagentPlugin, config: {} },
    ],
  })
  return ctx
}

let env: UpdateEnv
beforeAll(async () => {
  env = { cwd: '/ws', look: (await builtInTools()).tools }
})
const call = (name: string, args: Record<string, unknown>) => toolCallUpdate(env, 'c1', { name, args })
const result = (name: string, args: Record<string, unknown>, logged: object) =>
  toolResultUpdate(env, 'c1', { name, content: [], isError: false, ...logged }, args)

describe("50-acp.md requirement 8: kinds, locations, content — from each tool's declared presentation", () => {
  test('every tack tool has its kind; a tool no registry knows is other', () => {
    // 50-acp.md requirement 8 names them kind by kind
    const toolsOfKind = {
      read: [['read', { file_path: 'a' }]],
      edit: [
        ['write', { file_path: 'a', content: '' }],
        ['edit', { file_path: 'a', old_string: 'x', new_string: 'y' }],
      ],
      execute: [
        ['bash', { command: 'ls' }],
        ['run_code', { code: '1' }],
      ],
      search: [
        ['glob', { pattern: '*' }],
        ['grep', { pattern: 'x' }],
      ],
      fetch: [
        ['web_fetch', { url: 'https://example.com' }],
        ['web_search', { query: 'q' }],
      ],
      think: [
        ['subagent', { description: 'd', prompt: 'p' }],
        ['todo_write', { todos: [] }],
      ],
      other: [['mine', {}]],
    } as const
    for (const [kind, tools] of Object.entries(toolsOfKind))
      for (const [tool, args] of tools) expect(call(tool, { ...args }), tool).toMatchObject({ kind })
  })

  test("another package's tool that declares no kind shows the kind its declared access means (0011); write or undeclared is other", async () => {
    const ctx = new Context()
    await ctx.plugin(ToolsPlugin, {})
    const kinds = { python_exec: 'execute', lookup: 'read', post: 'network', stamp: 'write' } as const
    for (const [name, access] of Object.entries(kinds))
      ctx.tools.register(
        defineTool({ name, access, description: '', parameters: { type: 'object' }, execute: () => '' }),
      )
    const own = { cwd: '/ws', look: ctx.tools }
    const kindOf = (name: string) => (toolCallUpdate(own, 'c', { name, args: {} }) as { kind?: string }).kind
    expect([kindOf('python_exec'), kindOf('lookup'), kindOf('post'), kindOf('stamp')]).toEqual([
      'execute',
      'read',
      'fetch',
      'other',
    ])
  })

  test('file tools give absolute locations; read with an offset gives that line', () => {
    expect(call('read', { file_path: 'a.txt', offset: 7 })).toMatchObject({
      locations: [{ path: '/ws/a.txt', line: 7 }],
    })
    expect(call('edit', { file_path: '/abs/b.txt', old_string: 'x', new_string: 'y' })).toMatchObject({
      locations: [{ path: '/abs/b.txt' }],
    })
    expect(call('grep', { pattern: 'x', path: 'src' })).toMatchObject({ locations: [{ path: '/ws/src' }] })
    expect(call('bash', { command: 'ls' })).toMatchObject({ locations: [] })
  })

  test('the call-time snippet: edit old → new, write as a new file', () => {
    expect(call('edit', { file_path: 'a', old_string: 'x', new_string: 'y' })).toMatchObject({
      content: [{ type: 'diff', path: '/ws/a', oldText: 'x', newText: 'y' }],
    })
    expect(call('write', { file_path: 'a', content: 'new' })).toMatchObject({
      content: [{ type: 'diff', path: '/ws/a', oldText: null, newText: 'new' }],
    })
  })

  test('the applied hunk supersedes the snippet, with context lines on both sides', () => {
    const hunk = {
      oldStart: 1,
      oldLines: 3,
      newStart: 1,
      newLines: 3,
      lines: [' a', '-b', '+B', ' c', '\\ No newline at end of file'],
    }
    expect(hunkDiff('/ws/f', hunk)).toEqual({
      type: 'diff',
      path: '/ws/f',
      oldText: 'a\nb\nc',
      newText: 'a\nB\nc',
    })
    const editArgs = { file_path: 'f', old_string: 'b', new_string: 'B' }
    const edited = { content: [{ type: 'text', text: 'ok' }], meta: { path: 'f', hunks: [hunk, hunk] } }
    expect((result('edit', editArgs, edited) as { content: unknown[] }).content).toHaveLength(2)
    const created = { content: [{ type: 'text', text: 'Created' }] }
    expect(result('write', { file_path: 'n.txt', content: 'hi' }, created)).toMatchObject({
      content: [{ type: 'diff', path: '/ws/n.txt', oldText: null, newText: 'hi' }],
    })
    const failed = { content: [{ type: 'text', text: 'no match' }], isError: true }
    expect(result('edit', editArgs, failed)).toMatchObject({
      content: [{ type: 'content', content: { type: 'text', text: 'no match' } }],
    })
    // an image result (an MCP server's): its words and an ACP image block, in order (docs/decisions/0255-image-content.md)
    const image = imageBlock('image/png', 'iVBORw0KGgo=')
    if (!image) throw new Error('not an image')
    const shot = { content: [{ type: 'text' as const, text: 'the screen' }, image], isError: false }
    expect(resultContent(plainPresenter.presentResult('x', {}, shot), '/ws')).toEqual([
      { type: 'content', content: { type: 'text', text: 'the screen' } },
      { type: 'content', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
    ])
    // without a registry (or its tool gone) a result is its text, a diff intent drawn from any tool
    expect(
      resultContent(plainPresenter.presentResult('x', {}, { content: [], isError: false }), '/ws'),
    ).toEqual([])
  })
})

describe('50-acp.md requirement 5: stop reasons', () => {
  const finished = (finishReason: string) =>
    [
      { type: 'assistant/message', seq: 0, time: '', data: { turn: 1, step: 1, content: [], finishReason } },
    ] as unknown as SessionEvent[]
  test('each turn end maps to its stop reason', () => {
    expect(stopReasonOf({ kind: 'completed' }, 1, finished('stop'))).toBe('end_turn')
    expect(stopReasonOf({ kind: 'completed' }, 1, finished('content-filter'))).toBe('refusal')
    expect(stopReasonOf({ kind: 'max-tokens' }, 1, [])).toBe('max_tokens')
    expect(stopReasonOf({ kind: 'error', message: 'x', code: 'MAX_STEPS' }, 1, [])).toBe('max_turn_requests')
    for (const kind of ['aborted', 'interrupted', 'disposed'] as const)
      expect(stopReasonOf({ kind }, 1, [])).toBe('cancelled')
    expect(stopReasonOf({ kind: 'rejected', reason: 'hook' }, 1, [])).toBe('cancelled')
  })
  test('any other error is -32603 with its message only', () => {
    expect(() => stopReasonOf({ kind: 'error', message: 'provider down' }, 1, [])).toThrow(
      expect.objectContaining({ code: -32603, message: 'provider down' }),
    )
  })
})

test('50-acp.md requirement 4: replay is in log order, calls carry their final status, the last plan comes once', () => {
  let seq = 0
  const e = (type: string, data: unknown) => ({ type, seq: seq++, time: '', data }) as unknown as SessionEvent
  const said = (step: number, finishReason: string, ...content: object[]) =>
    e('assistant/message', { turn: 1, step, content, finishReason })
  const events = [
    e('user/message', { content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }),
    said(1, 'tool-calls', { type: 'reasoning', text: 'think' }, { type: 'text', text: 'ok' }),
    e('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'todo_write', arguments: '{}' }),
    e('todo/write', { todos: [{ content: 'a', status: 'pending' }] }),
    e('tool/result', {
      callId: 'c1',
      name: 'todo_write',
      content: [{ type: 'text', text: 'saved' }],
      isError: false,
    }),
    e('tool/call', { turn: 1, step: 2, callId: 'c2', name: 'bash', arguments: '{"command":"x"}' }),
    e('todo/write', { todos: [{ content: 'a', status: 'completed', priority: 'low' }] }),
  ]
  const updates = replayUpdates(events, env)
  expect(updates.map((u) => u.sessionUpdate)).toEqual([
    'user_message_chunk',
    'agent_thought_chunk',
    'agent_message_chunk',
    'tool_call',
    'tool_call_update',
    'tool_call',
    'tool_call_update',
    'plan',
  ])
  expect(updates[3]).toMatchObject({ status: 'completed', title: 'todo_write', kind: 'think' })
  expect(updates[5]).toMatchObject({ status: 'failed' })
  expect(updates[7]).toEqual({
    sessionUpdate: 'plan',
    entries: [{ content: 'a', priority: 'low', status: 'completed' }],
  })
})

test('replay shows a slash command expansion as the /name args typed (docs/decisions/0275-prompt-commands.md)', () => {
  let seq = 0
  const e = (type: string, data: unknown) => ({ type, seq: seq++, time: '', data }) as unknown as SessionEvent
  const expansion =
    '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>a.ts</command-args>\n\nReview a.ts.'
  const message = e('user/message', {
    content: [{ type: 'text', text: expansion }],
    source: { kind: 'user' },
  })
  const announced = [
    e('command/expanded', { name: 'review', kind: 'command', scope: 'project', file: '/ws/r.md' }),
    message,
  ]
  expect(replayUpdates(announced, env)).toEqual([
    { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: '/review a.ts' } },
  ])
  // Without the event the text is the person's own, shown whole.
  expect(replayUpdates([message], env)).toEqual([
    { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: expansion } },
  ])
})

describe('50-acp.md requirement 7: config options', () => {
  const choices: SessionChoices = {
    permissionMode: 'ask',
    toolsMode: 'native',
    model: 'a/b',
    effort: 'default',
  }
  const space = {
    toolsModes: ['native'] as const,
    models: (current: string) => [current, 'c/d'],
    effortRefused: (model: string) => (model === 'c/d' ? 'c/d takes no effort' : undefined),
  }
  test('permission_mode, tools_mode, model and effort are selects with their current values', () => {
    const options = configOptions(choices, space)
    expect(options.map((o) => [o.id, 'currentValue' in o ? o.currentValue : undefined])).toEqual([
      ['permission_mode', 'ask'],
      ['tools_mode', 'native'],
      ['model', 'a/b'],
      ['effort', 'default'],
    ])
    expect(options[0]).toMatchObject({ type: 'select', category: 'mode' })
    expect(options[3]).toMatchObject({ type: 'select', category: 'thought_level' })
  })
  test('85-skills-and-commands.md I3: an effort is taken where the model takes one, refused (-32602) with the reason where not', () => {
    expect(choose(choices, space, 'effort', 'high').effort).toBe('high')
    const other = { ...choices, model: 'c/d' }
    expect(() => choose(other, space, 'effort', 'high')).toThrow(
      expect.objectContaining({ code: -32602, message: expect.stringContaining('c/d takes no effort') }),
    )
    expect(choose(other, space, 'effort', 'default').effort).toBe('default')
    expect(() => choose(choices, space, 'effort', 'max')).toThrow(expect.objectContaining({ code: -32602 }))
  })
  test('a valid value is taken; an unknown option or value is -32602', () => {
    expect(choose(choices, space, 'model', 'c/d').model).toBe('c/d')
    expect(() => choose(choices, space, 'tools_mode', 'code')).toThrow(
      expect.objectContaining({ code: -32602 }),
    )
    expect(() => choose(choices, space, 'colour', 'red')).toThrow(expect.objectContaining({ code: -32602 }))
  })
})

test('50-acp.md requirement 9: always-answers become session rules; bash rules hold the exact command', () => {
  const rules = new SessionRules()
  const ls = ruleKey({ exec: { name: 'bash', arguments: { command: 'ls' } }, access: 'execute' })
  expect(rules.answer({ outcome: 'selected', optionId: 'allow-always' }, ls)).toEqual({
    action: 'allow',
    by: 'user',
    scope: 'session',
  })
  expect(rules.match(ls)).toEqual({ action: 'allow', by: 'rule', scope: 'session' })
  expect(
    rules.match(ruleKey({ exec: { name: 'bash', arguments: { command: 'rm -rf /' } }, access: 'execute' })),
  ).toBeUndefined()
  rules.answer({ outcome: 'selected', optionId: 'reject-always' }, 'write')
  expect(rules.match('write')).toMatchObject({ action: 'deny', reason: 'The user rejected this tool call.' })
  expect(rules.answer({ outcome: 'cancelled' }, 'edit')).toMatchObject({ action: 'deny' })
  expect(rules.answer({ outcome: 'selected', optionId: 'made-up' }, 'edit')).toMatchObject({
    action: 'deny',
    scope: 'once',
  })
  expect(rules.match('edit')).toBeUndefined()
})
