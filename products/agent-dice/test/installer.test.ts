import { createHash } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../src/cli/run.ts'
import { canonicalEntry, hookFilePath } from '../src/install/targets.ts'
import { NODE, PACKAGE_ROOT, tempDir } from './helpers.ts'

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

async function cli(argv: string[], env: Record<string, string | undefined>) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    env: { PATH: '', ...env },
    cwd: tempDir(),
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
  })
  return { code, stdout, stderr }
}

const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'))

interface Target {
  name: 'claude' | 'codex'
  setup(): { env: Record<string, string>; config: string; base: string; root: string }
}

const TARGETS: Target[] = [
  {
    name: 'claude',
    setup() {
      const home = tempDir()
      const root = join(home, '.claude')
      return { env: { HOME: home }, config: join(root, 'settings.json'), base: join(root, 'dice'), root }
    },
  },
  {
    name: 'codex',
    setup() {
      const home = tempDir()
      const root = join(tempDir(), 'codex-home')
      mkdirSync(root)
      return {
        env: { HOME: home, CODEX_HOME: root },
        config: join(root, 'hooks.json'),
        base: join(root, 'dice'),
        root,
      }
    },
  },
]

const stop = (t: Target['name']) => canonicalEntry(t, 'Stop')
const start = (t: Target['name']) => canonicalEntry(t, 'SessionStart')

for (const target of TARGETS) {
  const t = target.name
  describe(`R26 installer: ${t}`, () => {
    it(`R26 ${t}: a new file gets the canonical entries (timeout 10); a second install is byte-identical`, async () => {
      const { env, config } = target.setup()
      const first = await cli(['install', t], env)
      expect(first.code).toBe(0)
      expect(read(config)).toEqual({
        hooks: { Stop: [{ hooks: [stop(t)] }], SessionStart: [{ hooks: [start(t)] }] },
      })
      expect(stop(t)).toEqual({
        type: 'command',
        command: `node '${hookFilePath(`${t}-stop`)}'`,
        timeout: 10,
      })
      expect(readFileSync(config, 'utf8').endsWith('}\n')).toBe(true)
      const hash = sha(config)
      const mtime = lstatSync(config).mtimeMs
      const second = await cli(['install', t], env)
      expect(second.code).toBe(0)
      expect(sha(config)).toBe(hash)
      expect(lstatSync(config).mtimeMs).toBe(mtime)
      expect((await cli(['check', t], env)).stdout).toMatch(/Status: ok\n$/)
    })

    it(`R26 ${t}: drift repair rewrites the first owned entry in place, drops duplicates, keeps matchers, siblings, order and unrelated hooks; my-dice-stop.sh survives (R27 fix 11)`, async () => {
      const { env, config, root } = target.setup()
      const legacyStop =
        t === 'claude'
          ? `bun '/home/u/.claude/hooks/dice-stop.ts'`
          : `bun '${join(root, 'dice', 'codex-stop.ts')}'`
      const input = {
        model: 'keep-me',
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
          Stop: [
            {
              matcher: '*',
              description: 'mine',
              hooks: [
                { type: 'command', command: 'echo first' },
                { type: 'command', command: legacyStop },
                { type: 'command', command: 'echo after' },
              ],
            },
            {
              hooks: [{ type: 'command', command: 'node /old/place/agent-dice-claude-stop.js', timeout: 30 }],
            },
            { hooks: [{ type: 'command', command: '/usr/local/bin/my-dice-stop.sh' }] },
          ],
        },
      }
      mkdirSync(root, { recursive: true })
      writeFileSync(config, JSON.stringify(input))
      expect((await cli(['install', t], env)).code).toBe(0)
      expect(read(config)).toEqual({
        model: 'keep-me',
        hooks: {
          PreToolUse: input.hooks.PreToolUse,
          Stop: [
            {
              matcher: '*',
              description: 'mine',
              hooks: [
                { type: 'command', command: 'echo first' },
                stop(t),
                { type: 'command', command: 'echo after' },
              ],
            },
            { hooks: [{ type: 'command', command: '/usr/local/bin/my-dice-stop.sh' }] },
          ],
          SessionStart: [{ hooks: [start(t)] }],
        },
      })
    })

    it(`R26 ${t}: malformed JSON and a non-array hooks.Stop are refused and left untouched`, async () => {
      const { env, config, root } = target.setup()
      mkdirSync(root, { recursive: true })
      writeFileSync(config, '{"hooks": {')
      const r = await cli(['install', t], env)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(
        new RegExp(
          `^Error: ${config.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid JSON .*; not modified\n$`,
        ),
      )
      expect(readFileSync(config, 'utf8')).toBe('{"hooks": {')
      writeFileSync(config, '{"hooks": {"Stop": {"oops": 1}}}')
      const shape = await cli(['install', t, '--json'], env)
      expect(shape.code).toBe(1)
      expect(JSON.parse(shape.stdout).error).toEqual({
        code: 'io_error',
        message: `Error: ${config}: "hooks.Stop" is not an array; not modified`,
      })
      expect(readFileSync(config, 'utf8')).toBe('{"hooks": {"Stop": {"oops": 1}}}')
      const check = await cli(['check', t], env)
      expect(check.code).toBe(1)
      expect(check.stdout).toMatch(/^err {2}.*is not an array/m)
    })

    it(`R26 ${t}: a symlinked config file is written through to its target and the link kept`, async () => {
      const { env, config, root } = target.setup()
      mkdirSync(root, { recursive: true })
      const real = join(tempDir(), 'dotfiles-config.json')
      writeFileSync(real, '{"hooks": {}, "theme": "dark"}')
      symlinkSync(real, config)
      expect((await cli(['install', t], env)).code).toBe(0)
      expect(lstatSync(config).isSymbolicLink()).toBe(true)
      expect(readlinkSync(config)).toBe(real)
      expect(read(real).theme).toBe('dark')
      expect(read(real).hooks.Stop).toEqual([{ hooks: [stop(t)] }])
    })

    it(`R26 ${t}: check reports duplicates, missing hook files, corrupt slots.json and invalid slots`, async () => {
      const { env, config, base } = target.setup()
      await cli(['install', t], env)
      const doc = read(config)
      doc.hooks.Stop.push({ hooks: [stop(t)] })
      doc.hooks.SessionStart[0].hooks[0].command = `node '/gone/agent-dice-${t}-session-start.js'`
      writeFileSync(config, JSON.stringify(doc))
      writeFileSync(join(base, 'slots.json'), JSON.stringify({ bad: { name: 'bad', die: 0 } }))
      const r = await cli(['check', t], env)
      expect(r.code).toBe(1)
      expect(r.stdout).toMatch(/^err {2}Stop: expected exactly one canonical entry, found 2 of 2 owned/m)
      expect(r.stdout).toMatch(/^err {2}SessionStart hook file missing: \/gone\/agent-dice-/m)
      expect(r.stdout).toMatch(/^warn Invalid slot "bad": die "0"/m)
      expect(r.stdout).toMatch(/Status: errors\n$/)
      writeFileSync(join(base, 'slots.json'), '{corrupt')
      expect((await cli(['check', t], env)).stdout).toMatch(/^err {2}.*slots\.json is corrupt/m)
      await cli(['install', t], env)
      writeFileSync(join(base, 'slots.json'), JSON.stringify({ bad: { name: 'bad', die: 0 } }))
      const warned = await cli(['check', t, '--json'], env)
      expect(warned.code).toBe(0)
      expect(JSON.parse(warned.stdout).ok).toBe(true)
      expect((await cli(['check', t], env)).stdout).toMatch(/Status: warnings\n$/)
    })

    it(`R26 ${t}: another agent-dice first on PATH is a warning`, async () => {
      const { env } = target.setup()
      await cli(['install', t], env)
      const bin = tempDir()
      writeFileSync(join(bin, 'agent-dice'), '#!/bin/sh\n')
      chmodSync(join(bin, 'agent-dice'), 0o755)
      const r = await cli(['check', t], { ...env, PATH: bin })
      expect(r.stdout).toContain(`warn Another agent-dice is first on PATH: ${join(bin, 'agent-dice')}`)
      const ours = tempDir()
      symlinkSync(join(PACKAGE_ROOT, 'bin', 'agent-dice.js'), join(ours, 'agent-dice'))
      expect((await cli(['check', t], { ...env, PATH: ours })).stdout).toContain('ok   agent-dice on PATH')
    })

    it(`R26 ${t}: install stamps the marker only when it created the base; purge deletes only owned data`, async () => {
      const owned = target.setup()
      await cli(['install', t], owned.env)
      expect(existsSync(join(owned.base, '.agent-dice'))).toBe(true)
      expect(existsSync(join(owned.base, 'state'))).toBe(true)
      const purge = await cli(['uninstall', t, '--purge-data'], owned.env)
      expect(purge.code).toBe(0)
      expect(existsSync(owned.base)).toBe(false)
      expect(read(owned.config)).toEqual({ hooks: {} })

      const foreign = target.setup()
      mkdirSync(foreign.base, { recursive: true })
      writeFileSync(join(foreign.base, 'slots.json'), '{}')
      await cli(['install', t], foreign.env)
      expect(existsSync(join(foreign.base, '.agent-dice'))).toBe(false)
      const refused = await cli(['uninstall', t, '--purge-data'], foreign.env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(`Refusing to delete ${foreign.base}: not created by agent-dice\n`)
      expect(existsSync(join(foreign.base, 'slots.json'))).toBe(true)
      expect(read(foreign.config)).toEqual({ hooks: {} })
    })

    it(`R26 ${t}: uninstall removes only our entries and the groups and events it emptied`, async () => {
      const { env, config, root } = target.setup()
      mkdirSync(root, { recursive: true })
      writeFileSync(
        config,
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'other.sh' }] }] } }),
      )
      await cli(['install', t], env)
      const r = await cli(['uninstall', t], env)
      expect(r.code).toBe(0)
      expect(read(config)).toEqual({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'other.sh' }] }] },
      })
      const hash = sha(config)
      await cli(['uninstall', t], env)
      expect(sha(config)).toBe(hash)
    })

    it(`R26 ${t}: an unwritable location fails with the path and leaves nothing half-written`, async () => {
      const { env, root } = target.setup()
      const blocker = join(tempDir(), 'file')
      writeFileSync(blocker, 'not a folder')
      const broken =
        t === 'claude'
          ? { ...env, CLAUDE_CONFIG_DIR: blocker }
          : { ...env, CODEX_HOME: join(blocker, 'codex') }
      const r = await cli(['install', t], broken)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/^Error: .*(settings|hooks)\.json: .*; not modified\n$/)
      expect(
        existsSync(root) && existsSync(join(root, t === 'claude' ? 'settings.json' : 'hooks.json')),
      ).toBe(false)
    })
  })
}

describe('R26 installer: Codex roots', () => {
  it('R26 trailing-slash, symlinked and custom CODEX_HOME roots resolve to one physical root', async () => {
    const parent = tempDir()
    const real = join(parent, 'real-codex')
    mkdirSync(real)
    symlinkSync(real, join(parent, 'alias'))
    const home = tempDir()
    expect((await cli(['install', 'codex'], { HOME: home, CODEX_HOME: `${real}/` })).code).toBe(0)
    const hash = sha(join(real, 'hooks.json'))
    expect((await cli(['install', 'codex'], { HOME: home, CODEX_HOME: join(parent, 'alias') })).code).toBe(0)
    expect(sha(join(real, 'hooks.json'))).toBe(hash)
    const check = await cli(['check', 'codex', '--json'], { HOME: home, CODEX_HOME: join(parent, 'alias') })
    const out = JSON.parse(check.stdout)
    expect(out.base).toBe(join(realpathSync(real), 'dice'))
    expect(
      out.items.some(
        (i: { level: string; text: string }) =>
          i.level === 'info' && i.text.includes('--dangerously-bypass-hook-trust'),
      ),
    ).toBe(true)
  })
  it('R26 a relative CODEX_HOME is refused; the default root is ~/.codex', async () => {
    const r = await cli(['install', 'codex'], { HOME: tempDir(), CODEX_HOME: 'relative/codex' })
    expect(r.code).toBe(1)
    expect(r.stderr).toBe("Error: CODEX_HOME must be an absolute path (got 'relative/codex')\n")
    const home = tempDir()
    expect((await cli(['install', 'codex'], { HOME: home })).code).toBe(0)
    expect(read(join(home, '.codex', 'hooks.json')).hooks.Stop[0].hooks[0]).toEqual(stop('codex'))
  })
})

describe('R26 installer: Claude data compatibility', () => {
  it('R26 the cc-dice.ts facade is importable (getTranscriptPath), replaces a public checkout link, never a foreign file', async () => {
    const home = tempDir()
    const base = join(home, '.claude', 'dice')
    mkdirSync(base, { recursive: true })
    symlinkSync('/old/checkout/agent-dice/src/index.ts', join(base, 'cc-dice.ts'))
    expect((await cli(['install'], { HOME: home })).code).toBe(0)
    const facade = join(base, 'cc-dice.ts')
    expect(lstatSync(facade).isSymbolicLink()).toBe(false)
    expect(readFileSync(facade, 'utf8').split('\n')).toHaveLength(2)
    const { spawnSync } = await import('node:child_process')
    const probe = spawnSync(
      NODE,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(facade)}); console.log(typeof m.getTranscriptPath, typeof m.checkAllSlots)`,
      ],
      { encoding: 'utf8' },
    )
    expect(probe.stdout.trim()).toBe('function function')
    writeFileSync(facade, '// my own module\nexport const mine = 1\n')
    const again = await cli(['install'], { HOME: home })
    expect(again.stdout).toContain('Kept')
    expect(readFileSync(facade, 'utf8')).toBe('// my own module\nexport const mine = 1\n')
  })
  it('R26 legacy ~/.local/bin links into a public checkout are removed; other files are kept', async () => {
    const home = tempDir()
    const bin = join(home, '.local', 'bin')
    mkdirSync(bin, { recursive: true })
    symlinkSync('/home/u/.local/share/agent-dice/bin/agent-dice.ts', join(bin, 'agent-dice'))
    writeFileSync(join(bin, 'cc-dice'), '#!/bin/sh\necho mine\n')
    const r = await cli(['install'], { HOME: home })
    expect(r.stdout).toContain(`Removed legacy link: ${join(bin, 'agent-dice')}`)
    expect(existsSync(join(bin, 'agent-dice'))).toBe(false)
    expect(readFileSync(join(bin, 'cc-dice'), 'utf8')).toBe('#!/bin/sh\necho mine\n')
  })
})
