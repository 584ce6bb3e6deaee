import { describe, expect, it } from 'vitest'
import { fsContext, run, stubAgent, tempDir, writeTree } from './support.ts'

const view = (text: string, extra: Record<string, unknown> = {}) => ({
  content: [{ type: 'text' as const, text }],
  isError: false,
  ...extra,
})

describe('render intents', () => {
  it('TL-10 call intents of every fs tool match their goldens', async () => {
    const ctx = await fsContext()
    expect(ctx.tools.presentCall('read', { file_path: 'a.ts' })).toEqual({
      kind: 'generic',
      title: 'Read a.ts',
    })
    expect(ctx.tools.presentCall('read', { file_path: 'a.ts', offset: 10, limit: 5 })).toEqual({
      kind: 'generic',
      title: 'Read a.ts (from line 10, 5 lines)',
    })
    expect(ctx.tools.presentCall('write', { file_path: 'n.txt', content: 'a\nb\n' })).toEqual({
      kind: 'diff',
      title: 'Write n.txt',
      path: 'n.txt',
      hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] }],
    })
    expect(
      ctx.tools.presentCall('edit', {
        file_path: 'e.ts',
        old_string: 'x = 1',
        new_string: 'x = 2',
        replace_all: true,
      }),
    ).toEqual({
      kind: 'diff',
      title: 'Edit e.ts (every occurrence)',
      path: 'e.ts',
      hunks: [
        {
          oldStart: 1,
          oldLines: 1,
          newStart: 1,
          newLines: 1,
          lines: ['-x = 1', '\\ No newline at end of file', '+x = 2', '\\ No newline at end of file'],
        },
      ],
    })
    expect(ctx.tools.presentCall('glob', { pattern: '**/*.ts', path: 'src' })).toEqual({
      kind: 'generic',
      title: 'Glob **/*.ts in src',
    })
    expect(ctx.tools.presentCall('grep', { pattern: 'TODO', glob: '*.ts' })).toEqual({
      kind: 'generic',
      title: 'Grep TODO (*.ts)',
    })
    expect(ctx.tools.presentCall('todo_write', { todos: [{ content: 'a', status: 'pending' }] })).toEqual({
      kind: 'generic',
      title: 'Update todos (1)',
    })
  })

  it('TL-10 TL-15 result intents: an edit and an overwrite render their meta as a diff; a create its content', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'f.txt': 'a\nb\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'f.txt' }, { cwd, agent })
    const editArgs = { file_path: './f.txt', old_string: 'b', new_string: 'B' }
    const edit = await run(ctx, 'edit', editArgs, { cwd, agent })
    expect(ctx.tools.presentResult('edit', editArgs, edit)).toEqual({
      kind: 'diff',
      title: 'Edited f.txt',
      path: 'f.txt',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a', '-b', '+B'] }],
    })
    const writeArgs = { file_path: 'f.txt', content: 'a\nB\nc\n' }
    const write = await run(ctx, 'write', writeArgs, { cwd, agent })
    expect(ctx.tools.presentResult('write', writeArgs, write)).toEqual({
      kind: 'diff',
      title: 'Wrote f.txt',
      path: 'f.txt',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' a', ' B', '+c'] }],
    })
    const createArgs = { file_path: 'new.txt', content: 'x\n' }
    const created = await run(ctx, 'write', createArgs, { cwd, agent })
    expect(ctx.tools.presentResult('write', createArgs, created)).toEqual({
      kind: 'diff',
      title: 'Created new.txt',
      path: 'new.txt',
      hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 1, lines: ['+x'] }],
    })
  })

  it('TL-10 result intents of read, glob, grep, todo_write and of a failure match their goldens', async () => {
    const ctx = await fsContext()
    expect(ctx.tools.presentResult('read', { file_path: 'a.ts' }, view('1\tx\n2\ty'))).toEqual({
      kind: 'generic',
      title: 'Read a.ts (2 lines)',
    })
    expect(ctx.tools.presentResult('glob', { pattern: '*.ts' }, view('a.ts\nb.ts'))).toEqual({
      kind: 'generic',
      title: 'Glob *.ts (2 files)',
      body: 'a.ts\nb.ts',
    })
    expect(ctx.tools.presentResult('grep', { pattern: 'x', output: 'content' }, view('a.ts:1:x'))).toEqual({
      kind: 'generic',
      title: 'Grep x (1 matching line)',
      body: 'a.ts:1:x',
    })
    expect(ctx.tools.presentResult('grep', { pattern: 'x' }, view('No matches found.'))).toEqual({
      kind: 'generic',
      title: 'Grep x (0 files)',
      body: 'No matches found.',
    })
    const todos = [
      { content: 'plan', status: 'completed' },
      { content: 'build', status: 'in_progress', priority: 'high' },
      { content: 'ship', status: 'pending' },
    ]
    expect(ctx.tools.presentResult('todo_write', { todos }, view('ok'))).toEqual({
      kind: 'generic',
      title: 'Todos',
      body: '[x] plan\n[~] build (high)\n[ ] ship',
    })
    const failed = view('f.txt has not been read in this session yet. Read it first, then change it.', {
      isError: true,
      error: { name: 'ToolFailure', code: 'FS_NOT_OBSERVED' },
    })
    expect(
      ctx.tools.presentResult('edit', { file_path: 'f.txt', old_string: 'a', new_string: 'b' }, failed),
    ).toEqual({
      kind: 'generic',
      title: 'Edit f.txt failed (FS_NOT_OBSERVED)',
      body: 'f.txt has not been read in this session yet. Read it first, then change it.',
    })
  })

  it('TL-10 equal inputs give deep-equal intents', async () => {
    const ctx = await fsContext()
    const args = { file_path: 'e.ts', old_string: 'a\nb', new_string: 'a\nc' }
    expect(ctx.tools.presentCall('edit', args)).toEqual(ctx.tools.presentCall('edit', structuredClone(args)))
  })
})
