// The view model from a real session log: the real loop, registry, pipeline and fs tools in a temp
// folder; only the model is scripted. What the screen will show is read from SessionView.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, type ScriptEntry, text, toolCalls } from '@tack/agent/testing'
import { imageBlock, type SessionEvent } from '@tack/session'
import { FsToolsPlugin } from '@tack/tool-fs'
import { describe, expect, test } from 'vitest'
import { type AssistantEntry, SessionView, type ToolEntry } from '../src/view-model.ts'

const pricing = {
  costOf: (_model: string, usage: { inputTokens: number; outputTokens: number }) =>
    (usage.inputTokens + usage.outputTokens) / 1_000_000,
  contextWindowOf: () => 10_000,
}
const user = (content: string) => ({ content, source: { kind: 'user' } as const })

async function run(script: readonly ScriptEntry[], files: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), 'tack-tui-vm-'))
  for (const [name, content] of Object.entries(files)) await writeFile(join(cwd, name), content)
  const t = await createTestAgent({ cwd, plugins: [{ plugin: FsToolsPlugin, config: {} }], script })
  const view = new SessionView(
    { model: t.agent.model, permissionMode: 'ask', sessionId: t.agent.session.id },
    pricing,
    t.ctx.tools,
  )
  t.agent.session.subscribe((e) => view.apply(e))
  return { t, view }
}

describe('SessionView from a real log', () => {
  test('streamed text and reasoning, a read, an edit with its applied hunk, usage and cost', async () => {
    const { t, view } = await run(
      [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }], {
          reasoning: 'look first',
          usage: { inputTokens: 1000, outputTokens: 50 },
        }),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }], {
          usage: { inputTokens: 2000, outputTokens: 30 },
        }),
        text('**Done.**', { usage: { inputTokens: 2500, outputTokens: 20 } }),
      ],
      { 'a.txt': 'one\ntwo\nthree\n' },
    )
    await t.agent.send(user('change two'))
    const kinds = view.entries.map((e) => e.kind)
    expect(kinds).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant'])
    const [read, edit] = view.entries.filter((e): e is ToolEntry => e.kind === 'tool')
    expect(read).toMatchObject({ name: 'read', keyArg: 'a.txt', status: 'done' })
    expect(read.diff).toBeUndefined()
    expect(edit).toMatchObject({ name: 'edit', keyArg: 'a.txt', status: 'done' })
    expect(edit.diff).toEqual({
      path: 'a.txt',
      hunks: [
        { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+TWO', ' three'] },
      ],
    })
    const answers = view.entries.filter((e): e is AssistantEntry => e.kind === 'assistant')
    expect(answers[0]).toMatchObject({ reasoning: 'look first', streaming: false })
    expect(answers[1]).toMatchObject({ text: '**Done.**', streaming: false })
    expect(view.status).toMatchObject({
      inputTokens: 5500,
      outputTokens: 100,
      contextTokens: 2520,
      running: false,
    })
    expect(view.status.cost).toBeCloseTo(5600 / 1_000_000)
    await t.dispose()
  })

  test('a failed call shows its error; a created file is a new-file diff; todos come from todo/write', async () => {
    const { t, view } = await run([
      toolCalls([
        { name: 'read', args: { file_path: 'missing.txt' } },
        { name: 'write', args: { file_path: 'new.txt', content: 'hello\n' } },
        {
          name: 'todo_write',
          args: {
            todos: [
              { content: 'write it', status: 'completed' },
              { content: 'test it', status: 'in_progress' },
            ],
          },
        },
      ]),
      text('ok'),
    ])
    await t.agent.send(user('go'))
    const cards = view.entries.filter((e): e is ToolEntry => e.kind === 'tool')
    expect(cards.map((c) => [c.name, c.status])).toEqual([
      ['read', 'failed'],
      ['write', 'done'],
      ['todo_write', 'done'],
    ])
    expect(cards[0].output).toMatch(/missing\.txt/)
    expect(cards[1].diff).toEqual({ path: 'new.txt', created: 'hello\n' })
    expect(cards[2].keyArg).toBe('2 items')
    expect(view.todos).toEqual([
      { content: 'write it', status: 'completed' },
      { content: 'test it', status: 'in_progress' },
    ])
    await t.dispose()
  })

  test('markRunning moves a pending card to running once, from the tools/execute seam', () => {
    const view = new SessionView({ model: 'm/x', permissionMode: 'ask', sessionId: 's' }, pricing)
    const call = { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{"command":"sleep 1"}' }
    view.apply({ type: 'tool/call', seq: 0, time: new Date(1_000).toISOString(), data: call })
    const card = view.entries[0] as ToolEntry
    expect(card).toMatchObject({ status: 'pending', keyArg: 'sleep 1' })
    view.markRunning('c1', 2_000)
    view.markRunning('c1', 9_000)
    expect(card).toMatchObject({ status: 'running', startedAt: 2_000 })
    view.markRunning('unknown')
  })

  test('a result with an image names it on the card: [image image/png 12 KB] (docs/decisions/0255-image-content.md)', () => {
    const view = new SessionView({ model: 'm/x', permissionMode: 'ask', sessionId: 's' }, pricing)
    const at = new Date(1_000).toISOString()
    const call = { turn: 1, step: 1, callId: 'c1', name: 'mcp__shots__take', arguments: '{}' }
    view.apply({ type: 'tool/call', seq: 0, time: at, data: call })
    const png = Buffer.alloc(12 * 1024, 7)
    png.writeUInt32BE(0x89504e47, 0)
    png.writeUInt32BE(0x0d0a1a0a, 4)
    const image = imageBlock('image/png', png.toString('base64'))
    if (!image) throw new Error('not an image')
    const content = [{ type: 'text' as const, text: 'the screen' }, image]
    view.apply({
      type: 'tool/result',
      seq: 1,
      time: at,
      data: { callId: 'c1', name: call.name, content, isError: false },
    })
    expect(view.entries[0]).toMatchObject({ status: 'done', output: '[image image/png 12 KB]' })
  })

  test('mode switches in the log reach the status line: permission/mode and agent/model', () => {
    const view = new SessionView({ model: 'm/x', permissionMode: 'ask', sessionId: 's' }, pricing)
    const at = new Date(0).toISOString()
    view.apply({ type: 'permission/mode' as 'turn/start', seq: 0, time: at, data: { mode: 'yolo' } as never })
    view.apply({
      type: 'agent/model' as 'turn/start',
      seq: 1,
      time: at,
      data: { model: 'openai/gpt-5' } as never,
    })
    expect(view.status).toMatchObject({
      permissionMode: 'yolo',
      model: 'openai/gpt-5',
      contextWindow: 10_000,
    })
  })

  test('Esc (cancel) ends the turn with an "interrupted" notice', async () => {
    const { t, view } = await run([{ kind: 'hang' }])
    const outcome = t.agent.send(user('wait'))
    await new Promise((r) => setTimeout(r, 50))
    expect(view.status.running).toBe(true)
    t.agent.cancel('interrupted')
    await outcome
    expect(view.status.running).toBe(false)
    expect(view.entries.at(-1)).toEqual({ kind: 'notice', text: 'interrupted', tone: 'warning' })
    await t.dispose()
  })

  test('typed steering is queued until the loop drains it, then shown as a steering prompt', async () => {
    const { t, view } = await run([
      toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
      text('steered'),
    ])
    view.queue('also this')
    expect(view.queued).toEqual(['also this'])
    t.agent.session.subscribe((e) => {
      if (e.type === 'tool/call') t.agent.steer(user('also this'))
    })
    await t.agent.send(user('first'))
    expect(view.queued).toEqual([])
    expect(view.entries.find((e) => e.kind === 'user' && e.steering)).toEqual({
      kind: 'user',
      text: 'also this',
      steering: true,
    })
    await t.dispose()
  })
})

describe('a slash command expansion in the transcript (docs/decisions/0275-prompt-commands.md)', () => {
  const expansion =
    '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts</command-args>\n\nReview src/a.ts for bugs.'
  const events = [
    {
      type: 'command/expanded',
      data: { name: 'review', kind: 'command', scope: 'project', file: '/ws/r.md' },
    },
    {
      type: 'user/message',
      data: { content: [{ type: 'text', text: expansion }], source: { kind: 'user' } },
    },
  ].map((e, seq) => ({ ...e, seq, time: '2026-01-01T00:00:00.000Z' }) as unknown as SessionEvent)
  const view = () => new SessionView({ model: 'm/m', permissionMode: 'ask', sessionId: 's' }, pricing)

  test('shows /name args once, live after the echo and on replay alike, not the body', () => {
    const live = view()
    live.echo('/review src/a.ts')
    for (const e of events) live.apply(e)
    expect(live.entries).toEqual([{ kind: 'user', text: '/review src/a.ts', steering: false }])
    const replayed = view()
    for (const e of events) replayed.apply(e)
    expect(replayed.entries).toEqual([{ kind: 'user', text: '/review src/a.ts', steering: false }])
  })

  test('the same text without the command/expanded event before it is shown whole', () => {
    const v = view()
    v.apply(events[1] as SessionEvent)
    expect(v.entries).toEqual([{ kind: 'user', text: expansion, steering: false }])
  })
})
