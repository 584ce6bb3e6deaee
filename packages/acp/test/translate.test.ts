// 50-acp.md requirements 4, 5, 7, 8, 9 and 12 as pure translations: tool kinds and locations, the
// snippet and applied-hunk diffs, stop reasons, replay order, config choices and "always" rules.
import type { SessionEvent } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { choose, configOptions, type SessionChoices } from '../src/options.ts'
import { ruleKey, SessionRules } from '../src/permission.ts'
import { hunkDiff, resultContent } from '../src/result-content.ts'
import { stopReasonOf } from '../src/stop-reason.ts'
import { callContent, toolKind, toolLocations } from '../src/tool-kinds.ts'
import { replayUpdates, toolCallUpdate } from '../src/updates.ts'

const env = { cwd: '/ws', title: (name: string) => `T:${name}` }

describe('50-acp.md requirement 8: kinds, locations, content', () => {
  test('every tack tool has its kind; unknown tools are other', () => {
    // 50-acp.md requirement 8 names them kind by kind
    const toolsOfKind = {
      read: ['read'],
      edit: ['write', 'edit'],
      execute: ['bash', 'run_code'],
      search: ['glob', 'grep'],
      fetch: ['web_fetch', 'web_search'],
      think: ['subagent', 'todo_write'],
      other: ['mine'],
    }
    for (const [kind, tools] of Object.entries(toolsOfKind))
      for (const tool of tools) expect(toolKind(tool), tool).toBe(kind)
  })

  test("another package's tool shows the kind its declared access means (0011); write or undeclared is other", () => {
    expect(toolKind('python_exec', 'execute')).toBe('execute')
    expect(toolKind('lookup', 'read')).toBe('read')
    expect(toolKind('post', 'network')).toBe('fetch')
    expect(toolKind('stamp', 'write')).toBe('other')
    expect(toolKind('bash', 'read')).toBe('execute') // tack's own tools keep their named kind
    const env = { cwd: '/ws', title: (name: string) => name, access: () => 'execute' as const }
    expect(toolCallUpdate(env, 'c1', { name: 'python_exec', args: {} })).toMatchObject({ kind: 'execute' })
  })

  test('file tools give absolute locations; read with an offset gives that line', () => {
    expect(toolLocations('read', { file_path: 'a.txt', offset: 7 }, '/ws')).toEqual([
      { path: '/ws/a.txt', line: 7 },
    ])
    expect(toolLocations('edit', { file_path: '/abs/b.txt' }, '/ws')).toEqual([{ path: '/abs/b.txt' }])
    expect(toolLocations('grep', { pattern: 'x', path: 'src' }, '/ws')).toEqual([{ path: '/ws/src' }])
    expect(toolLocations('bash', { command: 'ls' }, '/ws')).toEqual([])
  })

  test('the call-time snippet: edit old → new, write as a new file', () => {
    expect(callContent('edit', { file_path: 'a', old_string: 'x', new_string: 'y' }, '/ws')).toEqual([
      { type: 'diff', path: '/ws/a', oldText: 'x', newText: 'y' },
    ])
    expect(callContent('write', { file_path: 'a', content: 'new' }, '/ws')).toEqual([
      { type: 'diff', path: '/ws/a', oldText: null, newText: 'new' },
    ])
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
    const result = {
      name: 'edit',
      content: [{ type: 'text' as const, text: 'ok' }],
      isError: false,
      meta: { path: 'f', hunks: [hunk, hunk] },
    }
    expect(resultContent(result, {}, '/ws')).toHaveLength(2)
    const created = { name: 'write', content: [{ type: 'text' as const, text: 'Created' }], isError: false }
    expect(resultContent(created, { file_path: 'n.txt', content: 'hi' }, '/ws')).toEqual([
      { type: 'diff', path: '/ws/n.txt', oldText: null, newText: 'hi' },
    ])
    const failed = { name: 'edit', content: [{ type: 'text' as const, text: 'no match' }], isError: true }
    expect(resultContent(failed, {}, '/ws')).toEqual([
      { type: 'content', content: { type: 'text', text: 'no match' } },
    ])
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
  expect(updates[3]).toMatchObject({ status: 'completed', title: 'T:todo_write', kind: 'think' })
  expect(updates[5]).toMatchObject({ status: 'failed' })
  expect(updates[7]).toEqual({
    sessionUpdate: 'plan',
    entries: [{ content: 'a', priority: 'low', status: 'completed' }],
  })
})

describe('50-acp.md requirement 7: config options', () => {
  const choices: SessionChoices = { permissionMode: 'ask', toolsMode: 'native', model: 'a/b' }
  const space = { toolsModes: ['native'] as const, models: (current: string) => [current, 'c/d'] }
  test('permission_mode, tools_mode and model are selects with their current values', () => {
    const options = configOptions(choices, space)
    expect(options.map((o) => [o.id, 'currentValue' in o ? o.currentValue : undefined])).toEqual([
      ['permission_mode', 'ask'],
      ['tools_mode', 'native'],
      ['model', 'a/b'],
    ])
    expect(options[0]).toMatchObject({ type: 'select', category: 'mode' })
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
