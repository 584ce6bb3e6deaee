// The fs tools in the real agent loop: only the model is scripted; the loop, the session, the
// registry, the pipeline and the tools are real, in a real temp folder.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import type { SessionEvent } from '@tack/session'
import { describe, expect, it } from 'vitest'
import { FsToolsPlugin } from '../src/index.ts'
import { tempDir, writeTree } from './support.ts'

const user = (content: string) => ({ content, source: { kind: 'user' } as const })
const results = (events: readonly SessionEvent[]) =>
  events.filter((e) => e.type === 'tool/result').map((e) => e.data as Record<string, unknown>)

describe('fs tools in the loop', () => {
  it('TL-13 TL-15 read, then two edits in a row: the file changes and each edit result carries its hunks', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\ntwo\n' })
    const t = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: {} }],
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' } }]),
        toolCalls([{ name: 'edit', args: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }]),
        text('done'),
      ],
    })
    const outcome = await t.agent.send(user('edit it'))
    expect(outcome.reason).toEqual({ kind: 'completed' })
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('ONE\nTWO\n')
    const [read, first, second] = results(t.events())
    expect(read).toMatchObject({ isError: false, content: [{ type: 'text', text: '1\tone\n2\ttwo' }] })
    expect(first.meta).toEqual({
      path: 'a.txt',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-one', '+ONE', ' two'] }],
    })
    expect(second.meta).toEqual({
      path: 'a.txt',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' ONE', '-two', '+TWO'] }],
    })
    await t.dispose()
  })

  it('TL-13 observations do not survive resume: the resumed agent must read again', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const edit = { name: 'edit', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }
    const t = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: {} }],
      script: [
        toolCalls([{ name: 'read', args: { file_path: 'a.txt' } }]),
        text('read it'),
        toolCalls([edit]),
        text('tried'),
      ],
    })
    await t.agent.send(user('read'))
    const sessionId = t.agent.session.id
    await t.dispose()
    const resumed = await t.ctx.agents.resume(sessionId)
    await resumed.agent.send(user('now edit'))
    const last = results(resumed.agent.session.events()).at(-1)
    expect(last).toMatchObject({ isError: true, error: { code: 'FS_NOT_OBSERVED' } })
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('one\n')
    await resumed.dispose()
  })

  it('TL-34 todo_write in the loop: todo/write sits between the call and its result; the last list wins', async () => {
    const cwd = await tempDir()
    const first = [{ content: 'plan', status: 'in_progress' }]
    const second = [
      { content: 'plan', status: 'completed' },
      { content: 'ship', status: 'pending', priority: 'high' },
    ]
    const t = await createTestAgent({
      cwd,
      plugins: [{ plugin: FsToolsPlugin, config: {} }],
      script: [
        toolCalls([{ name: 'todo_write', args: { todos: first } }]),
        toolCalls([{ name: 'todo_write', args: { todos: second } }]),
        text('done'),
      ],
    })
    await t.agent.send(user('plan'))
    const types = t.types().filter((type) => ['tool/call', 'todo/write', 'tool/result'].includes(type))
    expect(types).toEqual([
      'tool/call',
      'todo/write',
      'tool/result',
      'tool/call',
      'todo/write',
      'tool/result',
    ])
    const writes = t.events().filter((e) => e.type === 'todo/write')
    expect(writes.at(-1)?.data).toEqual({ todos: second })
    await t.dispose()
  })
})
