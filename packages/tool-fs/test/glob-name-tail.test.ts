// A plain name-ending glob (`**​/*.ts`, `*.md`) is decided by a string test on the main thread instead
// of picomatch in the search worker (docs/decisions/0330-search-at-ripgrep-speed.md). It must answer
// exactly as picomatch does for every path a listing can give, and keep the worker path's time cap.
import { describe, expect, it } from 'vitest'
import { globMatcher, nameTailTest } from '../src/glob-match.ts'
import { filterEach } from '../src/search-pool.ts'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

const TAILS = ['.ts', '.d.ts', '.', '..', '...', 'ts', '-', '_x', '.test.ts', 'a', 'TS']
const NAMES = [
  'a',
  '.a',
  'a.',
  'a..',
  '.ts',
  'x.ts',
  '..ts',
  '...ts',
  'ts',
  '.d.ts',
  'x.d.ts',
  'a-',
  '-',
].concat(['_x', 'x_x', 'a\nb.ts', 'a b.ts', '.test.ts', 'x.test.ts', 'ä.ts', 'A.TS', 'x.ts~', 'x.tsx'])
const FOLDERS = ['', 'd/', '.d/', 'a/b/', '..x/', 'x../', '.git/', 'ts/', 'x.ts/']

describe('nameTailTest', () => {
  it('answers as picomatch for **/*X and *X over edge names in edge folders', () => {
    let compared = 0
    for (const tail of TAILS) {
      for (const pattern of [`**/*${tail}`, `*${tail}`]) {
        const test = nameTailTest(pattern)
        expect(test, pattern).toBeDefined()
        const picomatch = globMatcher(pattern)
        for (const folder of FOLDERS) {
          for (const name of NAMES) {
            const path = folder + name
            expect(test?.(path), `${pattern} on ${JSON.stringify(path)}`).toBe(picomatch(path))
            compared++
          }
        }
      }
    }
    expect(compared).toBe(TAILS.length * 2 * FOLDERS.length * NAMES.length)
  })

  it('leaves every other glob to picomatch in the worker', () => {
    for (const pattern of [
      '**/*.{ts,js}',
      'src/**/*.ts',
      '**/a*.ts',
      '*a*a*b',
      '**/*',
      '**/*.t?',
      '**/x.ts',
      '*.[tj]s',
    ])
      expect(nameTailTest(pattern), pattern).toBeUndefined()
  })
})

describe('filterEach (the string test on the main thread)', () => {
  it('stops at the first entry `take` refuses and fails TIMEOUT past the time cap', async () => {
    const entries = Array.from({ length: 2000 }, (_, i) => ({ path: `/w/f${i}.ts`, relative: `f${i}.ts` }))
    const signal = new AbortController().signal
    const taken: string[] = []
    await filterEach(
      { signal, timeoutMs: 60_000, tool: 'glob' },
      entries,
      (p) => p.endsWith('0.ts'),
      (e) => {
        taken.push(e.relative)
        return taken.length < 3
      },
    )
    expect(taken).toEqual(['f0.ts', 'f10.ts', 'f20.ts'])
    async function* slow() {
      for (const entry of entries) {
        await new Promise((resolve) => setTimeout(resolve, 1))
        yield entry
      }
    }
    const timedOut = filterEach(
      { signal, timeoutMs: 100, tool: 'glob' },
      slow(),
      () => true,
      () => true,
    )
    await expect(timedOut).rejects.toMatchObject({ code: 'TIMEOUT' })
    const aborted = new AbortController()
    aborted.abort(new Error('stop'))
    const stopped = filterEach(
      { signal: aborted.signal, timeoutMs: 60_000, tool: 'glob' },
      entries,
      () => true,
      () => true,
    )
    await expect(stopped).rejects.toThrow('stop')
  })
})

describe.each([
  { label: 'pure Node', mode: { ripgrep: 'off' } },
  { label: 'ripgrep', mode: { ripgrep: 'auto' } },
])('glob with a name-ending pattern ($label)', ({ mode }) => {
  it('lists the same files in the same order as the worker path, with the cap and its note', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, {
      '.gitignore': 'ignored/\n',
      'b.ts': '',
      'a.ts': '',
      'a.tsx': '',
      '.hidden.ts': '',
      'src/z.ts': '',
      'src/a.d.ts': '',
      'src-x/m.ts': '',
      'ignored/no.ts': '',
    })
    const ctx = await fsContext(mode)
    const list = async (pattern: string) => textOf(await run(ctx, 'glob', { pattern }, { cwd }))
    const expected = ['.hidden.ts', 'a.ts', 'b.ts', 'src-x/m.ts', 'src/a.d.ts', 'src/z.ts']
    expect((await list('**/*.ts')).split('\n')).toEqual(expected)
    // `**/*.{ts,ts}` means the same but is not a plain name ending: picomatch in the worker decides.
    expect((await list('**/*.{ts,ts}')).split('\n')).toEqual(expected)
    expect((await list('*.ts')).split('\n')).toEqual(['.hidden.ts', 'a.ts', 'b.ts'])
    const capped = await fsContext({ ...mode, globMaxResults: 2 })
    const text = textOf(await run(capped, 'glob', { pattern: '**/*.ts' }, { cwd }))
    expect(text).toBe(
      '.hidden.ts\na.ts\n\n[Stopped at 2 results (globMaxResults); more files match. Narrow the pattern or the path.]',
    )
  })
})
