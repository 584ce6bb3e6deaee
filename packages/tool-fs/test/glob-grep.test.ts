import { symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

/** Every test runs on both paths: the pure-Node walk and ripgrep (on PATH: `.ci/run` installs it). */
const MODES = [
  { label: 'pure Node', mode: { ripgrep: 'off' } },
  { label: 'ripgrep', mode: { ripgrep: 'auto' } },
]

/** A tree with nested .gitignore files, a negation, a folder rule and a .git folder. */
async function repo() {
  const cwd = await tempDir()
  await writeTree(cwd, {
    '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\n',
    '.git/HEAD': 'ref: refs/heads/main\nneedle\n',
    'a.ts': 'const needle = 1\n',
    'a-b.ts': 'other\n',
    'debug.log': 'needle\n',
    'keep.log': 'needle kept\n',
    'top-only.txt': 'needle\n',
    'build/out.ts': 'needle\n',
    'src/b.ts': 'Needle here\nno\nneedle again\n',
    'src/top-only.txt': 'needle\n',
    'src/nested/.gitignore': 'secret.ts\n!debug.log\n',
    'src/nested/secret.ts': 'needle\n',
    'src/nested/debug.log': 'needle\n',
    'src/nested/c.ts': 'needle\n',
    'src/lib/build/deep.ts': 'needle\n',
    'bin.dat': Buffer.from([110, 101, 101, 100, 108, 101, 0, 1]),
  })
  return cwd
}

describe.each(MODES)('glob ($label)', ({ mode }) => {
  it('TL-16 skips .gitignored paths (nested files, negations, folder and anchored rules) and .git, sorted by path', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    const result = await run(ctx, 'glob', { pattern: '**' }, { cwd })
    expect(textOf(result).split('\n')).toEqual([
      '.gitignore',
      'a-b.ts',
      'a.ts',
      'bin.dat',
      'keep.log',
      'src/b.ts',
      'src/nested/.gitignore',
      'src/nested/c.ts',
      'src/nested/debug.log',
      'src/top-only.txt',
    ])
  })

  it('TL-16 matches relative to path; results are named relative to the cwd', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    expect(textOf(await run(ctx, 'glob', { pattern: '*.ts' }, { cwd }))).toBe('a-b.ts\na.ts')
    expect(textOf(await run(ctx, 'glob', { pattern: '**/*.ts', path: 'src' }, { cwd }))).toBe(
      'src/b.ts\nsrc/nested/c.ts',
    )
    expect(textOf(await run(ctx, 'glob', { pattern: 'nothing*' }, { cwd }))).toBe('No files matched.')
  })

  it('TL-16 .gitignore files above the searched folder still apply', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    expect(textOf(await run(ctx, 'glob', { pattern: '**', path: 'src/lib' }, { cwd }))).toBe(
      'No files matched.',
    )
  })

  it('TL-16 stops at globMaxResults (default 1000, configured 2) with a note', async () => {
    const cwd = await tempDir()
    const files: Record<string, string> = {}
    for (let i = 0; i < 1001; i++) files[`f${String(i).padStart(4, '0')}.txt`] = ''
    await writeTree(cwd, files)
    const defaults = await fsContext(mode)
    const all = textOf(await run(defaults, 'glob', { pattern: '*.txt' }, { cwd })).split('\n\n')
    expect(all[0].split('\n')).toHaveLength(1000)
    expect(all[0].split('\n').at(-1)).toBe('f0999.txt')
    expect(all[1]).toBe(
      '[Stopped at 1000 results (globMaxResults); more files match. Narrow the pattern or the path.]',
    )
    const configured = await fsContext({ ...mode, globMaxResults: 2 })
    expect(textOf(await run(configured, 'glob', { pattern: '*.txt' }, { cwd }))).toBe(
      'f0000.txt\nf0001.txt\n\n[Stopped at 2 results (globMaxResults); more files match. Narrow the pattern or the path.]',
    )
  })

  it('TL-16 never walks into a symlinked folder; lists the symlink itself without ripgrep only (docs/decisions/0040)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'real/x.ts': '' })
    await symlink(join(cwd, 'real'), join(cwd, 'loop'))
    const ctx = await fsContext(mode)
    const listed = textOf(await run(ctx, 'glob', { pattern: '**' }, { cwd }))
    expect(listed).toBe(mode.ripgrep === 'off' ? 'loop\nreal/x.ts' : 'real/x.ts')
  })

  it('a file name with a newline is one result, written as a JSON string (grep names it the same way)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a\nb.txt': 'needle\n', 'c.txt': 'needle\n' })
    const ctx = await fsContext(mode)
    expect(textOf(await run(ctx, 'glob', { pattern: '*.txt' }, { cwd })).split('\n')).toEqual([
      '"a\\nb.txt"',
      'c.txt',
    ])
    expect(textOf(await run(ctx, 'grep', { pattern: 'needle' }, { cwd })).split('\n')).toEqual([
      '"a\\nb.txt"',
      'c.txt',
    ])
  })

  it('TL-16 errors: NOT_FOUND, NOT_A_DIRECTORY', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    expect((await run(ctx, 'glob', { pattern: '*', path: 'nope' }, { cwd })).error?.code).toBe('NOT_FOUND')
    expect((await run(ctx, 'glob', { pattern: '*', path: 'a.ts' }, { cwd })).error?.code).toBe(
      'NOT_A_DIRECTORY',
    )
  })
})

describe.each(MODES)('grep ($label)', ({ mode }) => {
  it('TL-16 files (default) lists matching text files in path order, skipping ignored, .git and binary files', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    const result = await run(ctx, 'grep', { pattern: 'needle' }, { cwd })
    expect(textOf(result)).toBe(
      ['a.ts', 'keep.log', 'src/b.ts', 'src/nested/c.ts', 'src/nested/debug.log', 'src/top-only.txt'].join(
        '\n',
      ),
    )
  })

  it('TL-16 content shows path:line:text; count shows path:count; ignore_case widens the match', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    const content = await run(
      ctx,
      'grep',
      { pattern: 'needle', path: 'src/b.ts', output: 'content' },
      { cwd },
    )
    expect(textOf(content)).toBe('src/b.ts:3:needle again')
    const insensitive = await run(
      ctx,
      'grep',
      { pattern: 'needle', path: 'src', output: 'count', ignore_case: true, glob: '*.ts' },
      { cwd },
    )
    expect(textOf(insensitive)).toBe('src/b.ts:2\nsrc/nested/c.ts:1')
  })

  it('TL-16 glob without a slash matches file names anywhere; with a slash, relative paths', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    expect(textOf(await run(ctx, 'grep', { pattern: 'needle', glob: '*.log' }, { cwd }))).toBe(
      'keep.log\nsrc/nested/debug.log',
    )
    expect(textOf(await run(ctx, 'grep', { pattern: 'needle', glob: 'src/*.ts' }, { cwd }))).toBe('src/b.ts')
  })

  it('TL-16 stops at grepMaxMatches (default 500, configured 3) with a note', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'many.txt': 'hit\n'.repeat(501), 'z.txt': 'hit\n' })
    const defaults = await fsContext(mode)
    const all = textOf(await run(defaults, 'grep', { pattern: 'hit', output: 'content' }, { cwd })).split(
      '\n\n',
    )
    expect(all[0].split('\n')).toHaveLength(500)
    expect(all[1]).toBe(
      '[Stopped at 500 matching lines (grepMaxMatches); there are more. Narrow the pattern, path or glob.]',
    )
    const configured = await fsContext({ ...mode, grepMaxMatches: 1 })
    expect(textOf(await run(configured, 'grep', { pattern: 'hit' }, { cwd }))).toBe(
      'many.txt\n\n[Stopped at 1 file (grepMaxMatches); there are more. Narrow the pattern, path or glob.]',
    )
  })

  it('TL-16 finds a match in a streamed file beyond the shown part of a long line, and cuts what it shows', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'big.txt': `${'a'.repeat(3000)}needle\n${'filler\n'.repeat(300)}` })
    const ctx = await fsContext({ ...mode, readStreamMinSize: 1024, readMaxLineLength: 20 })
    const result = await run(ctx, 'grep', { pattern: 'needle', output: 'content' }, { cwd })
    expect(textOf(result)).toBe(`big.txt:1:${'a'.repeat(20)} ... [line cut: 3006 characters in all]`)
  })

  it('TL-16 an invalid regular expression fails INVALID_PATTERN; a missing path NOT_FOUND; no match says so', async () => {
    const cwd = await repo()
    const ctx = await fsContext(mode)
    expect((await run(ctx, 'grep', { pattern: '(' }, { cwd })).error?.code).toBe('INVALID_PATTERN')
    expect((await run(ctx, 'grep', { pattern: 'x', path: 'nope' }, { cwd })).error?.code).toBe('NOT_FOUND')
    expect(textOf(await run(ctx, 'grep', { pattern: 'absent-word' }, { cwd }))).toBe('No matches found.')
  })
})
