// C1: the hooks.json parser (timeouts, skipped types, dropped events, invalid regex groups, malformed
// files) and discovery (CODEX_HOME, the project layer, configured sources, failures contained).
import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { trustWorkspace } from '@tack/kernel/workspace-trust'
import { describe, expect, it } from 'vitest'
import { candidateSources, defaultCodexHome, discoverHooks } from '../src/discovery.ts'
import { NOT_FIRED_CODEX_EVENTS } from '../src/events.ts'
import { HooksFileError, parseHooksFile } from '../src/hooks-file.ts'
import { UNTRUSTED_WORKSPACE } from '../src/registry.ts'
import {
  codexAgent,
  homes,
  hookInvocations,
  hooksJson,
  tempDir,
  user,
  writeProjectHooks,
  writeUserHooks,
} from './helpers.ts'

const parse = (value: unknown) => parseHooksFile('/x/hooks.json', JSON.stringify(value))

describe('hooks.json parser', () => {
  it('C1 timeout defaults to 600 s, is at least 1 s, and accepts the alias timeoutSec', () => {
    const { entries } = parse({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b', timeout: 0 },
              { type: 'command', command: 'c', timeoutSec: 7 },
              { type: 'command', command: 'd', timeout: 30, statusMessage: 'checking' },
            ],
          },
        ],
      },
    })
    expect(entries.map((e) => [e.handler.command, e.handler.timeoutSec])).toEqual([
      ['a', 600],
      ['b', 1],
      ['c', 7],
      ['d', 30],
    ])
    expect(entries.map((e) => [e.group, e.index])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
    ])
    expect(entries[3].handler.statusMessage).toBe('checking')
    expect(entries.every((e) => e.skip === undefined)).toBe(true)
  })

  it('C1 only synchronous command hooks run: prompt, agent and async handlers are kept with a skip reason and warned', () => {
    const { entries, warnings } = parse({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'x' },
              { type: 'agent' },
              { type: 'command', command: 'x', async: true },
              { type: 'command', command: 'y' },
            ],
          },
        ],
      },
    })
    expect(entries.map((e) => e.skip === undefined)).toEqual([false, false, false, true])
    expect(entries[0].skip).toContain('"prompt" handlers are not run')
    expect(entries[2].skip).toContain('async')
    expect(warnings).toHaveLength(3)
  })

  it('C1 Codex events tack does not fire are listed as not fired with one warning each; unknown events are dropped too', () => {
    const { entries, warnings } = parse({
      hooks: {
        SessionEnd: [{ hooks: [{ type: 'command', command: 'a' }] }],
        StopFailure: [
          {
            hooks: [
              { type: 'command', command: 'b' },
              { type: 'command', command: 'c' },
            ],
          },
        ],
        Bogus: [{ hooks: [{ type: 'command', command: 'd' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'e' }] }],
      },
    })
    expect(entries.map((e) => [e.event, e.skip === undefined])).toEqual([
      ['SessionEnd', false],
      ['StopFailure', false],
      ['StopFailure', false],
      ['Bogus', false],
      ['SessionStart', true],
    ])
    expect(warnings).toEqual([
      `/x/hooks.json: hooks.SessionEnd dropped: not fired by tack: ${NOT_FIRED_CODEX_EVENTS.SessionEnd}`,
      `/x/hooks.json: hooks.StopFailure dropped: not fired by tack: ${NOT_FIRED_CODEX_EVENTS.StopFailure}`,
      '/x/hooks.json: hooks.Bogus dropped: Bogus is not a Codex hook event',
    ])
  })

  it('C1 an invalid regex skips its whole group (warned); events that ignore matchers do not validate them', () => {
    const { entries, warnings } = parse({
      hooks: {
        PreToolUse: [
          {
            matcher: '(',
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b' },
            ],
          },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'c' }] },
        ],
        Stop: [{ matcher: '(', hooks: [{ type: 'command', command: 'd' }] }],
      },
    })
    expect(entries.map((e) => [e.handler.command, e.skip !== undefined])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', false],
    ])
    expect(warnings).toEqual(['/x/hooks.json: hooks.PreToolUse[0] skipped: invalid matcher regex "("'])
  })

  it('C1 a malformed file is rejected as a whole with the key path', () => {
    const cases: Array<[string, RegExp]> = [
      ['{"hooks": ', /invalid JSON at line 1, column 11/],
      ['[]', /\(root\): expected an object/],
      ['{"hooks": []}', /hooks: expected an object/],
      ['{"hooks": {"Stop": {}}}', /hooks\.Stop: expected a list/],
      ['{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}', /hooks\.Stop\[0\]\.hooks\[0\]\.command/],
      ['{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1.5}]}]}}', /timeout/],
      ['{"hooks": {"Stop": [{"matcher": 3, "hooks": []}]}}', /matcher: expected a string/],
    ]
    for (const [textValue, message] of cases) {
      expect(() => parseHooksFile('/x/hooks.json', textValue)).toThrow(HooksFileError)
      expect(() => parseHooksFile('/x/hooks.json', textValue)).toThrow(message)
    }
    expect(parseHooksFile('/x/hooks.json', '{"description": "nothing yet"}').entries).toEqual([])
  })
})

describe('discovery', () => {
  it('C1 defaults: CODEX_HOME else ~/.codex', () => {
    expect(defaultCodexHome({ CODEX_HOME: '/opt/codex' })).toBe('/opt/codex')
    expect(defaultCodexHome({ HOME: '/h' })).toMatch(/\.codex$/)
  })

  it('C1 reads the user layer, the project layer, then configured sources; a file named twice is read once', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'user' }] }))
    await writeProjectHooks(h.projectDir, hooksJson({ Stop: [{ command: 'project' }] }))
    const extra = join(h.work, 'extra.json')
    await writeFile(extra, JSON.stringify(hooksJson({ Stop: [{ command: 'extra' }] })))
    await symlink(extra, join(h.work, 'alias.json'))
    const opts = {
      sources: [extra, join(h.work, 'alias.json')],
      discover: true,
      codexHome: h.codexHome,
      projectDir: h.projectDir,
    }
    expect(candidateSources(opts).map((s) => s.kind)).toEqual(['user', 'project', 'config', 'config'])
    const found = await discoverHooks(opts)
    expect(found.entries.map((e) => e.handler.command)).toEqual(['user', 'project', 'extra'])
    expect(found.sources.map((s) => s.kind)).toEqual(['user', 'project', 'config'])
    expect(found.warnings).toEqual([])
    const without = await discoverHooks({ ...opts, discover: false })
    expect(without.entries.map((e) => e.handler.command)).toEqual(['extra'])
  })

  it('C1 missing discovered files are silent; a missing or malformed configured source is skipped with a warning', async () => {
    const h = await homes()
    const bad = join(h.work, 'bad.json')
    await writeFile(bad, '{\n  nope')
    const found = await discoverHooks({
      sources: [join(h.work, 'missing.json'), bad],
      discover: true,
      codexHome: h.codexHome,
      projectDir: h.projectDir,
    })
    expect(found.entries).toEqual([])
    expect(found.warnings).toHaveLength(2)
    expect(found.warnings[0]).toContain(join(h.work, 'missing.json'))
    expect(found.warnings[1]).toBe(
      `${bad}: invalid JSON at line 2, column 3: expected a property name in double quotes, found "n" — its hooks are not run until it is fixed`,
    )
    expect(found.problems.map((p) => p.path)).toEqual([join(h.work, 'missing.json'), bad])
  })

  it('C1 config.toml [hooks] is not read', async () => {
    const h = await homes()
    await writeFile(
      join(h.codexHome, 'config.toml'),
      '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "x"\n',
    )
    const found = await discoverHooks({
      sources: [],
      discover: true,
      codexHome: h.codexHome,
      projectDir: h.projectDir,
    })
    expect(found.entries).toEqual([])
  })

  it('C1 a malformed source does not stop boot: the other files still run in the loop', async () => {
    const h = await homes()
    const bad = join(await tempDir(), 'bad.json')
    await writeFile(bad, '{"hooks": {"Stop": "nope"}}')
    await writeUserHooks(h, hooksJson({ UserPromptSubmit: [{ command: 'cat > /dev/null; echo fine' }] }))
    const t = await codexAgent({ homes: h, config: { sources: [bad] }, script: [text('ok')] })
    try {
      expect(t.ctx.hooksCodex.warnings()).toEqual([
        expect.stringContaining(`${bad}: hooks.Stop: expected a list`),
      ])
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toHaveLength(1)
    } finally {
      await t.dispose()
    }
  })

  it('C1 the project layer is found under projectDir (default the process cwd), not under the workspace', async () => {
    const h = await homes()
    await writeProjectHooks(
      h.projectDir,
      hooksJson({ UserPromptSubmit: [{ command: 'cat > /dev/null; echo from-project' }] }),
    )
    await writeProjectHooks(
      h.workspace,
      hooksJson({ UserPromptSubmit: [{ command: 'cat > /dev/null; echo from-workspace' }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('ok')] })
    try {
      expect(t.ctx.hooksCodex.list().map((l) => [l.sourceKind, l.command])).toEqual([
        ['project', 'cat > /dev/null; echo from-project'],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('C6 project-layer hooks run only in a trusted workspace (tack trust) or with assumeTrusted; hash trust still applies', async () => {
    const h = await homes()
    await writeProjectHooks(
      h.projectDir,
      hooksJson({ UserPromptSubmit: [{ command: 'cat > /dev/null; echo from-project' }] }),
    )
    const statusWith = async (assumeTrusted: boolean) => {
      const t = await codexAgent({ homes: h, config: { assumeTrusted }, script: [text('ok')] })
      try {
        await t.agent.send(user('hi'))
        return {
          listed: t.ctx.hooksCodex.list()[0],
          ran: hookInvocations(t).length,
          warnings: t.ctx.hooksCodex.warnings(),
        }
      } finally {
        await t.dispose()
      }
    }
    const untrusted = await statusWith(false)
    expect(untrusted.listed).toMatchObject({
      status: 'workspace-untrusted',
      runs: false,
      reason: UNTRUSTED_WORKSPACE,
    })
    expect(untrusted.ran).toBe(0)
    expect(untrusted.warnings).toEqual([])
    expect((await statusWith(true)).ran).toBe(1)
    // The bridge's data folder is no trust store: only tack's home (where `tack trust` writes) counts.
    trustWorkspace(h.projectDir, h.dataDir)
    expect((await statusWith(false)).listed).toMatchObject({ status: 'workspace-untrusted', runs: false })
    trustWorkspace(h.projectDir, h.tackHome)
    expect((await statusWith(false)).listed).toMatchObject({ status: 'trusted', runs: true })
  })
})
