// Issue 12.4: grep and glob find files with ripgrep when it is present and with the pure-Node walk
// otherwise — the same trees give the same results on both paths. A wrapper script stands in for
// `rg` where a test must see that ripgrep really ran (it logs its arguments, then runs the real rg).
import { execFileSync } from 'node:child_process'
import { chmod, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FsToolsConfig } from '../src/index.ts'
import { requiredLiteral } from '../src/literal.ts'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

const RG = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim()

async function loggingRipgrep(): Promise<{ path: string; calls: () => Promise<string[]> }> {
  const dir = await tempDir('tack-rg-')
  const path = join(dir, 'rg')
  const log = join(dir, 'calls.log')
  await writeFile(log, '')
  await writeFile(path, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${RG}' "$@"\n`)
  await chmod(path, 0o755)
  return { path, calls: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean) }
}

/** A tree that exercises the ignore rules, binary detection, CRLF, Unicode and long lines. */
async function tree(): Promise<string> {
  const cwd = await tempDir()
  const files: Record<string, string | Uint8Array> = {
    // `*.gen.d.ts`, `odd.d.ts/`: rules rg's `--glob=*.d.ts` would override (glob drops them itself)
    '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\ndist\n*.gen.d.ts\nodd.d.ts/\n',
    '.git/config': 'needle\n',
    '.git/info/audit': 'inside .git\n',
    'src/commit': 'a name ending like .git\n',
    '.hidden/h.ts': 'export const needle = 1\n',
    '.ignore': 'a.ts\n', // not a .gitignore: neither path reads it
    'a.ts': 'const needle = 1\nNEEDLE loud\n',
    'a-b.ts': 'function foo(bar) { return bar }\n',
    'debug.log': 'needle\n',
    'keep.log': 'needle kept\n',
    'top-only.txt': 'needle\n',
    'dist/x.d.ts': 'needle\n',
    'build/out.ts': 'needle\n',
    'crlf.txt': 'one needle\r\ntwo\r\nthree needle\r\n',
    'unicode.md': 'Größe needle ünïcödé\nstraße\n',
    'bin.dat': Buffer.from([110, 101, 101, 100, 108, 101, 0, 1]),
    'late-nul.txt': `${'needle\n'.repeat(2000)}\u0000`, // NUL past the first 8 KiB: text for both
    'src/b.ts': 'Needle here\nno\nneedle again\n',
    'src/top-only.txt': 'needle\n',
    'src/types.d.ts': 'declare const needle: number\n',
    'src/nested/.gitignore': 'secret.ts\n!debug.log\n!keep.gen.d.ts\n',
    'src/skip.gen.d.ts': 'needle\n',
    'src/nested/keep.gen.d.ts': 'needle\n',
    'odd.d.ts/inside.d.ts': 'needle\n',
    'src/odd.d.ts/inside.d.ts': 'needle\n',
    'src/nested/secret.ts': 'needle\n',
    'src/nested/debug.log': 'needle\n',
    'src/nested/c.d.ts': 'needle\n',
    'src/lib/build/deep.ts': 'needle\n',
    'src/lib/long.js': `${'x'.repeat(3000)}needle\nneedle short\n`,
    'src/odd.ts.': 'a name ending in a dot\n',
  }
  for (let i = 0; i < 30; i++) files[`gen/m${i}/f${i}.ts`] = i % 3 ? `value ${i}\n` : `needle ${i}\n`
  await writeTree(cwd, files)
  return cwd
}

const GREPS: Array<Record<string, unknown>> = [
  { pattern: 'needle' },
  { pattern: 'needle', output: 'content' },
  { pattern: 'needle', output: 'count' },
  { pattern: 'NEEDLE', ignore_case: true, output: 'content' },
  { pattern: 'größe', ignore_case: true, output: 'content' },
  { pattern: 'foo\\(bar\\)', output: 'content' },
  { pattern: 'need(le|ful)', output: 'content' },
  { pattern: 'needle|value', output: 'count' },
  { pattern: '^\\w+ \\d+$', output: 'content' },
  { pattern: 'ne+dle \\d', output: 'content' },
  { pattern: 'needle$', output: 'content' },
  { pattern: 'needle', glob: '*.d.ts' },
  { pattern: 'needle', glob: 'src/**' },
  { pattern: 'needle', path: 'src' },
  { pattern: 'needle', path: 'src/nested', output: 'content' },
  { pattern: 'absent-literal' },
]

// `**/*it` matches the folder `.git` itself, which rg would then enter unless `.git` is skipped last; `*."ts"` and `*.ts.` are endings rg
// reads otherwise than picomatch
const GLOBS = [
  '**',
  '**/*.d.ts',
  '*.ts',
  'src/**/*.ts',
  '**/*.{log,md}',
  '**/.gitignore',
  '*.gen.d.ts',
  '**/*it',
  '**/*."ts"',
  '**/*.ts.',
]

describe('grep and glob: ripgrep and pure Node give the same results (issue 12.4)', () => {
  it('every grep and glob of the list answers the same on both paths', async () => {
    const cwd = await tree()
    const rg = await loggingRipgrep()
    const config = { grepMaxLineLength: 1024, readMaxLineLength: 60 }
    const node = await fsContext({ ...config, ripgrep: 'off' })
    const withRg = await fsContext({ ...config, ripgrep: rg.path })
    for (const args of GREPS) {
      const expected = textOf(await run(node, 'grep', args, { cwd }))
      expect(textOf(await run(withRg, 'grep', args, { cwd })), JSON.stringify(args)).toBe(expected)
    }
    for (const pattern of GLOBS) {
      const expected = textOf(await run(node, 'glob', { pattern }, { cwd }))
      expect(textOf(await run(withRg, 'glob', { pattern }, { cwd })), pattern).toBe(expected)
    }
    // The comparison is only worth something if rg really ran: once per call, narrowed by a literal
    // where the pattern has one.
    const calls = await rg.calls()
    // (A grep below `src` runs the walk: the root's .gitignore has a say there, see below.)
    expect(calls.length).toBe(GREPS.filter((args) => !args.path).length + GLOBS.length)
    expect(calls.some((c) => c.includes('--json') && c.endsWith('-e needle'))).toBe(true)
    expect(calls.some((c) => c.includes('--json') && c.endsWith('-e foo(bar)'))).toBe(true)
  })

  it('a spot check of the shared answer: ignore rules, binary files, CRLF and the long-line note', async () => {
    const cwd = await tree()
    const ctx = await fsContext({ grepMaxLineLength: 1024, ripgrep: 'auto' })
    const files = textOf(await run(ctx, 'grep', { pattern: 'needle', glob: '!gen/**' }, { cwd })).split('\n')
    expect(files).toContain('crlf.txt')
    expect(files).toContain('late-nul.txt')
    expect(files).toContain('.hidden/h.ts')
    expect(files).not.toContain('bin.dat')
    expect(files).not.toContain('debug.log')
    expect(files).not.toContain('dist/x.d.ts')
    expect(files).not.toContain('src/nested/secret.ts')
    expect(
      textOf(await run(ctx, 'grep', { pattern: 'needle$', path: 'crlf.txt', output: 'content' }, { cwd })),
    ).toBe('crlf.txt:1:one needle\ncrlf.txt:3:three needle')
    // rg's --glob would also list src/skip.gen.d.ts and both odd.d.ts/inside.d.ts
    expect(textOf(await run(ctx, 'glob', { pattern: '**/*.d.ts' }, { cwd }))).toBe(
      'src/nested/c.d.ts\nsrc/nested/keep.gen.d.ts\nsrc/types.d.ts',
    )
  })

  it('glob honours a .gitignore that is a symbolic link on both paths (rg reads it but never lists it)', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, {
      'rules/root-gitignore': '*.gen.d.ts\n',
      'rules/deep-gitignore': 'hidden.d.ts\n',
      'a.gen.d.ts': 'x\n',
      'a.d.ts': 'x\n',
      'deep/er/hidden.d.ts': 'x\n',
      'deep/er/shown.d.ts': 'x\n',
      'deep/er/b.gen.d.ts': 'x\n',
    })
    await symlink('rules/root-gitignore', join(cwd, '.gitignore'))
    await symlink('../../rules/deep-gitignore', join(cwd, 'deep', 'er', '.gitignore'))
    const rg = await loggingRipgrep()
    const node = await fsContext({ ripgrep: 'off' })
    const withRg = await fsContext({ ripgrep: rg.path })
    const expected = textOf(await run(node, 'glob', { pattern: '**/*.d.ts' }, { cwd }))
    expect(expected).toBe('a.d.ts\ndeep/er/shown.d.ts')
    expect(textOf(await run(withRg, 'glob', { pattern: '**/*.d.ts' }, { cwd }))).toBe(expected)
    expect(await rg.calls()).toHaveLength(1)
  })

  it('glob under more rules than are worth testing name by name asks rg again with its file type: same answer', async () => {
    const cwd = await tempDir()
    const files: Record<string, string> = {
      // 1,001 rule lines x 2,100 names: past the filter's budget of two million tests
      '.gitignore': `${Array.from({ length: 1000 }, (_, i) => `never-${i}.ts`).join('\n')}\n*.skip.ts\n`,
    }
    for (let i = 0; i < 2000; i++) files[`d${i % 20}/f${i}.ts`] = ''
    for (let i = 0; i < 100; i++) files[`d${i % 20}/g${i}.skip.ts`] = ''
    await writeTree(cwd, files)
    const rg = await loggingRipgrep()
    const config = { globMaxResults: 5000 }
    const expected = textOf(
      await run(await fsContext({ ...config, ripgrep: 'off' }), 'glob', { pattern: '**/*.ts' }, { cwd }),
    )
    expect(expected.split('\n')).toHaveLength(2000)
    const got = textOf(
      await run(await fsContext({ ...config, ripgrep: rg.path }), 'glob', { pattern: '**/*.ts' }, { cwd }),
    )
    expect(got).toBe(expected)
    const calls = await rg.calls()
    expect(calls).toHaveLength(2)
    expect(calls[0]).toContain('--glob=*.ts')
    expect(calls[1]).toContain('--type=tackname')
  })

  it('a search below a folder whose .gitignore has a say runs the walk (rg cannot read rules above its start)', async () => {
    const cwd = await tree()
    const rg = await loggingRipgrep()
    const ctx = await fsContext({ ripgrep: rg.path })
    expect(textOf(await run(ctx, 'grep', { pattern: 'needle', path: 'src/nested' }, { cwd }))).toBe(
      'src/nested/c.d.ts\nsrc/nested/debug.log\nsrc/nested/keep.gen.d.ts',
    )
    expect(textOf(await run(ctx, 'glob', { pattern: '**', path: 'src/lib' }, { cwd }))).toBe(
      'src/lib/long.js',
    )
    expect(await rg.calls()).toEqual([])
  })
})

describe('the ripgrep setting', () => {
  afterEach(() => vi.restoreAllMocks())

  it('default auto; off, auto and an absolute path accepted; anything else rejected naming the key', () => {
    expect(FsToolsConfig.parse({}).ripgrep).toBe('auto')
    expect(FsToolsConfig.parse({ ripgrep: 'off' }).ripgrep).toBe('off')
    expect(FsToolsConfig.parse({ ripgrep: '/usr/local/bin/rg' }).ripgrep).toBe('/usr/local/bin/rg')
    expect(() => FsToolsConfig.parse({ ripgrep: 'rg' })).toThrow(
      /ripgrep: .*`auto`, `off` or an absolute path/,
    )
    expect(() => FsToolsConfig.parse({ ripgrep: true })).toThrow(/ripgrep/)
  })

  it('off never runs rg; a configured binary that is missing warns once on stderr and the walk answers', async () => {
    const cwd = await tree()
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    const missing = join(await tempDir(), 'no-rg')
    const ctx = await fsContext({ ripgrep: missing })
    const first = textOf(await run(ctx, 'glob', { pattern: '**/*.d.ts' }, { cwd }))
    const second = textOf(await run(ctx, 'glob', { pattern: '**/*.d.ts' }, { cwd }))
    expect(first).toBe('src/nested/c.d.ts\nsrc/nested/keep.gen.d.ts\nsrc/types.d.ts')
    expect(second).toBe(first)
    const warnings = written.filter((w) => w.includes(missing))
    expect(warnings).toEqual([
      `tack: ripgrep ${missing} is not an executable file; grep and glob search without it\n`,
    ])
  })
})

describe('requiredLiteral (the pre-filter never drops a file the RegExp matches)', () => {
  it.each([
    ['needle', 'needle'],
    ['foo\\(bar\\)', 'foo(bar)'],
    ['ne+dle', 'dle'],
    ['\\x41bc', undefined],
    ['(a)\\1xyz', 'xyz'],
    ['colou?r', 'colo'],
    ['abc*def', 'def'],
    ['a{2}bcd', 'bcd'],
    ['(x|y)longest', 'longest'],
    ['[abc]de', 'de'],
    ['\\bword\\b', 'word'],
    ['\\u0041bc', undefined],
    ['\\d+', undefined],
    ['a|b', undefined],
    ['x.y', 'x'],
  ])('%s → %s', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal)
  })
})
