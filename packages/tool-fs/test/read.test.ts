import { execFileSync } from 'node:child_process'
import { open, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

const lines = (n: number, make = (i: number) => `line ${i}`) =>
  `${Array.from({ length: n }, (_, i) => make(i + 1)).join('\n')}\n`

describe('read', () => {
  it('TL-12 numbers lines from 1 as N<TAB>text and drops the CR of CRLF lines', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': 'alpha\r\nbeta\r\n\r\ngamma' })
    const ctx = await fsContext()
    const result = await run(ctx, 'read', { file_path: 'a.txt' }, { cwd })
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe('1\talpha\n2\tbeta\n3\t\n4\tgamma')
  })

  it('TL-12 offset and limit select a window and end with the next offset', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': lines(10) })
    const ctx = await fsContext()
    const result = await run(ctx, 'read', { file_path: 'a.txt', offset: 3, limit: 2 }, { cwd })
    expect(textOf(result)).toBe(
      '3\tline 3\n4\tline 4\n\n[Showing lines 3-4, stopped at the 2-line limit. The file continues: read again with offset 5.]',
    )
    const tail = await run(ctx, 'read', { file_path: 'a.txt', offset: 9, limit: 2 }, { cwd })
    expect(textOf(tail)).toBe('9\tline 9\n10\tline 10')
  })

  it('TL-12 readLimit is the default limit (default 2000, configured 3)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': lines(2001), 'b.txt': lines(5) })
    const defaults = await fsContext()
    const big = textOf(await run(defaults, 'read', { file_path: 'a.txt' }, { cwd }))
    expect(big.split('\n').filter((l) => /^\d+\t/.test(l))).toHaveLength(2000)
    expect(big).toMatch(/read again with offset 2001\.\]$/)
    const configured = await fsContext({ readLimit: 3 })
    const small = textOf(await run(configured, 'read', { file_path: 'b.txt' }, { cwd }))
    expect(small).toMatch(
      /^1\tline 1\n2\tline 2\n3\tline 3\n\n\[Showing lines 1-3, stopped at the 3-line limit/,
    )
  })

  it('TL-12 a line longer than readMaxLineLength is cut with a mark', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': `${'x'.repeat(2500)}\nshort\n`, 'b.txt': `${'y'.repeat(40)}\n` })
    const defaults = await fsContext()
    const first = textOf(await run(defaults, 'read', { file_path: 'a.txt' }, { cwd })).split('\n')[0]
    expect(first).toBe(`1\t${'x'.repeat(2000)} ... [line cut: 2500 characters in all]`)
    const configured = await fsContext({ readMaxLineLength: 16 })
    expect(textOf(await run(configured, 'read', { file_path: 'b.txt' }, { cwd }))).toBe(
      `1\t${'y'.repeat(16)} ... [line cut: 40 characters in all]`,
    )
  })

  it('TL-12 output stops at readMaxBytes (default 51200, configured 1024) at a line boundary', async () => {
    const cwd = await tempDir()
    // 1000 lines of 100 chars: ~106 KB of output, well past the default cap.
    await writeTree(cwd, { 'a.txt': lines(1000, () => 'z'.repeat(100)) })
    const defaults = await fsContext()
    const text = textOf(await run(defaults, 'read', { file_path: 'a.txt' }, { cwd }))
    const [body, note] = text.split('\n\n')
    expect(Buffer.byteLength(`${body}\n`)).toBeLessThanOrEqual(51_200)
    const shown = body.split('\n').length
    expect(note).toBe(
      `[Showing lines 1-${shown}, stopped at the 51200-byte output limit. The file continues: read again with offset ${shown + 1}.]`,
    )
    const configured = await fsContext({ readMaxBytes: 1024 })
    const small = textOf(await run(configured, 'read', { file_path: 'a.txt' }, { cwd }))
    expect(Buffer.byteLength(`${small.split('\n\n')[0]}\n`)).toBeLessThanOrEqual(1024)
    expect(small).toContain('stopped at the 1024-byte output limit')
  })

  it('TL-12 a file at or above readStreamMinSize is streamed with the same output', async () => {
    const cwd = await tempDir()
    const content = `${lines(300, (i) => `${i}:${'w'.repeat(i % 50)}\r`)}${'q'.repeat(3000)}\nend`
    await writeTree(cwd, { 'a.txt': content })
    const inMemory = await fsContext()
    const streamed = await fsContext({ readStreamMinSize: 1024 })
    for (const args of [
      { file_path: 'a.txt' },
      { file_path: 'a.txt', offset: 290, limit: 20 },
      { file_path: 'a.txt', limit: 7 },
    ]) {
      const a = textOf(await run(inMemory, 'read', args, { cwd }))
      const b = textOf(await run(streamed, 'read', args, { cwd }))
      expect(b).toBe(a)
    }
  })

  it('TL-12 streaming reads only what it shows: a 3 GiB sparse file (too large to load) reads its first lines', async () => {
    const cwd = await tempDir()
    const path = join(cwd, 'huge.log')
    await writeFile(path, lines(2000)) // past the 8 KiB binary sniff
    const handle = await open(path, 'r+')
    await handle.truncate(3 * 1024 ** 3) // sparse: no disk used; loading it whole would throw
    await handle.close()
    const ctx = await fsContext({ readStreamMinSize: 1024 * 1024 })
    const result = await run(ctx, 'read', { file_path: 'huge.log', limit: 3 }, { cwd })
    expect(textOf(result)).toBe(
      '1\tline 1\n2\tline 2\n3\tline 3\n\n[Showing lines 1-3, stopped at the 3-line limit. The file continues: read again with offset 4.]',
    )
  })

  it('TL-12 errors: NOT_FOUND, IS_DIRECTORY, BINARY_FILE (a NUL in the first 8 KiB only)', async () => {
    const cwd = await tempDir()
    const late = Buffer.concat([Buffer.from('a'.repeat(8192)), Buffer.from([0]), Buffer.from('\n')])
    await writeTree(cwd, { 'dir/x.txt': 'x', 'bin.dat': Buffer.from([104, 105, 0, 1, 2]), 'late.txt': late })
    const ctx = await fsContext()
    const missing = await run(ctx, 'read', { file_path: 'nope.txt' }, { cwd })
    expect(missing.error?.code).toBe('NOT_FOUND')
    expect(textOf(missing)).toBe('nope.txt does not exist.')
    expect((await run(ctx, 'read', { file_path: 'dir' }, { cwd })).error?.code).toBe('IS_DIRECTORY')
    expect((await run(ctx, 'read', { file_path: 'bin.dat' }, { cwd })).error?.code).toBe('BINARY_FILE')
    const lateRead = await run(ctx, 'read', { file_path: 'late.txt' }, { cwd })
    expect(lateRead.isError).toBe(false)
  })

  it('TL-12 a FIFO is NOT_A_FILE for read, edit and write, and grep skips it, none of them blocking on it', async () => {
    const cwd = await tempDir()
    execFileSync('mkfifo', [join(cwd, 'pipe')])
    const ctx = await fsContext()
    expect((await run(ctx, 'read', { file_path: 'pipe' }, { cwd })).error?.code).toBe('NOT_A_FILE')
    const edit = { file_path: 'pipe', old_string: 'a', new_string: 'b' }
    expect((await run(ctx, 'edit', edit, { cwd })).error?.code).toBe('NOT_A_FILE')
    expect((await run(ctx, 'write', { file_path: 'pipe', content: 'x' }, { cwd })).error?.code).toBe(
      'NOT_A_FILE',
    )
    expect(textOf(await run(ctx, 'grep', { pattern: 'x', path: 'pipe' }, { cwd }))).toBe('No matches found.')
  })

  it('TL-12 an empty file and an offset past the end say so', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'empty.txt': '', 'a.txt': lines(3) })
    const ctx = await fsContext()
    expect(textOf(await run(ctx, 'read', { file_path: 'empty.txt' }, { cwd }))).toBe('[The file is empty.]')
    expect(textOf(await run(ctx, 'read', { file_path: 'a.txt', offset: 9 }, { cwd }))).toBe(
      '[The file has 3 lines; offset 9 is past its end.]',
    )
  })

  it('TL-4 offset 0 is invalid arguments', async () => {
    const cwd = await tempDir()
    const ctx = await fsContext()
    const result = await run(ctx, 'read', { file_path: 'a.txt', offset: 0 }, { cwd })
    expect(result.error?.code).toBe('INVALID_ARGS')
  })
})
