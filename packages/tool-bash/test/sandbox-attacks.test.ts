// A hostile model's commands against the bash tool's sandbox policy (issue 9.3, the attacker's pass):
// each test is one attack that worked before it was closed. `.git` is code (its config runs programs
// on the user's next `git status`; its index can add a submodule whose config does), the spill folder
// in /tmp could be seeded with links tack then writes through, and an ssh agent or Docker socket is a
// credential as good as the key files the sandbox hides. Real bwrap, real git, real files.
import type { ConfigInput } from '@tack/kernel'
import { execFileSync } from 'node:child_process'
import { existsSync, readlinkSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { AgentOptions } from '@tack/agent'
import { tempDirOutsideTmp } from '@tack/process/testing'
import type { ToolCallRequest } from '@tack/tools'
import { stubAgent } from '@tack/tools/testing'
import { memorySession } from '@tack/session/testing'
import { describe, expect, it } from 'vitest'
import { BashToolConfig, DEFAULT_SANDBOX_DENY_READ } from '../src/config.ts'
import { sandboxPolicy } from '../src/sandbox-policy.ts'
import { bashCall, bashContext, tempDir, textOf } from './helpers.ts'

let sessions = 0

function agentCall(command: string, cwd: string, callId?: string): ToolCallRequest {
  const session = memorySession(cwd, `atk${++sessions}`)
  const options: AgentOptions = { permissionMode: 'workspace-write' }
  return {
    ...bashCall({ command }, cwd, callId ? { callId } : {}),
    agent: stubAgent(session, { cwd, options }),
  }
}

async function run(config: ConfigInput<typeof BashToolConfig>, call: ToolCallRequest) {
  const ctx = await bashContext({ sandbox: 'on', ...config })
  return ctx.tools.execute(call)
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

describe('.git is read-only as a whole', () => {
  it('9.3 git config, commondir, a submodule in the index and a renamed .git cannot plant code', async () => {
    const work = await tempDir()
    git(work, 'init', '-q', '.')
    git(work, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init')
    const evil = join(await tempDir(), 'evil-git')
    const command = [
      'git config core.fsmonitor "touch /tmp/fsmonitor-ran" && echo CONFIG-WRITTEN',
      'git config core.hooksPath hooks-here && echo HOOKSPATH-WRITTEN',
      `echo ${evil} > .git/commondir && echo COMMONDIR-WRITTEN`,
      'git update-index --add --cacheinfo 160000,4b825dc642cb6eb9a060e54bf8d69288fbee4904,sub && echo INDEX-WRITTEN',
      'mv .git .git-old && echo GIT-RENAMED',
      'echo done',
    ].join('; ')
    const result = await run({}, agentCall(command, work))
    const text = textOf(result)
    expect(text).toContain('done')
    for (const planted of ['CONFIG', 'HOOKSPATH', 'COMMONDIR', 'INDEX']) {
      expect(text).not.toContain(`${planted}-WRITTEN`)
    }
    expect(text).not.toContain('GIT-RENAMED')
    expect(() => git(work, 'config', 'core.fsmonitor')).toThrow()
    expect(existsSync(join(work, '.git', 'commondir'))).toBe(false)
    expect(git(work, 'ls-files', '--stage')).toBe('')
    expect(existsSync(join(work, '.git-old'))).toBe(false)
  })

  it('9.3 a repository whose .git is a symbolic link: bash refuses to run rather than leave it writable', async () => {
    const work = await tempDir()
    const real = await tempDir()
    git(real, 'init', '-q', '.')
    execFileSync('ln', ['-s', join(real, '.git'), join(work, '.git')])
    const result = await run({}, agentCall('touch ran', work))
    expect(result).toMatchObject({ isError: true, error: { code: 'SPAWN_FAILED' } })
    expect(textOf(result)).toContain(`${join(work, '.git')} is a symbolic link`)
    expect(existsSync(join(work, 'ran'))).toBe(false)
    expect(readlinkSync(join(work, '.git'))).toBe(join(real, '.git'))
  })

  it('9.3 a git worktree (a .git file) runs, and its .git file cannot be pointed elsewhere', async () => {
    const work = await tempDir()
    await writeFile(join(work, '.git'), 'gitdir: /nowhere/.git/worktrees/w\n')
    const result = await run({}, agentCall('echo ran; echo "gitdir: /tmp/evil" > .git', work))
    expect(textOf(result)).toContain('ran')
    expect(await readFile(join(work, '.git'), 'utf8')).toBe('gitdir: /nowhere/.git/worktrees/w\n')
  })
})

describe('the spill folder', () => {
  it('9.3 a spill folder in a temp folder is read-only inside the sandbox: no link for tack to write through', async () => {
    const scratchRoot = join(await tempDir(), 'scratch')
    const target = join(await tempDirOutsideTmp(), 'victim.txt')
    await writeFile(target, 'original\n')
    const work = await tempDir()
    const session = `atk${sessions + 1}`
    const plant = `mkdir -p ${scratchRoot}/${session}; ln -s ${target} ${scratchRoot}/${session}/bash-call_next.log && echo PLANTED`
    const first = await run({ scratchRoot }, agentCall(plant, work))
    expect(textOf(first)).not.toContain('PLANTED')
    expect(textOf(first)).toContain('Read-only file system')
    expect(await readFile(target, 'utf8')).toBe('original\n')
  })

  it('9.3 tack never follows a link planted at a spill file path', async () => {
    const scratchRoot = join(await tempDir(), 'scratch')
    const target = join(await tempDirOutsideTmp(), 'victim.txt')
    await writeFile(target, 'original\n')
    const session = `atk${sessions + 1}`
    await mkdir(join(scratchRoot, session), { recursive: true })
    execFileSync('ln', ['-s', target, join(scratchRoot, session, 'bash-call_x.log')])
    const result = await run(
      { scratchRoot, maxOutputBytes: 10 },
      agentCall('head -c 100 /dev/zero | tr "\\0" a', await tempDir(), 'call_x'),
    )
    expect(textOf(result)).toContain('aaaaaaaaaa')
    expect(await readFile(target, 'utf8')).toBe('original\n')
  })
})

describe('agent sockets', () => {
  it('9.3 the ssh agent of SSH_AUTH_SOCK cannot be used, nor anything in XDG_RUNTIME_DIR', async () => {
    const runtime = await tempDirOutsideTmp()
    const agentDir = await tempDir()
    const sockets = [join(agentDir, 'agent.1'), join(runtime, 'bus')]
    const servers = sockets.map((path) => createServer((c) => c.end(`answer from ${path}\n`)))
    await Promise.all(servers.map((s, i) => new Promise<void>((r) => s.listen(sockets[i], r))))
    try {
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        SSH_AUTH_SOCK: sockets[0],
        XDG_RUNTIME_DIR: runtime,
      }
      const connect = (path: string) =>
        `node -e 'require("net").connect(process.argv[1]).on("data",d=>process.stdout.write(d)).on("error",e=>console.log(e.code))' ${path}`
      const command = sockets.map(connect).join('; ')
      const unconfined = await run({ env, sandbox: 'off' }, agentCall(command, await tempDir()))
      expect(textOf(unconfined)).toContain(`answer from ${sockets[0]}`) // the sockets work
      const result = await run({ env }, agentCall(command, await tempDir()))
      expect(textOf(result)).not.toContain('answer from')
    } finally {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))))
    }
  })

  it('9.3 the Docker socket (root on the host) is in the default deny list', () => {
    expect(DEFAULT_SANDBOX_DENY_READ).toEqual(
      expect.arrayContaining(['/run/docker.sock', '/var/run/docker.sock']),
    )
  })

  it('9.3 a socket folder that holds a writable folder is left alone, or the workspace would vanish', () => {
    const config = BashToolConfig.parse({})
    const policy = sandboxPolicy('workspace-write', '/run/user/1000/ws', config, {
      XDG_RUNTIME_DIR: '/run/user/1000',
    })
    expect(policy.hidden).not.toContain('/run/user/1000')
    const elsewhere = sandboxPolicy('workspace-write', '/work', config, { XDG_RUNTIME_DIR: '/run/user/1000' })
    expect(elsewhere.hidden).toContain('/run/user/1000')
  })
})
