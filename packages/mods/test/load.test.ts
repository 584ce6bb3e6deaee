// Loading (65-mod-host.md requirements 1, 3, 4, 5 and 12): each broken mod fails alone with a message
// naming it and the cause, while a valid mod beside it loads; options, the source scan, on() rules
// and the capability report.
import { existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { capabilities, SUPPORTED_EVENTS, SUPPORTED_NOUNS } from '../src/capabilities.ts'
import { checkModFolder } from '../src/check.ts'
import { ModsConfig } from '../src/config.ts'
import { ModHost } from '../src/host.ts'
import { loadMod } from '../src/instance.ts'
import { matches } from '../src/matcher.ts'
import { tempDir, writeMod } from './helpers.ts'

const VALID = `export function register(on) { on('turn.start', async ($, e, next) => next(e)) }`

async function hostWith(dirs: string[]) {
  const warnings: string[] = []
  const host = new ModHost({
    config: ModsConfig.parse({}),
    env: {},
    dataDir: tempDir(),
    version: '0.0.0',
    log: () => {},
    warn: (line) => warnings.push(line),
    fault: () => {},
  })
  await host.load(dirs.map((dir) => ({ dir })))
  return { host, warnings }
}

describe('a broken mod fails alone (requirement 1)', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a missing manifest',
      () => {
        const d = tempDir()
        writeFileSync(join(d, 'x'), '')
        return d
      },
      /plugin\.json is missing/,
    ],
    [
      'bad JSON',
      () => {
        const d = writeMod({ name: 'badjson', source: VALID })
        writeFileSync(join(d, '.claude-plugin', 'plugin.json'), '{nope')
        return d
      },
      /not valid JSON/,
    ],
    [
      'two module paths',
      () => writeMod({ name: 'two', source: VALID, modules: ['./a.mjs', './b.mjs'] }),
      /exactly one path/,
    ],
    [
      'an import error',
      () => writeMod({ name: 'importer', source: `import './missing.mjs'\n${VALID}` }),
      /mod "importer": import failed/,
    ],
    [
      'a throwing register',
      () => writeMod({ name: 'thrower', source: `export function register() { throw new Error('nope') }` }),
      /mod "thrower": register\(\) threw: nope/,
    ],
    [
      'a .tsx entry',
      () => writeMod({ name: 'jsx', source: VALID, entry: 'register.tsx' }),
      /JSX\/CommonJS needs a transform/,
    ],
  ]
  for (const [label, make, message] of cases)
    it(label, async () => {
      const good = writeMod({ name: 'good', source: VALID })
      const { host, warnings } = await hostWith([make(), good])
      expect(host.list().map((m) => m.name)).toEqual(['good'])
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(message)
      expect(warnings[0]).toMatch(/^mod "/)
    })
})

describe('options (requirement 3)', () => {
  const userConfig = {
    folder: { type: 'string', default: '.state' },
    every: { type: 'number', required: true },
  }
  it('fills a default, passes a frozen object', async () => {
    const out = tempDir()
    const dir = writeMod({
      name: 'opts',
      userConfig,
      source: `const { writeFileSync } = globalThis.process.getBuiltinModule('node:fs') // a test probe
      export function register(on, options) {
        let mutated = 'no'
        try { options.folder = 'x' } catch { mutated = 'threw' }
        writeFileSync(${JSON.stringify(join(out, 'o.json'))}, JSON.stringify({ options, mutated }))
        on('turn.start', async ($, e, next) => next(e))
      }`,
    })
    await loadMod(dir, { every: 5 })
    const { readFileSync } = await import('node:fs')
    expect(JSON.parse(readFileSync(join(out, 'o.json'), 'utf8'))).toEqual({
      options: { every: 5, folder: '.state' },
      mutated: 'threw',
    })
  })
  it('rejects a wrong type and a missing required key', async () => {
    const dir = writeMod({ name: 'opts2', userConfig, source: VALID })
    await expect(loadMod(dir, { every: 'often' })).rejects.toThrow(
      'mod "opts2": option "every" must be a number',
    )
    await expect(loadMod(dir, {})).rejects.toThrow('mod "opts2": option "every" is required')
  })
})

describe('source scan (requirement 4)', () => {
  it('a noun tack lacks fails the load and lists the supported nouns', async () => {
    const dir = writeMod({
      name: 'model',
      source: `export function register(on) { on('turn.start', async ($) => $.model.complete('x')) }`,
    })
    await expect(loadMod(dir)).rejects.toThrow(
      'mod "model": $.model is not available in tack; supported nouns: fs, env, session, clock, store, ui, process, plugin',
    )
  })
  it('an unknown method on a supported noun loads (and throws TypeError when called)', async () => {
    const dir = writeMod({
      name: 'render',
      source: `export function register(on) { on('turn.start', async ($, e, next) => { $.ui.render(); return next(e) }) }`,
    })
    await expect(loadMod(dir)).resolves.toMatchObject({ events: ['turn.start'] })
  })
  it('next.to and a non-literal $.env name fail the load', async () => {
    const to = writeMod({
      name: 'to',
      source: `export function register(on) { on('turn.start', ($, e, next) => next.to(e, 'core')) }`,
    })
    await expect(loadMod(to)).rejects.toThrow('next.to() is not available in tack')
    const env = writeMod({
      name: 'env',
      source: `const n = 'HOME'\nexport function register(on) { on('turn.start', async ($, e, next) => { await $.env.get(n); return next(e) }) }`,
    })
    await expect(loadMod(env)).rejects.toThrow('$.env.get(n): the name must be a string literal')
  })
  it('tack mods check names everything a third-party mod is missing', async () => {
    const dir = writeMod({
      name: 'third',
      source: `export function register(on) {
        on('ui.render', async ($, e, next) => next(e))
        on('turn.start', async ($) => { await $.model.complete(); await $.http.fetch('x') })
      }`,
    })
    const check = await checkModFolder(dir)
    expect(check.ok).toBe(false)
    expect(check.problems).toEqual([
      expect.stringContaining('mod "third": $.model is not available in tack'),
      expect.stringContaining('mod "third": $.http is not available in tack'),
      expect.stringContaining('mod "third": on("ui.render"): tack raises no such event'),
    ])
    const ok = await checkModFolder(writeMod({ name: 'fine', source: VALID }))
    expect(ok).toMatchObject({ ok: true, name: 'fine', problems: [], scan: { events: ['turn.start'] } })
  })
})

describe('the Node boundary of Claude Code (claude-code-mods.md §1)', () => {
  it('a module that imports node:fs, a package, require() or import() does not load, naming each', async () => {
    const dir = writeMod({
      name: 'reach',
      source: `import { readFileSync } from 'node:fs'
import x from 'left-pad'
export function register(on) {
  on('turn.start', async ($, e, next) => { require('os'); await import('./y.js'); return next(e) })
}`,
    })
    await expect(loadMod(dir)).rejects.toThrow("imports 'node:fs'")
    const check = await checkModFolder(dir)
    expect(check.problems).toEqual([
      expect.stringContaining("imports 'node:fs': a mod may import only its own relative files"),
      expect.stringContaining("imports 'left-pad'"),
      expect.stringContaining('calls require()'),
      expect.stringContaining('calls import()'),
    ])
  })

  it('tack mods check runs nothing of the mod: its top-level code never executes', async () => {
    const marker = join(tmpdir(), `tack-mod-ran-${process.pid}-${Date.now()}`)
    const dir = writeMod({
      name: 'quiet',
      source: `globalThis.process?.getBuiltinModule?.('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')
export function register(on) { on('turn.start', async ($, e, next) => next(e)) }`,
    })
    expect(await checkModFolder(dir)).toMatchObject({ ok: true, problems: [] })
    expect(existsSync(marker)).toBe(false)
    const none = await checkModFolder(writeMod({ name: 'none', source: 'export const x = 1' }))
    expect(none.problems).toEqual([expect.stringContaining('exports no register function')])
  })
})

describe('on() (requirement 5)', () => {
  const load = (body: string) =>
    loadMod(writeMod({ name: 'on', source: `export function register(on) { ${body} }` }))
  it('an unknown event or an empty glob fails the whole module, naming the supported events', async () => {
    await expect(load(`on(['x'][0] + '.y', async () => ({}))`)).rejects.toThrow(
      /mod "on": on\("x\.y"\): tack raises no such event; supported events: session\.start, /,
    )
    await expect(load(`const p = 'agent' + '.*'; on(p, async () => ({}))`)).rejects.toThrow('on("agent.*")')
  })
  it('globs, * and negation select supported events', async () => {
    const m = await load(`on('tool.*', async ($, e, n) => n(e)); on('!tool.*', async ($, e, n) => n(e))`)
    expect(m.events.sort()).toEqual([...capabilities().events].sort())
  })
  it('a pattern twice without a matcher fails; with a matcher it is fine', async () => {
    await expect(
      load(`on('turn.start', async () => ({})); on('turn.start', async () => ({}))`),
    ).rejects.toThrow('on("turn.start") registered twice')
    await expect(
      load(`on('turn.start', {}, async () => ({})); on('turn.start', async () => ({}))`),
    ).resolves.toBeDefined()
  })
  it('a second .catch throws; on() after register returned throws', async () => {
    await expect(
      load(`on('turn.start', async () => ({})).catch(() => ({})).catch(() => ({}))`),
    ).rejects.toThrow('already has a .catch()')
    await expect(
      load(
        `setTimeout(() => { try { on('turn.start', async () => ({})) } catch (e) { globalThis.__lateOn = e.message } }, 0)`,
      ),
    ).resolves.toBeDefined()
    await new Promise((r) => setTimeout(r, 20))
    expect((globalThis as { __lateOn?: string }).__lateOn).toContain('on() after register() returned')
  })
  it('matchers: partial at any depth, RegExp on String(value), arrays any-of, plugin ignored', () => {
    const e = { tool: 'Edit', input: { file_path: '/a/b.ts', n: 3 } }
    expect(matches({ tool: /^(Edit|Write)$/ }, e)).toBe(true)
    expect(matches({ tool: /^(Edit|Write)$/ }, { ...e, tool: 'Bash' })).toBe(false)
    expect(matches({ input: { file_path: /\.ts$/, n: 3 } }, e)).toBe(true)
    expect(matches({ tool: ['Read', 'Edit'] }, e)).toBe(true)
    expect(matches({ plugin: 'someone-else', tool: 'Edit' }, e)).toBe(true)
    expect(matches({ input: { n: 4 } }, e)).toBe(false)
  })
})

describe('capabilities (requirement 12)', () => {
  it('reports the tables of requirements 10 and 11 (SUPPORTED_EVENTS, SUPPORTED_NOUNS) as copies a caller may change', () => {
    const report = capabilities()
    expect(report).toEqual({ events: SUPPORTED_EVENTS, nouns: SUPPORTED_NOUNS })
    report.events.push('not.an.event')
    report.nouns.fs?.push('not-a-method')
    expect(capabilities()).toEqual({ events: SUPPORTED_EVENTS, nouns: SUPPORTED_NOUNS })
    expect(SUPPORTED_NOUNS.fs).not.toContain('not-a-method')
  })
})

describe('ModsConfig (requirement 9)', () => {
  it('defaults the budgets, takes configured ones, rejects out-of-range ones and bad mod lists', () => {
    expect(ModsConfig.parse({})).toMatchObject({
      mods: [],
      hookBudgetMs: 10_000,
      catchBudgetMs: 1_000,
      promptEditBudgetMs: 50,
      sessionEndBudgetMs: 1_500,
    })
    expect(ModsConfig.parse({ hookBudgetMs: 250, mods: [{ dir: 'm', options: { a: 1 } }] })).toMatchObject({
      hookBudgetMs: 250,
      mods: [{ dir: 'm', options: { a: 1 } }],
    })
    expect(() => ModsConfig.parse({ catchBudgetMs: 0 })).toThrow('catchBudgetMs')
    expect(() => ModsConfig.parse({ sessionEndBudgetMs: 60_001 })).toThrow('sessionEndBudgetMs')
    expect(() => ModsConfig.parse({ mods: [{ dir: '' }] })).toThrow('mods')
    expect(() => ModsConfig.parse({ mods: [{ dir: 'x', extra: 1 }] })).toThrow('mods')
  })
})
