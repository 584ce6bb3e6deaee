// Issue 9.6: grep bounds a single line's length. A line longer than grepMaxLineLength is searched in
// its first part only, its match shown cut, and the search goes on to the other lines and files —
// whether the file is read whole or streamed.
import { describe, expect, it } from 'vitest'
import { FsToolsConfig } from '../src/index.ts'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

async function tree() {
  const cwd = await tempDir()
  const long = `${'x'.repeat(100)}needle-early${'y'.repeat(5000)}needle-late${'z'.repeat(100)}`
  await writeTree(cwd, { 'a.min.js': `${long}\nneedle short line\n`, 'b.txt': 'needle in b\n' })
  return cwd
}

describe('grep line length (issue 9.6)', () => {
  it.each([
    ['read whole, pure Node', { ripgrep: 'off' }],
    ['read whole, ripgrep', { ripgrep: 'auto' }],
    ['streamed, pure Node', { readStreamMinSize: 0, ripgrep: 'off' }],
    ['streamed, ripgrep', { readStreamMinSize: 0, ripgrep: 'auto' }],
  ])(
    'a long line is searched in its first grepMaxLineLength characters (%s), the rest goes on',
    async (_, extra) => {
      const cwd = await tree()
      const ctx = await fsContext({ grepMaxLineLength: 1024, readMaxLineLength: 40, ...extra })
      const early = textOf(await run(ctx, 'grep', { pattern: 'needle', output: 'content' }, { cwd }))
      const lines = early.split('\n')
      expect(lines[0]).toBe(
        `a.min.js:1:${'x'.repeat(40)} ... [line cut: ${100 + 12 + 5000 + 11 + 100} characters in all]`,
      )
      expect(lines[1]).toBe('a.min.js:2:needle short line')
      expect(lines[2]).toBe('b.txt:1:needle in b')
      expect(early).toContain(
        '[1 line longer than 1024 characters (grepMaxLineLength) was searched only in its first 1024.]',
      )
      // Past the searched head a match is not found — and the result says why.
      const late = textOf(await run(ctx, 'grep', { pattern: 'needle-late', output: 'files' }, { cwd }))
      expect(late).toMatch(/^No matches found\.\n\n\[1 line longer than 1024/)
    },
  )

  it('grepMaxLineLength: default 1 MiB, configured, rejected out of range', () => {
    expect(FsToolsConfig.parse({}).grepMaxLineLength).toBe(1024 * 1024)
    expect(FsToolsConfig.parse({ grepMaxLineLength: 4096 }).grepMaxLineLength).toBe(4096)
    expect(() => FsToolsConfig.parse({ grepMaxLineLength: 100 })).toThrow(
      /grepMaxLineLength: must be an integer 1024–268435456/,
    )
  })
})
