// A model-supplied pattern never blocks the event loop (docs/decisions/0120-model-patterns-off-thread.md):
// `grep`'s RegExp and glob run in a worker thread that is stopped past `searchTimeoutMs` or on abort,
// the call failing with an error the model can act on. `(a+)+$` on 45 `a`s and a `!` backtracks for
// minutes; these tests only finish because the worker is terminated.
import { describe, expect, it } from 'vitest'
import { FsToolsConfig } from '../src/config.ts'
import { fsContext, run, tempDir, textOf, writeTree } from './support.ts'

const MODES = [
  { label: 'pure Node', mode: { ripgrep: 'off' } },
  { label: 'ripgrep', mode: { ripgrep: 'auto' } },
]

const EVIL_LINE = `${'a'.repeat(45)}!`

/** Counts timer ticks while `work` runs: the event loop ran at all iff this is above a few. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0
  const timer = setInterval(() => ticks++, 20)
  try {
    return { value: await work, ticks }
  } finally {
    clearInterval(timer)
  }
}

describe.each(MODES)('a catastrophic pattern ($label)', ({ mode }) => {
  it('grep past searchTimeoutMs fails TIMEOUT naming the key; the event loop keeps running meanwhile', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'ok.txt': 'fine\n', 'evil.txt': `${EVIL_LINE}\n` })
    const ctx = await fsContext({ ...mode, searchTimeoutMs: 400 })
    const started = performance.now()
    const { value: result, ticks } = await ticksDuring(run(ctx, 'grep', { pattern: '(a+)+$' }, { cwd }))
    expect(result.isError).toBe(true)
    expect(result.error?.code).toBe('TIMEOUT')
    expect(textOf(result)).toContain('grep stopped after 400 ms (searchTimeoutMs)')
    expect(textOf(result)).toContain('simplify the pattern')
    expect(ticks).toBeGreaterThan(5)
    expect(performance.now() - started).toBeLessThan(20_000)
    // The next call gets a fresh worker and works (with the default cap: a loaded machine may take
    // a while to start a worker).
    expect(textOf(await run(await fsContext(mode), 'grep', { pattern: 'fin' }, { cwd }))).toBe('ok.txt')
  })

  it('an abort ends a catastrophic grep at once (ABORTED), whatever the time cap', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'evil.txt': `${EVIL_LINE}\n` })
    const ctx = await fsContext({ ...mode, searchTimeoutMs: 3_600_000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const started = performance.now()
    const result = await run(
      ctx,
      'grep',
      { pattern: '(a+)+$', output: 'content' },
      { cwd, signal: controller.signal },
    )
    expect(result.error?.code).toBe('ABORTED')
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  it("grep's glob runs off the main thread too: a backtracking glob times out", async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { [`${'a'.repeat(120)}.txt`]: 'x\n' })
    const ctx = await fsContext({ ...mode, searchTimeoutMs: 400 })
    const { value: result, ticks } = await ticksDuring(
      run(ctx, 'grep', { pattern: 'x', glob: '*a*a*a*a*a*a*a*a*a*a*a*a*b' }, { cwd }),
    )
    expect(result.error?.code).toBe('TIMEOUT')
    expect(ticks).toBeGreaterThan(5)
  })
})

describe.each(MODES)('a catastrophic glob ($label)', ({ mode }) => {
  it('glob past searchTimeoutMs fails TIMEOUT; the event loop keeps running; a plain glob still works', async () => {
    const cwd = await tempDir()
    // The name ends with the glob's literal tail, so ripgrep's narrowing passes it on to the glob.
    await writeTree(cwd, { [`${'a'.repeat(120)}cb`]: 'x\n', 'b.md': 'y\n' })
    const ctx = await fsContext({ ...mode, searchTimeoutMs: 400 })
    const { value: result, ticks } = await ticksDuring(
      run(ctx, 'glob', { pattern: '*a*a*a*a*a*a*a*a*a*a*a*a*z*cb' }, { cwd }),
    )
    expect(textOf(result)).toContain('glob stopped after 400 ms (searchTimeoutMs)')
    expect(result.error?.code).toBe('TIMEOUT')
    expect(ticks).toBeGreaterThan(5)
    expect(textOf(await run(await fsContext(mode), 'glob', { pattern: '*.md' }, { cwd }))).toBe('b.md')
  })
})

describe.each(MODES)('many files through the worker ($label)', ({ mode }) => {
  it('1,300 files (several chunks in flight) come back complete and in path order; a cap still stops', async () => {
    const cwd = await tempDir()
    const names = Array.from(
      { length: 1300 },
      (_, i) => `d${Math.floor(i / 100)}/f${String(i).padStart(4, '0')}.txt`,
    )
    await writeTree(
      cwd,
      Object.fromEntries(names.map((name, i) => [name, i % 2 ? 'odd\n' : 'even needle\n'])),
    )
    const ctx = await fsContext({ ...mode, grepMaxMatches: 10_000, globMaxResults: 10_000 })
    const expected = names.filter((_, i) => i % 2 === 0).sort()
    expect(textOf(await run(ctx, 'grep', { pattern: 'ne+dle' }, { cwd })).split('\n')).toEqual(expected)
    expect(textOf(await run(ctx, 'glob', { pattern: '**/f*.txt' }, { cwd })).split('\n')).toEqual(
      [...names].sort(),
    )
    const capped = await run(
      await fsContext({ ...mode, grepMaxMatches: 600 }),
      'grep',
      { pattern: 'ne+dle', output: 'content' },
      { cwd },
    )
    const [lines, note] = textOf(capped).split('\n\n')
    expect(lines.split('\n')).toEqual(expected.slice(0, 600).map((name) => `${name}:1:even needle`))
    expect(note).toBe(
      '[Stopped at 600 matching lines (grepMaxMatches); there are more. Narrow the pattern, path or glob.]',
    )
  })
})

describe('searchTimeoutMs', () => {
  it('defaults to 30 s, takes a configured value, rejects one out of range', () => {
    expect(FsToolsConfig.parse({}).searchTimeoutMs).toBe(30_000)
    expect(FsToolsConfig.parse({ searchTimeoutMs: 100 }).searchTimeoutMs).toBe(100)
    expect(() => FsToolsConfig.parse({ searchTimeoutMs: 50 })).toThrow(
      /searchTimeoutMs: must be an integer 100–3600000/,
    )
  })
})
