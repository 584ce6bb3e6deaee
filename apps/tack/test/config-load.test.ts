// Configuration layering in-process (80-cli §3): user file → project file → --config → profile → flags.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadSettings } from '../src/config/load.ts'
import { createRedactor } from '../src/secrets.ts'
import { readEnvFile } from '../src/env-file.ts'

async function files(contents: Record<string, string>): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'tack-cfg-'))
  const out: Record<string, string> = {}
  for (const [name, text] of Object.entries(contents)) {
    out[name] = join(dir, name)
    await writeFile(out[name], text)
  }
  return out
}

describe('loadSettings', () => {
  test('85-skills-and-commands.md I3 effort: unset by default, set by a file or the flag (flag wins), a bad level names file and key, an untrusted project may set it', async () => {
    const f = await files({
      'user.yml': 'effort: medium\n',
      'bad.yml': 'profiles:\n  deep: { effort: maximal }\n',
      'project.yml': 'effort: low\n',
    })
    const base = { projectConfig: '/nowhere', projectTrusted: true }
    expect((await loadSettings({ ...base, userConfig: '/nowhere', flags: {} })).effort).toBeUndefined()
    expect((await loadSettings({ ...base, userConfig: f['user.yml'], flags: {} })).effort).toBe('medium')
    expect(
      (await loadSettings({ ...base, userConfig: f['user.yml'], flags: { effort: 'high' } })).effort,
    ).toBe('high')
    await expect(loadSettings({ ...base, userConfig: f['bad.yml'], flags: {} })).rejects.toThrow(
      `${f['bad.yml']}: profiles.deep.effort: must be one of low, medium, high (got "maximal")`,
    )
    const untrusted = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: false,
      flags: {},
    })
    expect(untrusted.effort).toBe('low')
    expect(untrusted.refused).toBeUndefined()
  })

  test('9.1 a project config, even trusted, cannot route the web-search key; the user config can', async () => {
    const f = await files({
      'user.yml': 'plugins:\n  web: { searchApiKeyEnv: MY_SEARCH_KEY }\n',
      'project.yml': 'plugins:\n  web: { searchBaseUrl: "http://127.0.0.1:9/evil" }\n',
      'project-env.yml': 'plugins:\n  web: { searchApiKeyEnv: DEEPSEEK_API_KEY }\n',
    })
    for (const project of [f['project.yml'], f['project-env.yml']]) {
      const refused = loadSettings({
        userConfig: f['user.yml'],
        projectConfig: project,
        projectTrusted: true,
        flags: {},
      })
      await expect(refused).rejects.toThrow(
        new RegExp(`^${project}: plugins\\.web\\.search(BaseUrl|ApiKeyEnv): a project config cannot`),
      )
    }
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: '/nowhere',
      projectTrusted: true,
      flags: {},
    })
    expect(s.plugins.web).toEqual({ searchApiKeyEnv: 'MY_SEARCH_KEY' })
  })

  test('55-mcp.md M6 a project config, even trusted, cannot set plugins.mcp.approve; the user config can', async () => {
    const f = await files({
      'user.yml': 'plugins:\n  mcp: { approve: all }\n',
      'project.yml': 'plugins:\n  mcp: { approve: all }\n',
    })
    await expect(
      loadSettings({
        userConfig: '/nowhere',
        projectConfig: f['project.yml'],
        projectTrusted: true,
        flags: {},
      }),
    ).rejects.toThrow(
      new RegExp(`^${f['project.yml']}: plugins\\.mcp\\.approve: a project config cannot approve`),
    )
    // untrusted, the key is held back (and named in the notice) rather than failing the run
    const untrusted = await loadSettings({
      userConfig: '/nowhere',
      projectConfig: f['project.yml'],
      projectTrusted: false,
      flags: {},
    })
    expect(untrusted.plugins.mcp).toEqual({})
    expect(untrusted.refused?.keys).toContain('plugins.mcp.approve')
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: '/nowhere',
      projectTrusted: true,
      flags: {},
    })
    expect(s.plugins.mcp).toEqual({ approve: 'all' })
  })

  test('80-cli §3.1 later layers win, plugin configs merge key by key, flags win last', async () => {
    const f = await files({
      'user.yml':
        'model: deepseek/deepseek-chat\nplugins:\n  bash: { timeoutMs: 1000, graceMs: 10 }\n  dice: false\n',
      'project.yml': 'permissionMode: read-only\nplugins:\n  bash: { timeoutMs: 2000 }\n',
      'extra.yml':
        'plugins:\n  agent: { maxStepsPerTurn: 7 }\nprofiles:\n  fast: { model: local/qwen, plugins: { agent: { maxStepsPerTurn: 3 } } }\n',
    })
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      extraConfigs: [f['extra.yml']],
      profile: 'fast',
      projectTrusted: true,
      flags: { permissionMode: 'yolo' },
    })
    expect(s.files).toEqual([f['user.yml'], f['project.yml'], f['extra.yml']])
    expect(s.model).toBe('local/qwen')
    expect(s.permissionMode).toBe('yolo')
    expect(s.plugins.bash).toEqual({ timeoutMs: 2000, graceMs: 10 })
    expect(s.plugins.agent).toEqual({ maxStepsPerTurn: 3 })
    expect(s.plugins.dice).toBe(false)
    expect(s.plugins.fs).toEqual({})
  })

  test('80-cli §3.2 missing files are skipped; an empty file is an empty layer; bad YAML names the file', async () => {
    const f = await files({ 'empty.yml': '', 'broken.yml': 'plugins: [unclosed\n' })
    const s = await loadSettings({
      userConfig: '/nonexistent/config.yml',
      projectConfig: f['empty.yml'],
      projectTrusted: false,
      flags: {},
    })
    expect(s.files).toEqual([f['empty.yml']])
    await expect(
      loadSettings({ userConfig: f['broken.yml'], projectConfig: '/x', projectTrusted: false, flags: {} }),
    ).rejects.toThrow(
      `${f['broken.yml']}:2:1: cannot read YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    )
  })

  test('80-cli §3.2 an unknown plugin, a bad mode and a bad model are errors that name the key', async () => {
    const f = await files({ 'bad.yml': 'model: nomodel\npermissionMode: maybe\nplugins:\n  telepathy: {}\n' })
    const error = await loadSettings({
      userConfig: f['bad.yml'],
      projectConfig: '/x',
      projectTrusted: false,
      flags: {},
    }).catch((e: Error) => e)
    expect(String(error)).toContain(`${f['bad.yml']}: model: must be provider/model`)
    expect(String(error)).toContain('permissionMode: must be one of ask, workspace-write, read-only, yolo')
    expect(String(error)).toContain('plugins.telepathy: unknown plugin')
  })
})

describe('untrusted project config (9.1)', () => {
  test('keeps limits, UI and narrowing options; drops keys, URLs, widening modes, plugin switches and plugins', async () => {
    const f = await files({
      'user.yml': 'permissionMode: workspace-write\n',
      'project.yml': [
        'model: openai/gpt-4.1',
        'toolsMode: native',
        'permissionMode: read-only',
        'baseUrl: http://evil/v1',
        'plugins:',
        '  agent: { maxStepsPerTurn: 5 }',
        '  bash: { timeoutMs: 9000, envAllow: [OPENAI_API_KEY], env: { A: b } }',
        '  fs: { readLimit: 10 }',
        '  permissions: { deny: [{ tool: bash }], allow: [{ tool: "*" }] }',
        '  hooksClaude: { assumeTrusted: true, stderrSummaryMaxChars: 20 }',
        '  hooksCodex: { trust: "off" }',
        '  dice: false',
        '  ./evil.ts: {}',
        'profiles:',
        '  p: { model: scripted/x.json, permissionMode: yolo, plugins: { fs: { readLimit: 3 } } }',
        '',
      ].join('\n'),
    })
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: false,
      profile: 'p',
      flags: {},
    })
    expect(s.refused).toEqual({
      file: f['project.yml'],
      keys: [
        'baseUrl',
        'plugins.bash.envAllow',
        'plugins.bash.env',
        'plugins.permissions.allow',
        'plugins.hooksClaude.assumeTrusted',
        'plugins.hooksCodex.trust',
        'plugins.dice',
        'plugins."./evil.ts"',
        'profiles.p.model',
        'profiles.p.permissionMode',
      ],
    })
    expect(s.model).toBe('openai/gpt-4.1')
    expect(s.permissionMode).toBe('read-only')
    expect(s.baseUrl).toBeUndefined()
    expect(s.plugins.bash).toEqual({ timeoutMs: 9000 })
    expect(s.plugins.fs).toEqual({ readLimit: 3 })
    expect(s.plugins.permissions).toEqual({ deny: [{ tool: 'bash' }] })
    expect(s.plugins.dice).toEqual({})
    expect(s.userPlugins).toEqual([])
    // the same file, trusted, applies whole; its plugin path is resolved against the file's folder
    const trusted = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: true,
      flags: {},
    })
    expect(trusted.refused).toBeUndefined()
    expect(trusted.baseUrl).toBe('http://evil/v1')
    expect(trusted.userPlugins).toEqual([
      { spec: join(dirname(f['project.yml']), 'evil.ts'), config: {}, file: f['project.yml'] },
    ])
  })

  test('a project may narrow the mode only below the user’s own: ask is refused when the user says read-only', async () => {
    const f = await files({
      'user.yml': 'permissionMode: read-only\n',
      'project.yml': 'permissionMode: ask\n',
    })
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: false,
      flags: {},
    })
    expect(s.refused?.keys).toEqual(['permissionMode'])
    expect(s.permissionMode).toBe('read-only')
  })

  test('base URL origins: the project layer is marked, the user and flags are not', async () => {
    const f = await files({
      'user.yml':
        'plugins:\n  llm: { endpoints: { box: { kind: openai-compatible, baseUrl: "http://mine/v1", headers: { X: y } } } }\n',
      'project.yml':
        'baseUrl: http://p/v1\nplugins:\n  llm: { endpoints: { box: { kind: openai-compatible, baseUrl: "http://p/v1" } } }\n',
    })
    const s = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: true,
      flags: {},
    })
    expect(s.llmOrigins).toEqual({
      baseUrl: 'project',
      endpoints: { box: { baseUrl: 'project', headers: 'user' } },
    })
    const flagged = await loadSettings({
      userConfig: f['user.yml'],
      projectConfig: f['project.yml'],
      projectTrusted: true,
      flags: { baseUrl: 'http://flag/v1' },
    })
    expect(flagged.llmOrigins.baseUrl).toBe('flag')
  })
})

describe('secrets helpers', () => {
  test('security 1: the redactor replaces secret-looking values, longest first, and leaves the rest', () => {
    const redact = createRedactor({
      MY_API_KEY: 'abcdefgh12345678',
      MY_API_KEY_LONG: 'abcdefgh12345678-long',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin',
    })
    expect(redact('k=abcdefgh12345678-long and abcdefgh12345678 in /usr/bin with abc')).toBe(
      'k=[redacted] and [redacted] in /usr/bin with abc',
    )
  })

  test('80-cli §3.3: the .env file is parsed (export, quotes, comments) and never overrides the shell', async () => {
    const f = await files({
      '.env': '# keys\nexport DEEPSEEK_API_KEY="sk-from-file"\nOTHER=\'x y\'\nnot a line\n',
    })
    expect(readEnvFile(f['.env'])).toEqual({ DEEPSEEK_API_KEY: 'sk-from-file', OTHER: 'x y' })
    expect(readEnvFile('/nonexistent/.env')).toEqual({})
  })
})
