// Configuration layering in-process (80-cli §3): user file → project file → --config → profile → flags.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
      extraConfig: f['extra.yml'],
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
    ).rejects.toThrow(new RegExp(`${f['broken.yml']}: \\(root\\): cannot read YAML`))
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
