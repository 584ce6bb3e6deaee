import { chmod, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsContext, run, stubAgent, tempDir, textOf, writeTree } from './support.ts'

describe('read before edit', () => {
  it('TL-13 edit of an unread file fails FS_NOT_OBSERVED and leaves it unchanged', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    const result = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'one', new_string: 'two' },
      { cwd, agent },
    )
    expect(result.error?.code).toBe('FS_NOT_OBSERVED')
    expect(result.meta).toBeUndefined()
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('one\n')
  })

  it('TL-13 an external change after the read fails FS_STALE; reading again allows the edit', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    await writeFile(join(cwd, 'a.txt'), 'one!\n')
    const edit = { file_path: 'a.txt', old_string: 'one', new_string: 'two' }
    const stale = await run(ctx, 'edit', edit, { cwd, agent })
    expect(stale.error?.code).toBe('FS_STALE')
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    expect((await run(ctx, 'edit', edit, { cwd, agent })).isError).toBe(false)
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('two!\n')
  })

  it('TL-13 two edits in a row succeed (an edit is an observation of its own result)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'alpha beta\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    const first = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'alpha', new_string: 'A' },
      { cwd, agent },
    )
    const second = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'beta', new_string: 'B' },
      { cwd, agent },
    )
    expect([first.isError, second.isError]).toEqual([false, false])
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('A B\n')
  })

  it('TL-13 a touched but unchanged file is not stale (content is compared)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'same\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    await writeFile(join(cwd, 'a.txt'), 'same\n')
    const edit = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'same', new_string: 'new' },
      { cwd, agent },
    )
    expect(edit.isError).toBe(false)
  })

  it('TL-13 a streamed partial read observes size and mtime: an external rewrite makes it stale', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': `${'line\n'.repeat(400)}` })
    const ctx = await fsContext({ readStreamMinSize: 1024 })
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt', limit: 2 }, { cwd, agent })
    const edit = { file_path: 'a.txt', old_string: 'line', new_string: 'x', replace_all: true }
    // Same size, different content: only the (explicitly moved) mtime tells.
    await writeFile(join(cwd, 'a.txt'), `${'LINE\n'.repeat(400)}`)
    await utimes(join(cwd, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1))
    expect((await run(ctx, 'edit', edit, { cwd, agent })).error?.code).toBe('FS_STALE')
  })

  it('TL-13 observations belong to one agent instance: another (or a resumed) agent must read first', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'one\n' })
    const ctx = await fsContext()
    const reader = stubAgent(cwd)
    const resumed = stubAgent(cwd, reader.session)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent: reader })
    const edit = { file_path: 'a.txt', old_string: 'one', new_string: 'two' }
    expect((await run(ctx, 'edit', edit, { cwd, agent: resumed })).error?.code).toBe('FS_NOT_OBSERVED')
    expect((await run(ctx, 'edit', edit, { cwd, agent: reader })).isError).toBe(false)
  })

  it('TL-13 write: a create needs no read; overwriting an unread file fails FS_NOT_OBSERVED; after a read it works', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'old.txt': 'old\n' })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    const created = await run(ctx, 'write', { file_path: 'deep/new.txt', content: 'hi\n' }, { cwd, agent })
    expect(textOf(created)).toBe('Created deep/new.txt (1 line).')
    expect(await readFile(join(cwd, 'deep/new.txt'), 'utf8')).toBe('hi\n')
    const unread = await run(ctx, 'write', { file_path: 'old.txt', content: 'new\n' }, { cwd, agent })
    expect(unread.error?.code).toBe('FS_NOT_OBSERVED')
    await run(ctx, 'read', { file_path: 'old.txt' }, { cwd, agent })
    const overwrite = await run(ctx, 'write', { file_path: 'old.txt', content: 'new\n' }, { cwd, agent })
    expect(textOf(overwrite)).toBe('Wrote old.txt (1 line).')
    // A written file counts as observed: it can be edited at once.
    const edit = await run(
      ctx,
      'edit',
      { file_path: 'deep/new.txt', old_string: 'hi', new_string: 'ho' },
      { cwd, agent },
    )
    expect(edit.isError).toBe(false)
  })
})

describe('write and edit', () => {
  const readAndEdit = async (content: string, edit: Record<string, unknown>) => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'f.txt': content })
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'f.txt' }, { cwd, agent })
    const result = await run(ctx, 'edit', { file_path: 'f.txt', ...edit }, { cwd, agent })
    return { result, after: await readFile(join(cwd, 'f.txt'), 'utf8') }
  }

  it('TL-14 NO_MATCH when old_string is absent', async () => {
    const { result, after } = await readAndEdit('abc\n', { old_string: 'zzz', new_string: 'y' })
    expect(result.error?.code).toBe('NO_MATCH')
    expect(after).toBe('abc\n')
  })

  it('TL-14 AMBIGUOUS_MATCH names the count; replace_all replaces every occurrence', async () => {
    const ambiguous = await readAndEdit('x1 x2 x3\n', { old_string: 'x', new_string: 'y' })
    expect(ambiguous.result.error?.code).toBe('AMBIGUOUS_MATCH')
    expect(textOf(ambiguous.result)).toContain('occurs 3 times')
    expect(ambiguous.after).toBe('x1 x2 x3\n')
    const all = await readAndEdit('x1 x2 x3\n', { old_string: 'x', new_string: 'y', replace_all: true })
    expect(textOf(all.result)).toBe('Edited f.txt: replaced 3 occurrences.')
    expect(all.after).toBe('y1 y2 y3\n')
  })

  it('TL-14 NO_CHANGE when old_string equals new_string', async () => {
    const { result } = await readAndEdit('abc\n', { old_string: 'b', new_string: 'b' })
    expect(result.error?.code).toBe('NO_CHANGE')
  })

  it('TL-14 replacement text is literal ($& and $1 are not patterns)', async () => {
    const { after } = await readAndEdit('price\n', { old_string: 'price', new_string: '$& $1 $$' })
    expect(after).toBe('$& $1 $$\n')
  })

  it('TL-14 a CRLF file is matched on LF-normalised text and keeps CRLF after an edit', async () => {
    const { result, after } = await readAndEdit('one\r\ntwo\r\nthree\r\n', {
      old_string: 'one\ntwo',
      new_string: 'uno\ndos\ndos',
    })
    expect(result.isError).toBe(false)
    expect(after).toBe('uno\r\ndos\r\ndos\r\nthree\r\n')
  })

  it('TL-14 an LF file stays LF, and a CRLF old_string still matches a CRLF file', async () => {
    const lf = await readAndEdit('a\nb\n', { old_string: 'a\nb', new_string: 'c\nd' })
    expect(lf.after).toBe('c\nd\n')
    const crlf = await readAndEdit('a\r\nb\r\n', { old_string: 'a\r\nb', new_string: 'c' })
    expect(crlf.after).toBe('c\r\n')
  })

  it('TL-14 writes are atomic: the mode is preserved and no temp file is left behind', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'run.sh': 'echo hi\n' })
    await chmod(join(cwd, 'run.sh'), 0o750)
    const ctx = await fsContext()
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'run.sh' }, { cwd, agent })
    await run(ctx, 'edit', { file_path: 'run.sh', old_string: 'hi', new_string: 'ho' }, { cwd, agent })
    await run(ctx, 'write', { file_path: 'run.sh', content: 'echo bye\n' }, { cwd, agent })
    expect((await stat(join(cwd, 'run.sh'))).mode & 0o777).toBe(0o750)
    expect(await readdir(cwd)).toEqual(['run.sh'])
    expect(await readFile(join(cwd, 'run.sh'), 'utf8')).toBe('echo bye\n')
  })

  it('TL-14 edit of a missing file is NOT_FOUND, of a folder IS_DIRECTORY; write over a folder IS_DIRECTORY', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'dir/x.txt': 'x' })
    const ctx = await fsContext()
    const edit = { old_string: 'a', new_string: 'b' }
    expect((await run(ctx, 'edit', { file_path: 'no.txt', ...edit }, { cwd })).error?.code).toBe('NOT_FOUND')
    expect((await run(ctx, 'edit', { file_path: 'dir', ...edit }, { cwd })).error?.code).toBe('IS_DIRECTORY')
    expect((await run(ctx, 'write', { file_path: 'dir', content: '' }, { cwd })).error?.code).toBe(
      'IS_DIRECTORY',
    )
  })
})
