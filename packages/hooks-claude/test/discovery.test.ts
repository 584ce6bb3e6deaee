// B1 discovery and sources, B2 environment, B4 serial runs, B11 skipping owned entries, list().
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { isWorkspaceTrusted, trustWorkspace } from '@tack/kernel/workspace-trust'
import { listClaudeHooks } from '../src/index.ts'
import { bridgeAgent, hook, prompt, script, tempDir, writeSettings } from './helpers.ts'

const lines = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n')

describe('B1 discovery', () => {
  it('B1 user, project and local settings are discovered and merged in that order; no tack configuration needed', async () => {
    const home = await tempDir()
    const cwd = await tempDir()
    await writeSettings(
      join(home, '.claude', 'settings.json'),
      hook('UserPromptSubmit', 'echo user >> order.txt'),
    )
    await writeSettings(
      join(cwd, '.claude', 'settings.json'),
      hook('UserPromptSubmit', 'echo project >> order.txt'),
    )
    await writeSettings(
      join(cwd, '.claude', 'settings.local.json'),
      hook('UserPromptSubmit', 'echo local >> order.txt'),
    )
    const t = await bridgeAgent({ home, cwd, script: [text('ok')] })
    try {
      await t.agent.send(prompt('go'))
      expect(await lines(join(cwd, 'order.txt'))).toEqual(['user', 'project', 'local'])
    } finally {
      await t.dispose()
    }
  })

  it('B1 discover: false reads only configured sources; sources are relative to the process cwd', async () => {
    const home = await tempDir()
    const cwd = await tempDir()
    const elsewhere = await tempDir()
    await writeSettings(join(home, '.claude', 'settings.json'), hook('UserPromptSubmit', 'touch user-ran'))
    const configured = await writeSettings(
      join(elsewhere, 'team.json'),
      hook('UserPromptSubmit', 'touch team-ran'),
    )
    const t = await bridgeAgent({
      home,
      cwd,
      bridge: { discover: false, sources: [{ path: relative(process.cwd(), configured) }] },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(existsSync(join(cwd, 'user-ran'))).toBe(false)
      expect(existsSync(join(cwd, 'team-ran'))).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('B1 an unreadable or malformed source is skipped with a warning naming it; boot goes on', async () => {
    const cwd = await tempDir()
    const dir = await tempDir()
    const broken = join(dir, 'broken.json')
    await writeFile(broken, '{ "hooks": ')
    const good = await writeSettings(join(dir, 'good.json'), hook('UserPromptSubmit', 'touch good-ran'))
    await mkdir(join(cwd, '.claude'))
    await writeFile(join(cwd, '.claude', 'settings.json'), '[1, 2]')
    const t = await bridgeAgent({
      cwd,
      bridge: { sources: [{ path: join(dir, 'missing.json') }, { path: broken }, { path: good }] },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(existsSync(join(cwd, 'good-ran'))).toBe(true)
      const warnings = t.warnings()
      expect(warnings.some((w) => w.includes(join(dir, 'missing.json')) && w.includes('ENOENT'))).toBe(true)
      expect(warnings.some((w) => w.includes(broken) && w.includes('invalid JSON'))).toBe(true)
      expect(
        warnings.some(
          (w) => w.includes(join(cwd, '.claude', 'settings.json')) && w.includes('not a JSON object'),
        ),
      ).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('B1 an identical handler in two settings files runs once; a plugin copy stays separate', async () => {
    const home = await tempDir()
    const cwd = await tempDir()
    const pluginRoot = await tempDir()
    const same = hook('UserPromptSubmit', 'echo ran >> count.txt')
    await writeSettings(join(home, '.claude', 'settings.json'), same)
    await writeSettings(join(cwd, '.claude', 'settings.json'), same)
    const pluginHooks = await writeSettings(join(pluginRoot, 'hooks', 'hooks.json'), same, {
      description: 'plugin',
    })
    const t = await bridgeAgent({
      home,
      cwd,
      bridge: { sources: [{ path: pluginHooks, pluginRoot }] },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(await lines(join(cwd, 'count.txt'))).toEqual(['ran', 'ran'])
    } finally {
      await t.dispose()
    }
  })

  it('B1 disableAllHooks in a settings source disables settings hooks, not plugin hooks; other types and powershell are skipped with a warning', async () => {
    const home = await tempDir()
    const cwd = await tempDir()
    const pluginRoot = await tempDir()
    await writeSettings(join(home, '.claude', 'settings.json'), hook('UserPromptSubmit', 'touch user-ran'))
    await writeSettings(join(cwd, '.claude', 'settings.local.json'), {}, { disableAllHooks: true })
    const pluginHooks = await writeSettings(join(pluginRoot, 'hooks.json'), {
      UserPromptSubmit: [
        {
          hooks: [
            { type: 'command', command: 'touch plugin-ran' },
            { type: 'http', url: 'http://localhost:1' },
            { type: 'command', command: 'Write-Host hi', shell: 'powershell' },
          ],
        },
      ],
    })
    const t = await bridgeAgent({
      home,
      cwd,
      bridge: { sources: [{ path: pluginHooks, pluginRoot }] },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(existsSync(join(cwd, 'user-ran'))).toBe(false)
      expect(existsSync(join(cwd, 'plugin-ran'))).toBe(true)
      expect(t.warnings().filter((w) => w.includes('skipped, '))).toHaveLength(2)
      const listed = t.ctx.hooksClaude.list(cwd)
      expect(listed.map((h) => [h.sourceKind, h.runs, h.why?.split(' ')[0]])).toEqual([
        ['user', false, 'disableAllHooks'],
        ['plugin', true, undefined],
        ['plugin', false, 'type'],
        ['plugin', false, 'shell'],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('B1 project hooks run only in a trusted workspace (tack trust) or with assumeTrusted; headless too', async () => {
    const cwd = await tempDir()
    const tackHome = await tempDir()
    const dataDir = await tempDir()
    await writeSettings(
      join(cwd, '.claude', 'settings.json'),
      hook('UserPromptSubmit', 'echo ran >> ran.txt'),
    )
    const run = async (assumeTrusted: boolean) => {
      const t = await bridgeAgent({ cwd, bridge: { assumeTrusted, tackHome, dataDir }, script: [text('ok')] })
      try {
        await t.agent.send(prompt('go'))
        // the CLI says once per run what an untrusted workspace held back: no bridge warning
        expect(t.warnings()).toEqual([])
        return t.ctx.hooksClaude.list(cwd)[0]
      } finally {
        await t.dispose()
      }
    }
    const untrusted = await run(false)
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false)
    expect(untrusted.runs).toBe(false)
    expect(untrusted.why).toMatch(/not trusted: run `tack trust`/)
    expect((await run(true)).runs).toBe(true)
    expect(await lines(join(cwd, 'ran.txt'))).toEqual(['ran'])
    // The bridge's data folder is no trust store: only tack's home (where `tack trust` writes) counts.
    trustWorkspace(cwd, dataDir)
    expect((await run(false)).runs).toBe(false)
    trustWorkspace(cwd, tackHome)
    expect(isWorkspaceTrusted(cwd, tackHome)).toBe(true)
    expect((await run(false)).runs).toBe(true)
    expect(await lines(join(cwd, 'ran.txt'))).toEqual(['ran', 'ran'])
  })

  it('B1 the CLI helper listClaudeHooks: rows, trust, and a row for a broken file with its line and column', async () => {
    const cwd = await tempDir()
    const home = await tempDir()
    const tackHome = await tempDir()
    await writeSettings(
      join(cwd, '.claude', 'settings.json'),
      hook('PreToolUse', 'guard.sh', { matcher: 'Bash', args: ['--strict'] }),
    )
    const rows = () => listClaudeHooks({ cwd, tackHome, env: { HOME: home } })
    expect(rows()).toEqual([
      expect.objectContaining({
        dialect: 'claude',
        event: 'PreToolUse',
        matcher: 'Bash',
        command: 'guard.sh "--strict"',
        willRun: false,
      }),
    ])
    trustWorkspace(cwd, tackHome)
    expect(rows()[0]).toMatchObject({ willRun: true })
    expect(listClaudeHooks({ cwd, tackHome, env: { HOME: home }, settings: { discover: false } })).toEqual([])
    await writeFile(join(cwd, '.claude', 'settings.local.json'), '{\n  "hooks": {,}\n}\n')
    expect(rows()[0]).toMatchObject({
      event: '(file)',
      source: join(cwd, '.claude', 'settings.local.json'),
      willRun: false,
      broken: true,
      why: expect.stringContaining('invalid JSON at line 2, column 13'),
    })
  })
})

describe('B2 environment', () => {
  it('B2 with no projectDir, echo $CLAUDE_PROJECT_DIR prints the session workspace; the brace forms are substituted in command and args', async () => {
    const pluginRoot = await tempDir()
    await script(
      pluginRoot,
      'show.sh',
      'printf "%s|%s|%s\\n" "$1" "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" >> plugin.txt',
    )
    const pluginHooks = await writeSettings(join(pluginRoot, 'hooks', 'hooks.json'), {
      UserPromptSubmit: [
        {
          hooks: [
            // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's own placeholder syntax, substituted by the bridge
            { type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/show.sh', args: ['${CLAUDE_PROJECT_DIR}/x'] },
          ],
        },
      ],
    })
    const t = await bridgeAgent({
      projectHooks: hook(
        'UserPromptSubmit',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's own placeholder syntax, substituted by the bridge
        'echo "$CLAUDE_PROJECT_DIR" > env.txt; echo "${CLAUDE_PROJECT_DIR}" >> env.txt',
      ),
      bridge: { sources: [{ path: pluginHooks, pluginRoot }] },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(await lines(join(t.cwd, 'env.txt'))).toEqual([t.cwd, t.cwd])
      const [arg, root, data] = (await lines(join(t.cwd, 'plugin.txt')))[0].split('|')
      expect(arg).toBe(`${t.cwd}/x`)
      expect(root).toBe(pluginRoot)
      expect(data.startsWith(join(t.dataDir, 'claude-plugins'))).toBe(true)
      expect(existsSync(data)).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('B2 a configured projectDir is CLAUDE_PROJECT_DIR; the hook still runs in the workspace', async () => {
    const projectDir = await tempDir()
    const t = await bridgeAgent({
      projectHooks: hook('UserPromptSubmit', 'echo "$CLAUDE_PROJECT_DIR:$(pwd)" > env.txt'),
      bridge: { projectDir },
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(await lines(join(t.cwd, 'env.txt'))).toEqual([`${projectDir}:${t.cwd}`])
    } finally {
      await t.dispose()
    }
  })
})

describe('B4 serial runs', () => {
  it('B4 matching hooks run one at a time in config order, all of them even after a block; invoked/result alternate', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        UserPromptSubmit: [
          {
            hooks: [
              { type: 'command', command: 'sleep 0.2; echo first >> order.txt' },
              { type: 'command', command: 'echo second >> order.txt; echo blocked >&2; exit 2' },
              { type: 'command', command: 'echo third >> order.txt' },
            ],
          },
        ],
      },
    })
    try {
      await t.agent.send(prompt('go'))
      expect(await lines(join(t.cwd, 'order.txt'))).toEqual(['first', 'second', 'third'])
      expect(t.types().filter((x) => x.startsWith('hook/'))).toEqual([
        'hook/invoked',
        'hook/result',
        'hook/invoked',
        'hook/result',
        'hook/invoked',
        'hook/result',
      ])
      const ids = t.of('hook/invoked').map((e) => e.data.handlerId)
      expect(ids).toEqual(
        [0, 1, 2].map((i) => `${join(t.cwd, '.claude', 'settings.json')}:UserPromptSubmit:0:${i}`),
      )
    } finally {
      await t.dispose()
    }
  })
})

describe('B11 skipping owned entries', () => {
  it('B11 a skipped handler never runs, is logged once and listed; the undo restores it', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: "node '/x/node_modules/agent-dice/hooks/agent-dice-claude-stop.js'",
              },
              { type: 'command', command: 'echo mine >> ran.txt' },
            ],
          },
        ],
      },
      script: [text('ok'), text('ok')],
    })
    try {
      const undo = t.ctx.hooksClaude.skip(
        (h) => typeof h.command === 'string' && h.command.includes('agent-dice'),
        'agent-dice runs natively in tack',
      )
      await t.agent.send(prompt('go'))
      expect(t.of('hook/invoked')).toHaveLength(1)
      const listed = t.ctx.hooksClaude.list(t.cwd)
      expect(listed.map((h) => [h.runs, h.why])).toEqual([
        [false, 'skipped: agent-dice runs natively in tack'],
        [true, undefined],
      ])
      expect(t.logs.filter((l) => l.text.includes('is skipped: agent-dice runs natively'))).toHaveLength(1)
      undo()
      expect(t.ctx.hooksClaude.list(t.cwd)[0].runs).toBe(true)
    } finally {
      await t.dispose()
    }
  })
})
