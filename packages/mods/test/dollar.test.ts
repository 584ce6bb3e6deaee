// `$` (65-mod-host.md requirement 11): relative paths, the 4 MiB limit, network paths, atomic writes,
// store persistence across sessions, process.run, timers ended with the session.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { createDollar } from '../src/dollar/index.ts'
import { type ModSession, modSession, tempDir, writeMod } from './helpers.ts'

function dollarFor(cwd: string, dataDir = tempDir()) {
  const lines: string[] = []
  const made = createDollar({
    mod: { name: 'm', root: cwd },
    session: { id: () => 's1', cwd: () => cwd, startedAt: 1, contextTokens: () => 42 },
    env: { SOME_VAR: 'v' },
    dataDir,
    version: '9.9.9',
    log: (line) => lines.push(line),
  })
  // biome-ignore lint/suspicious/noExplicitAny: `$` is untyped, as a mod sees it
  return { $: made.dollar as any, timers: made.timers, lines }
}

describe('$.fs', () => {
  it('resolves relative paths against the workspace, writes atomically with parents, lists and stats', async () => {
    const ws = tempDir()
    const { $ } = dollarFor(ws)
    await $.fs.write('deep/dir/a.json', '{"a":1}')
    expect(readFileSync(join(ws, 'deep/dir/a.json'), 'utf8')).toBe('{"a":1}')
    expect(await $.fs.read('deep/dir/a.json')).toBe('{"a":1}')
    expect(await $.fs.exists('deep/dir/a.json')).toBe(true)
    expect(await $.fs.exists('nope')).toBe(false)
    expect(await $.fs.list('deep/dir')).toEqual(['a.json'])
    expect(await $.fs.stat('deep')).toMatchObject({ type: 'directory' })
    expect(await $.fs.stat('deep/dir/a.json')).toMatchObject({ type: 'file', size: 7 })
  })
  it('overlapping writes of one path land in call order: the last call wins', async () => {
    const ws = tempDir()
    const { $ } = dollarFor(ws)
    // a large first write and a tiny second one: unordered, the first rename tends to land last
    const texts = ['x'.repeat(2 * 1024 * 1024), ...Array.from({ length: 20 }, (_, i) => `v${i}`)]
    await Promise.all(texts.map((t) => $.fs.write('same.txt', t)))
    expect(readFileSync(join(ws, 'same.txt'), 'utf8')).toBe('v19')
  })
  it('refuses over 4 MiB and network paths', async () => {
    const { $ } = dollarFor(tempDir())
    await expect($.fs.write('big', 'x'.repeat(4 * 1024 * 1024 + 1))).rejects.toThrow('over the 4 MiB limit')
    await expect($.fs.read('//host/share/x')).rejects.toThrow('network path refused')
  })
  it('is frozen; an unknown method throws TypeError when called', () => {
    const { $ } = dollarFor(tempDir())
    expect(Object.isFrozen($)).toBe(true)
    expect(() => $.ui.render()).toThrow(TypeError)
  })
})

describe('$.session, $.env, $.ui, $.plugin', () => {
  it('reports the host and the session', async () => {
    const ws = tempDir()
    const { $, lines } = dollarFor(ws)
    expect(await $.session.version()).toEqual({ version: '9.9.9', host: 'tack' })
    expect(await $.session.id()).toBe('s1')
    expect(await $.session.cwd()).toBe(ws)
    expect(await $.session.usage()).toEqual({
      startedAt: 1,
      context: { tokens: 42 },
      rateLimits: [],
      cost: null,
    })
    expect(await $.env.get('SOME_VAR')).toBe('v')
    expect($.ui.log('hello', { a: 1 })).toBeUndefined()
    expect(lines).toEqual(['hello {"a":1}'])
    expect($.plugin).toEqual({ name: 'm', root: ws })
  })
})

describe('$.store', () => {
  it('keeps JSON values per mod in the data folder, across instances', async () => {
    const dataDir = tempDir()
    const a = dollarFor(tempDir(), dataDir).$
    await a.store.set('count', { n: 1 })
    const b = dollarFor(tempDir(), dataDir).$
    expect(await b.store.get('count')).toEqual({ n: 1 })
    expect(await b.store.keys()).toEqual(['count'])
    await b.store.delete('count')
    expect(await a.store.get('count')).toBeUndefined()
    expect(existsSync(join(dataDir, 'mod-store', 'm.json'))).toBe(true)
    await expect(a.store.set('bad', () => 1)).rejects.toThrow('not JSON')
  })
})

describe('$.process.run', () => {
  it('runs argv without a shell in the workspace; times out', async () => {
    const ws = tempDir()
    const { $ } = dollarFor(ws)
    const r = await $.process.run(['sh', '-c', 'pwd; echo "$1" >&2', 'x', '$(touch pwned) ; echo'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout.trim()).toBe(ws)
    expect(r.stderr.trim()).toBe('$(touch pwned) ; echo')
    expect(existsSync(join(ws, 'pwned'))).toBe(false)
    const slow = await $.process.run(['sleep', '5'], { timeoutMs: 100 })
    expect(slow.exitCode).not.toBe(0)
    await expect($.process.run(['true'], { timeoutMs: 11 * 60_000 })).rejects.toThrow('timeoutMs')
  })
})

describe('$.clock', () => {
  it('after/every fire, cancel works, and every timer ends with the instance', async () => {
    const { $, timers, lines } = dollarFor(tempDir())
    let ticks = 0
    const every = await $.clock.every(5, () => {
      ticks++
      if (ticks === 1) throw new Error('tick failed')
    })
    const fired: string[] = []
    await $.clock.after(5, () => fired.push('after'))
    const cancelled = await $.clock.after(5, () => fired.push('cancelled'))
    cancelled.cancel()
    await new Promise((r) => setTimeout(r, 40))
    expect(fired).toEqual(['after'])
    expect(ticks).toBeGreaterThan(1) // a throwing callback keeps its schedule
    expect(lines[0]).toContain('tick failed')
    timers.dispose()
    const at = ticks
    await new Promise((r) => setTimeout(r, 30))
    expect(ticks).toBe(at)
    every.cancel()
  })
})

describe("$.env.get('TACK_HOME') in tack (docs/decisions/0015-tack-home.md)", () => {
  it("is tack's home as tack resolved it: a relative TACK_HOME arrives absolute", async () => {
    const out = join(tempDir(), 'home-seen')
    const dir = writeMod({
      name: 'home-probe',
      source: `const { writeFileSync } = globalThis.process.getBuiltinModule('node:fs') // a test probe
      export function register(on) {
        on('session.start', async ($, e, next) => { writeFileSync(${JSON.stringify(out)}, String(await $.env.get('TACK_HOME'))); return next(e) })
      }`,
    })
    const before = process.env.TACK_HOME
    process.env.TACK_HOME = 'relative-tack-home'
    try {
      const s = await modSession([{ dir }], [text('x')])
      await s.agent.send({ content: 'go', source: { kind: 'user' } })
      await s.dispose()
    } finally {
      if (before === undefined) delete process.env.TACK_HOME
      else process.env.TACK_HOME = before
    }
    expect(readFileSync(out, 'utf8')).toBe(join(process.cwd(), 'relative-tack-home'))
  })
})

describe('timers end with the session (requirement 11)', () => {
  let s: ModSession | undefined
  afterEach(async () => s?.dispose())
  it('an every() timer stops when the session is disposed', async () => {
    const out = tempDir()
    const file = join(out, 'ticks')
    const dir = writeMod({
      name: 'ticker',
      source: `const { appendFileSync } = globalThis.process.getBuiltinModule('node:fs') // a test probe
      export function register(on) {
        on('session.start', async ($, e, next) => { await $.clock.every(5, () => appendFileSync(${JSON.stringify(file)}, '.')); return next(e) })
      }`,
    })
    s = await modSession([{ dir }], [text('x')])
    await s.agent.send({ content: 'go', source: { kind: 'user' } })
    await new Promise((r) => setTimeout(r, 30))
    await s.dispose()
    s = undefined
    const at = readFileSync(file, 'utf8').length
    expect(at).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 40))
    expect(readFileSync(file, 'utf8').length).toBe(at)
  })
})
