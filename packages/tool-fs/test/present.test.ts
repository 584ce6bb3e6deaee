// TL-10 the fs tools' presentations (their own *-present.ts files): kind, key argument, locations,
// call-time snippet diffs and result intents, through the registry as every front end asks for them.
import { describe, expect, it } from 'vitest'
import { fsContext, run, stubAgent, tempDir, writeTree } from './support.ts'

const view = (text: string, extra: Record<string, unknown> = {}) => ({
  content: [{ type: 'text' as const, text }],
  isError: false,
  ...extra,
})

describe('presentation', () => {
  it('TL-10 calls of every fs tool match their goldens: kind, title, key argument, locations, intents', async () => {
    const ctx = await fsContext()
    expect(ctx.tools.presentCall('read', { file_path: 'a.ts' })).toEqual({
      kind: 'read',
      title: 'Read a.ts',
      keyArgument: 'a.ts',
      locations: [{ path: 'a.ts' }],
      intents: [],
    })
    expect(ctx.tools.presentCall('read', { file_path: 'a.ts', offset: 10, limit: 5 })).toMatchObject({
      title: 'Read a.ts (from line 10, 5 lines)',
      locations: [{ path: 'a.ts', line: 10 }],
    })
    expect(ctx.tools.presentCall('write', { file_path: 'n.txt', content: 'a\nb\n' })).toEqual({
      kind: 'edit',
      title: 'Write n.txt',
      keyArgument: 'n.txt',
      locations: [{ path: 'n.txt' }],
      intents: [{ kind: 'diff', path: 'n.txt', oldText: null, newText: 'a\nb\n' }],
    })
    const edit = { file_path: 'e.ts', old_string: 'x = 1', new_string: 'x = 2', replace_all: true }
    expect(ctx.tools.presentCall('edit', edit)).toEqual({
      kind: 'edit',
      title: 'Edit e.ts (every occurrence)',
      keyArgument: 'e.ts',
      locations: [{ path: 'e.ts' }],
      intents: [{ kind: 'diff', path: 'e.ts', oldText: 'x = 1', newText: 'x = 2' }],
    })
    expect(ctx.tools.presentCall('glob', { pattern: '**/*.ts', path: 'src' })).toEqual({
      kind: 'search',
      title: 'Glob **/*.ts in src',
      keyArgument: '**/*.ts',
      locations: [{ path: 'src' }],
      intents: [],
    })
    expect(ctx.tools.presentCall('grep', { pattern: 'TODO', glob: '*.ts' })).toEqual({
      kind: 'search',
      title: 'Grep TODO (*.ts)',
      keyArgument: 'TODO',
      locations: [],
      intents: [],
    })
    expect(ctx.tools.presentCall('todo_write', { todos: [{ content: 'a', status: 'pending' }] })).toEqual({
      kind: 'think',
      title: 'Update todos (1)',
      keyArgument: '1 item',
      locations: [],
      intents: [],
    })
  })

  it('TL-10 TL-15 result intents: an edit and an overwrite show their applied hunks; a create its whole content', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'f.txt': 'a\nb\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'f.txt' }, { cwd, agent })
    const editArgs = { file_path: './f.txt', old_string: 'b', new_string: 'B' }
    const edit = await run(ctx, 'edit', editArgs, { cwd, agent })
    expect(ctx.tools.presentResult('edit', editArgs, edit).intents).toEqual([
      {
        kind: 'diff',
        path: 'f.txt',
        hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a', '-b', '+B'] }],
      },
    ])
    const writeArgs = { file_path: 'f.txt', content: 'a\nB\nc\n' }
    const write = await run(ctx, 'write', writeArgs, { cwd, agent })
    expect(ctx.tools.presentResult('write', writeArgs, write).intents).toEqual([
      {
        kind: 'diff',
        path: 'f.txt',
        hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' a', ' B', '+c'] }],
      },
    ])
    // write logs no meta for a file it created: its presentation knows, so no front end has to
    const createArgs = { file_path: 'new.txt', content: 'x\n' }
    const created = await run(ctx, 'write', createArgs, { cwd, agent })
    expect(created.meta).toBeUndefined()
    expect(ctx.tools.presentResult('write', createArgs, created).intents).toEqual([
      { kind: 'created', path: 'new.txt', content: 'x\n' },
    ])
  })

  it('TL-10 result intents of read, glob, grep, todo_write and of a failure match their goldens', async () => {
    const ctx = await fsContext()
    expect(ctx.tools.presentResult('read', { file_path: 'a.ts' }, view('1\tx\n2\ty')).intents).toEqual([
      { kind: 'text', text: '1\tx\n2\ty' },
    ])
    expect(ctx.tools.presentResult('glob', { pattern: '*.ts' }, view('a.ts\nb.ts')).intents).toEqual([
      { kind: 'text', text: 'a.ts\nb.ts' },
    ])
    const todos = [
      { content: 'plan', status: 'completed' },
      { content: 'build', status: 'in_progress', priority: 'high' },
      { content: 'ship', status: 'pending' },
    ]
    expect(ctx.tools.presentResult('todo_write', { todos }, view('ok')).intents).toEqual([
      { kind: 'todos', todos },
    ])
    const message = 'f.txt has not been read in this session yet. Read it first, then change it.'
    const failed = view(message, { isError: true, error: { name: 'ToolFailure', code: 'FS_NOT_OBSERVED' } })
    const shown = ctx.tools.presentResult(
      'edit',
      { file_path: 'f.txt', old_string: 'a', new_string: 'b' },
      failed,
    )
    expect(shown).toEqual({ intents: [{ kind: 'text', text: message }], text: message, isError: true })
    // a failed write is no created file, though it has no meta either
    const notWritten = ctx.tools.presentResult('write', { file_path: 'f.txt', content: 'x' }, failed)
    expect(notWritten.intents).toEqual([{ kind: 'text', text: message }])
  })

  it('TL-10 equal inputs give deep-equal presentations', async () => {
    const ctx = await fsContext()
    const args = { file_path: 'e.ts', old_string: 'a\nb', new_string: 'a\nc' }
    expect(ctx.tools.presentCall('edit', args)).toEqual(ctx.tools.presentCall('edit', structuredClone(args)))
  })
})
