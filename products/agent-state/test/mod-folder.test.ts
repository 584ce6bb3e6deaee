// R1, R2: the shipped mod folder — Claude Code's documented manifest shape, the module's export, no
// TypeScript, the build up to date — and the mod-runtime discipline, by scanning the source as Claude
// Code's loader does before it loads a module.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import Ajv2020 from 'ajv/dist/2020.js'
import { describe, expect, test } from 'vitest'
import { SUPPORTED_EVENTS } from '@tack/mods'

const PKG = join(import.meta.dirname, '..')
const MOD = join(PKG, 'mod')
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)],
  )

/** `.claude-plugin/plugin.json` as the reference documents it (§5 "Layout of a mod folder"). */
const MANIFEST_SHAPE = {
  type: 'object',
  required: ['name', 'version', 'description'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
    description: { type: 'string', minLength: 1 },
    userConfig: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { enum: ['string', 'number', 'boolean'] },
          title: { type: 'string' },
          description: { type: 'string' },
          required: { type: 'boolean' },
          default: {},
        },
        additionalProperties: false,
      },
    },
    types: { type: 'string' },
    dependencies: {},
    engines: { type: 'object', properties: { 'claude-code': { type: 'string' } } },
    network: { type: 'object', properties: { hosts: { type: 'array', items: { type: 'string' } } } },
  },
}

describe('R1 mod folder', () => {
  const manifest = JSON.parse(readFileSync(join(MOD, '.claude-plugin', 'plugin.json'), 'utf8'))

  test('plugin.json has Claude Code’s documented manifest shape, engines and the one outputDir option', () => {
    const validate = new Ajv2020({ strict: false }).compile(MANIFEST_SHAPE)
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true)
    expect(manifest.name).toBe('agent-state')
    expect(manifest.engines).toEqual({ 'claude-code': '>=2.1.287' })
    expect(Object.keys(manifest.userConfig)).toEqual(['outputDir'])
    expect(manifest.userConfig.outputDir).toMatchObject({ type: 'string', required: false })
  })

  test('hooks.json names one module, resolved from hooks/, which exports register', async () => {
    const hooks = JSON.parse(readFileSync(join(MOD, 'hooks', 'hooks.json'), 'utf8'))
    expect(hooks).toEqual({ modules: ['./register.js'] })
    const mod = await import(new URL('../mod/hooks/register.js', import.meta.url).href)
    expect(typeof mod.register).toBe('function')
  })

  test('mod/ holds no .ts file, and mod/hooks is the current build of src/mod', () => {
    expect(walk(MOD).filter((f) => /\.[mc]?tsx?$/.test(f))).toEqual([])
    const check = spawnSync(process.execPath, [join(PKG, 'scripts', 'build-mod.ts'), '--check'], {
      encoding: 'utf8',
    })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })

  test('agent-state plugin-dir prints the folder', () => {
    const r = spawnSync(process.execPath, [join(PKG, 'bin', 'agent-state.js'), 'plugin-dir'], {
      encoding: 'utf8',
    })
    expect(r.stdout).toBe(`${MOD}\n`)
  })
})

describe('R2 mod-runtime discipline (source scan)', () => {
  const shipped = walk(join(MOD, 'hooks')).filter((f) => f.endsWith('.js'))
  const sources = readdirSync(join(PKG, 'src', 'mod')).map((n) => join(PKG, 'src', 'mod', n))
  const files = [...shipped, ...sources].map((f) => ({
    name: relative(PKG, f),
    text: readFileSync(f, 'utf8'),
  }))
  // comments may mention anything; the scan reads code
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

  test('no Node built-ins, require, dynamic import, timers, console or process globals', () => {
    const banned = [
      /\brequire\s*\(/,
      /\bimport\s*\(/,
      /\b(setTimeout|setInterval|setImmediate|clearTimeout|clearInterval)\b/,
      /\bconsole\./,
      /(?<!\$\.)\bprocess\./,
      /\bBuffer\b/,
      /\bglobalThis\b/,
      /\beval\b|new Function/,
    ]
    for (const f of files)
      for (const re of banned) expect(re.test(code(f.text)), `${f.name}: ${re}`).toBe(false)
  })

  test('imports are static relative ones, or type-only from claude-code', () => {
    for (const f of files) {
      for (const m of code(f.text).matchAll(/\bimport\b([^'"]*?)from\s*['"]([^'"]+)['"]/g)) {
        const typeOnly = /^\s*type\b/.test(m[1])
        const ok = m[2].startsWith('./') || (typeOnly && m[2] === 'claude-code')
        expect(ok, `${f.name}: import from ${m[2]}`).toBe(true)
      }
    }
  })

  test('host calls are $.noun.method(, and $.env.get takes only HOME or TACK_HOME', () => {
    for (const f of files) {
      const text = code(f.text)
      for (const m of text.matchAll(/\$\.[^\s]*/g))
        expect(/^\$\.[a-z]+\.[a-zA-Z]+\(/.test(m[0]), `${f.name}: ${m[0]}`).toBe(true)
      for (const m of text.matchAll(/\$\.env\.get\(([^)]*)\)/g))
        expect(["'HOME'", "'TACK_HOME'"], `${f.name}: $.env.get(${m[1]})`).toContain(m[1])
    }
  })

  test('helpers taking $ are top-level function declarations; hooks are registered once, by literal name', () => {
    const register = code(readFileSync(join(MOD, 'hooks', 'register.js'), 'utf8'))
    for (const line of register.split('\n')) {
      const takesDollar = /\(_?\$[^()]*\)\s*=>/.test(line) || /function[\s*]*\w*\s*\(_?\$[,)]/.test(line)
      if (!takesDollar) continue
      const hook = /^\s{2}on\('[A-Za-z.]+', async (function\* )?\(\$, e, next\)/.test(line)
      const helper = /^(export )?(async )?function \w+\(_?\$[,)]/.test(line)
      expect(hook || helper, line).toBe(true)
    }
    // Claude Code 2.1.332 loads only a const bound to a function expression (it refused `createRegister()`)
    expect(register).toMatch(/^export const register = \(on\s*, options\s*\)\s*=>/m)
    const events = [...register.matchAll(/\bon\(([^,]*),/g)].map((m) => m[1])
    expect(events.every((e) => /^'[A-Za-z.]+'$/.test(e))).toBe(true)
    expect(new Set(events).size).toBe(events.length)
    // The mod hooks every event tack's host raises (each feeds a state or signal of 70-agent-state.md),
    // and nothing else, so it loads unchanged in tack.
    expect(events.sort()).toEqual(SUPPORTED_EVENTS.map((e) => `'${e}'`).sort())
  })

  test('nothing calls $.ui or $.telemetry (R19)', () => {
    for (const f of files) expect(/\$\.(ui|telemetry)\./.test(code(f.text)), f.name).toBe(false)
  })
})
