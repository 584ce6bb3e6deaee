// Issue 9 item 2 (0012-protected-files.md): the agent cannot write tack's and the hook bridges' control
// files without an explicit approval, in every mode but yolo; headless, the ask becomes a deny whose
// reason the model sees. `..`, letter case and symlinks do not get around it.
import { existsSync } from 'node:fs'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resolveTackHome } from '@tack/kernel'
import { controlFileKind, type PermissionMode } from '../src/index.ts'
import { kernel, run, stubAgent, workspace } from './support.ts'

const TARGETS = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks/pre.sh',
  '.codex/hooks.json',
  '.tack/config.yml',
  '.tack/plugins/evil.ts',
  '.git/config',
  '.git/hooks/pre-commit',
  '.git',
  'vendor/lib/.git/config',
  '.GIT/Config',
  'git-link/config',
  'sub/.claude/settings.json',
  // tricks: `..`, case, a symlink into .claude (made below)
  'src/../.claude/settings.json',
  '.CLAUDE/Settings.JSON',
  'claude-link/settings.json',
]

async function prepared() {
  const ws = await workspace()
  await mkdir(join(ws.cwd, '.claude'), { recursive: true })
  await symlink(join(ws.cwd, '.claude'), join(ws.cwd, 'claude-link'))
  await mkdir(join(ws.cwd, '.git', 'hooks'), { recursive: true })
  await writeFile(join(ws.cwd, '.git', 'config'), '[core]\n')
  await symlink(join(ws.cwd, '.git'), join(ws.cwd, 'git-link'))
  return ws
}

let savedHome: string | undefined
beforeEach(() => {
  savedHome = process.env.TACK_HOME
})
afterEach(() => {
  if (savedHome === undefined) delete process.env.TACK_HOME
  else process.env.TACK_HOME = savedHome
})

describe('0012 protected files', () => {
  it('issue 9.2: headless workspace-write denies every control-file write, naming the file, and writes nothing', async () => {
    const { cwd } = await prepared()
    const k = await kernel({ config: { mode: 'workspace-write' } })
    const agent = stubAgent(cwd)
    for (const file_path of TARGETS) {
      const result = await run(k, 'write', { file_path, content: '{"hooks":{}}' }, { cwd, agent })
      expect(result.error?.code, file_path).toBe('DENIED')
      expect(result.content[0]?.text, file_path).toMatch(/needs the user's explicit approval/)
      expect(result.content[0]?.text, file_path).toContain('no approver is available')
    }
    expect(existsSync(join(cwd, '.claude', 'settings.json'))).toBe(false)
    expect(existsSync(join(cwd, '.claude', 'hooks'))).toBe(false)
    expect(existsSync(join(cwd, '.tack'))).toBe(false)
    expect(await readFile(join(cwd, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false)
    // An ordinary write beside them still passes.
    const plain = await run(k, 'write', { file_path: 'src/b.ts', content: 'ok\n' }, { cwd, agent })
    expect(plain.isError).toBe(false)
  })

  it('issue 9.2: edit of an existing control file is denied as well; reading it is not', async () => {
    const { cwd } = await prepared()
    const k = await kernel({ config: { mode: 'workspace-write' } })
    const agent = stubAgent(cwd)
    await run(
      k,
      'write',
      { file_path: '.claude/settings.json', content: '{}' },
      { cwd, agent: stubAgent(cwd, { permissionMode: 'yolo' }) },
    )
    expect((await run(k, 'read', { file_path: '.claude/settings.json' }, { cwd, agent })).isError).toBe(false)
    const edit = await run(
      k,
      'edit',
      { file_path: '.claude/settings.json', old_string: '{}', new_string: '{"hooks":1}' },
      { cwd, agent },
    )
    expect(edit.error?.code).toBe('DENIED')
    expect(await readFile(join(cwd, '.claude', 'settings.json'), 'utf8')).toBe('{}')
  })

  for (const mode of ['ask', 'workspace-write'] as const) {
    it(`issue 9.2: in ${mode} with an approver the write is asked with a reason naming the file, and runs once approved`, async () => {
      const { cwd } = await prepared()
      const k = await kernel({ config: { mode }, approver: { action: 'allow', by: 'user' } })
      const result = await run(
        k,
        'write',
        { file_path: '.claude/settings.json', content: '{}' },
        { cwd, agent: stubAgent(cwd) },
      )
      expect(result.isError).toBe(false)
      expect(k.requests.map((r) => r.reason)).toEqual([
        `write writes ${cwd}/.claude/settings.json, which is Claude Code settings: a file there takes effect the next time tack, a hook host or git runs, so writing it needs the user's explicit approval.`,
      ])
    })
  }

  it('issue 9.2: read-only denies as before; yolo writes without asking', async () => {
    const { cwd } = await prepared()
    const k = await kernel({ approver: { action: 'deny', by: 'user' } })
    const call = (mode: PermissionMode) =>
      run(
        k,
        'write',
        { file_path: '.tack/config.yml', content: 'x: 1\n' },
        { cwd, agent: stubAgent(cwd, { permissionMode: mode }) },
      )
    expect((await call('read-only')).content[0]?.text).toMatch(/^Read-only mode does not allow this/)
    expect((await call('yolo')).isError).toBe(false)
    expect(await readFile(join(cwd, '.tack', 'config.yml'), 'utf8')).toBe('x: 1\n')
    expect(k.requests).toEqual([])
  })

  it('issue 9.2: only an allow rule that names the path approves a control file; a pathless rule does not', async () => {
    const { cwd } = await prepared()
    const broad = await kernel({ config: { mode: 'workspace-write', allow: [{ tool: 'write' }] } })
    const denied = await run(
      broad,
      'write',
      { file_path: '.claude/settings.json', content: '{}' },
      { cwd, agent: stubAgent(cwd) },
    )
    expect(denied.error?.code).toBe('DENIED')
    const named = await kernel({
      config: { mode: 'workspace-write', allow: [{ tool: 'write', path: '.claude/settings.json' }] },
    })
    const allowed = await run(
      named,
      'write',
      { file_path: '.claude/settings.json', content: '{}' },
      { cwd, agent: stubAgent(cwd) },
    )
    expect(allowed.isError).toBe(false)
  })

  it('issue 9.2: $TACK_HOME is protected, through a symlink too (outside the workspace, an approver asks)', async () => {
    const { cwd, outside } = await prepared()
    process.env.TACK_HOME = outside
    expect(resolveTackHome()).toBe(outside)
    const k = await kernel({ config: { mode: 'workspace-write' }, approver: { action: 'deny', by: 'user' } })
    const result = await run(
      k,
      'write',
      { file_path: 'link/config.yml', content: 'baseUrl: http://evil\n' },
      { cwd, agent: stubAgent(cwd) },
    )
    expect(result.error?.code).toBe('DENIED')
    expect(k.requests[0]?.reason).toContain("tack's own folder ($TACK_HOME)")
    expect(existsSync(join(outside, 'config.yml'))).toBe(false)
  })

  it("the repository's git folder: an edit planting core.fsmonitor is asked with a reason naming it, denied headless", async () => {
    const { cwd } = await prepared()
    const edit = {
      file_path: '.git/config',
      old_string: '[core]\n',
      new_string: '[core]\n\tfsmonitor = "touch /tmp/x"\n',
    }
    const asking = await kernel({
      config: { mode: 'workspace-write' },
      approver: { action: 'deny', by: 'user' },
    })
    // Read first: an edit of a file not read yet fails before it is asked (docs/decisions/0300).
    const reader = stubAgent(cwd)
    await run(asking, 'read', { file_path: '.git/config' }, { cwd, agent: reader })
    expect((await run(asking, 'edit', edit, { cwd, agent: reader })).error?.code).toBe('DENIED')
    expect(asking.requests[0]?.reason).toContain(
      `edit writes ${cwd}/.git/config, which is the repository's git folder (.git): a file there takes effect`,
    )
    const headless = await kernel({ config: { mode: 'ask' } })
    const headlessReader = stubAgent(cwd)
    await run(headless, 'read', { file_path: '.git/config' }, { cwd, agent: headlessReader })
    expect((await run(headless, 'edit', edit, { cwd, agent: headlessReader })).error?.code).toBe('DENIED')
    expect(await readFile(join(cwd, '.git', 'config'), 'utf8')).toBe('[core]\n')
    const yoloAgent = stubAgent(cwd, { permissionMode: 'yolo' })
    await run(headless, 'read', { file_path: '.git/config' }, { cwd, agent: yoloAgent })
    expect((await run(headless, 'edit', edit, { cwd, agent: yoloAgent })).isError).toBe(false)
    expect(await readFile(join(cwd, '.git', 'config'), 'utf8')).toContain('fsmonitor')
  })

  it('the git folder a .git file names (gitdir:, e.g. --separate-git-dir) is protected like .git', async () => {
    const { cwd } = await prepared()
    const ws = join(cwd, 'sub')
    await mkdir(join(ws, 'gitstore', 'hooks'), { recursive: true })
    await writeFile(join(ws, '.git'), 'gitdir: gitstore\n')
    const k = await kernel({ config: { mode: 'workspace-write' } })
    const hook = await run(
      k,
      'write',
      { file_path: 'gitstore/hooks/pre-commit', content: '#!/bin/sh\n' },
      { cwd: ws, agent: stubAgent(ws) },
    )
    expect(hook.error?.code).toBe('DENIED')
    expect(hook.content[0]?.text).toContain(
      `${ws}/gitstore/hooks/pre-commit, which is the repository's git folder`,
    )
    expect(existsSync(join(ws, 'gitstore', 'hooks', 'pre-commit'))).toBe(false)
    const plain = await run(
      k,
      'write',
      { file_path: 'plain.txt', content: 'ok' },
      { cwd: ws, agent: stubAgent(ws) },
    )
    expect(plain.isError).toBe(false)
  })

  it('issue 9.2: what counts as a control file', () => {
    const home = ['/home/u/.tack']
    const kinds = (path: string) => controlFileKind(path, home)
    expect(kinds('/w/.claude/settings.json')).toBe('Claude Code settings')
    expect(kinds('/w/.claude/settings.local.json')).toBe('Claude Code settings')
    expect(kinds('/w/.claude/hooks')).toBe('a Claude Code hook (.claude/hooks)')
    expect(kinds('/w/.claude')).toBe('the Claude Code settings folder (.claude)')
    expect(kinds('/w/.codex/hooks.json')).toBe('Codex hooks (.codex/hooks.json)')
    expect(kinds('/w/.tack')).toBe("tack's project folder (.tack)")
    expect(kinds('/HOME/U/.TACK/.env')).toBe("tack's own folder ($TACK_HOME)")
    expect(kinds('/w/.git/hooks/pre-commit')).toMatch(/^the repository's git folder/)
    expect(kinds('/w/.git')).toMatch(/^the repository's git folder/)
    for (const free of [
      '/w/.claude/agents/x.md',
      '/w/.codex/config.toml',
      '/w/src/settings.json',
      '/w/tack/x',
      '/home/u/.tackle',
      '/w/.gitignore',
      '/w/.github/workflows/ci.yml',
      '/w/x.git/config',
    ])
      expect(kinds(free), free).toBeUndefined()
  })
})
