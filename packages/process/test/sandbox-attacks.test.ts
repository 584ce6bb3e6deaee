// A hostile command against the bubblewrap launcher (issue 9.3, the attacker's pass): each test is
// one attack that worked before it was closed — renaming the folder above a read-only mount and
// recreating it, a control path planted as a symbolic link, a control path under a file (a git
// worktree's `.git`), a hidden Unix socket, and a sandbox outliving a SIGKILLed parent. Real bwrap.
import { spawn } from 'node:child_process'
import { closeSync, existsSync, openSync } from 'node:fs'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { runProcess } from '../src/run-process.ts'
import { detectSandbox, type SandboxSupport } from '../src/sandbox/detect.ts'
import type { SandboxPolicy } from '../src/sandbox/policy.ts'
import { sandboxWrapper } from '../src/sandbox/wrapper.ts'
import { isGone, pidsMatching } from '../src/testing.ts'
import { runOptions, tempDir } from './helpers.ts'

let support: Exclude<SandboxSupport, { kind: 'none' }>

beforeAll(async () => {
  const found = await detectSandbox()
  if (found.kind === 'none') throw new Error(`these tests need the OS sandbox: ${found.reason}`)
  support = found
})

function policyFor(work: string, overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    writable: [work, '/tmp'],
    readOnly: [join(work, '.claude'), join(work, '.git', 'hooks')],
    hidden: [],
    revealed: [],
    network: true,
    ...overrides,
  }
}

function sandboxed(work: string, policy: SandboxPolicy, command: string) {
  return runProcess(runOptions(work, { command, wrapper: sandboxWrapper(support, policy), graceMs: 300 }))
}

describe('renaming what holds a read-only path', () => {
  it('9.3 a folder between the workspace and a control path cannot be renamed and recreated', async () => {
    const work = await tempDir('tack-attack-')
    await mkdir(join(work, '.git', 'hooks'), { recursive: true })
    await writeFile(join(work, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    const run = await sandboxed(
      work,
      policyFor(work),
      'mv .git .git-old && mkdir -p .git/hooks && echo planted > .git/hooks/pre-commit; echo done',
    )
    expect(run.stdout).toContain('Device or resource busy')
    expect(existsSync(join(work, '.git-old'))).toBe(false)
    expect(existsSync(join(work, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(await readFile(join(work, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n')
  })

  it('9.3 a writable folder that holds the workspace cannot be renamed to swap the workspace', async () => {
    const outer = await tempDir('tack-attack-outer-')
    const work = join(outer, 'ws')
    await mkdir(work)
    const moved = `${outer}-moved`
    const run = await sandboxed(
      work,
      policyFor(work),
      `mv ${outer} ${moved} && mkdir -p ${work}/.claude && echo planted > ${work}/.claude/settings.json; echo done`,
    )
    expect(run.stdout).toContain('Device or resource busy')
    expect(existsSync(moved)).toBe(false)
    expect(existsSync(join(work, '.claude'))).toBe(false)
  })

  it('9.3 the folder above a hidden path cannot be renamed to put a fake one in its place', async () => {
    const outer = await tempDir('tack-attack-home-')
    const secret = join(outer, 'sub', 'secret')
    await mkdir(secret, { recursive: true })
    await writeFile(join(secret, 'key'), 'the-real-key\n')
    const run = await sandboxed(
      outer,
      policyFor(outer, { hidden: [secret] }),
      `mv sub sub-old && mkdir -p sub/secret && echo fake > sub/secret/key; cat sub-old/secret/key; echo done`,
    )
    expect(run.stdout).toContain('Device or resource busy')
    expect(run.stdout).not.toContain('the-real-key')
    expect(await readFile(join(secret, 'key'), 'utf8')).toBe('the-real-key\n')
  })
})

describe('control paths the repository shaped', () => {
  it('9.3 a control path that is a symbolic link is refused: the link itself could be replaced', async () => {
    const work = await tempDir('tack-attack-')
    const elsewhere = await tempDir('tack-attack-target-')
    await symlink(elsewhere, join(work, '.claude'))
    const run = await sandboxed(work, policyFor(work), 'echo ran > ran.txt')
    expect(run.spawnError?.code).toBe('SANDBOX_FAILED')
    expect(run.spawnError?.message).toContain(`${join(work, '.claude')} is a symbolic link`)
    expect(existsSync(join(work, 'ran.txt'))).toBe(false)
  })

  it('9.3 a control path under a file (a worktree `.git` file) protects the file instead of failing', async () => {
    const work = await tempDir('tack-attack-')
    await writeFile(join(work, '.git'), 'gitdir: /somewhere/.git/worktrees/x\n')
    const run = await sandboxed(
      work,
      policyFor(work),
      'echo ran; echo "gitdir: /tmp/evil" > .git; rm -f .git; echo done',
    )
    expect(run.spawnError).toBeUndefined()
    expect(run.stdout).toContain('ran\n')
    expect(run.stdout).toContain('Read-only file system')
    expect(await readFile(join(work, '.git'), 'utf8')).toBe('gitdir: /somewhere/.git/worktrees/x\n')
  })
})

describe('sockets', () => {
  it('9.3 a hidden Unix socket (an ssh agent) cannot be connected to', async () => {
    const dir = await tempDir('tack-attack-sock-')
    const socketPath = join(dir, 'agent.sock')
    const server = createServer((c) => c.end('signed-by-agent\n'))
    await new Promise<void>((r) => server.listen(socketPath, r))
    try {
      const work = await tempDir('tack-attack-')
      const connect = `node -e 'require("net").connect(process.argv[1]).on("data",d=>process.stdout.write(d)).on("error",e=>console.log(e.code))' ${socketPath}`
      const open = await sandboxed(work, policyFor(work), connect)
      expect(open.stdout).toBe('signed-by-agent\n') // the test's own check that the socket works
      const hidden = await sandboxed(work, policyFor(work, { hidden: [socketPath] }), connect)
      expect(hidden.stdout).not.toContain('signed-by-agent')
      expect(hidden.stdout).toMatch(/ECONNREFUSED|ENOTSOCK|ENOENT/)
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})

describe('lifetime', () => {
  it('9.3 a sandboxed command dies with the process that started it, even by SIGKILL', async () => {
    const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const work = await tempDir('tack-attack-')
    const src = fileURLToPath(new URL('../src/', import.meta.url))
    const script = join(work, 'parent.ts')
    await writeFile(
      script,
      [
        `import { runProcess } from '${src}run-process.ts'`,
        `import { detectSandbox } from '${src}sandbox/detect.ts'`,
        `import { sandboxWrapper } from '${src}sandbox/wrapper.ts'`,
        'const support = await detectSandbox()',
        "if (support.kind === 'none') throw new Error(support.reason)",
        `const policy = { writable: ['/tmp'], readOnly: [], hidden: [], revealed: [], network: true }`,
        `await runProcess({ command: '(setsid sleep 41.${marker} &); sleep 42.${marker}', cwd: ${JSON.stringify(work)}, env: process.env, timeoutMs: 60000, graceMs: 1000, maxOutputBytes: 1000, merge: true, wrapper: sandboxWrapper(support, policy) })`,
      ].join('\n'),
    )
    const parent = spawn(process.execPath, [script], { stdio: 'ignore' })
    const deadline = Date.now() + 15_000
    // bwrap, its init, bash and the two sleeps all carry the marker on their command lines.
    while (pidsMatching(marker).length < 4) {
      if (Date.now() > deadline) throw new Error('the sleeps never started')
      await new Promise((r) => setTimeout(r, 50))
    }
    await new Promise((r) => setTimeout(r, 200))
    parent.kill('SIGKILL')
    await new Promise((r) => parent.once('exit', r))
    const gone = Date.now() + 3_000
    while (pidsMatching(marker).length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50))
    const left = pidsMatching(marker)
    for (const pid of left) if (!isGone(pid)) process.kill(pid, 'SIGKILL')
    expect(left).toEqual([])
  })

  it('9.3 a command whose starter died while bwrap was starting never runs (the lifeline reads end-of-file)', async () => {
    const work = await tempDir('tack-attack-')
    const wrapped = await sandboxWrapper(support, policyFor(work)).wrap(
      ['bash', '-c', 'touch ran; sleep 43 &'],
      work,
    )
    expect(wrapped.lifeline).toBe(true)
    // /dev/null as fd 3 reads end-of-file at once: what the lifeline reads once tack is gone
    const devNull = openSync('/dev/null', 'r')
    const child = spawn(wrapped.argv[0], wrapped.argv.slice(1), {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe', devNull],
    })
    closeSync(devNull)
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    await wrapped.release()
    expect(code).toBe(137)
    expect(existsSync(join(work, 'ran'))).toBe(false)
  })

  it('9.3 when the lifeline ends mid-command every process of the sandbox dies, whatever bwrap does', async () => {
    const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const work = await tempDir('tack-attack-')
    const wrapped = await sandboxWrapper(support, policyFor(work)).wrap(
      ['bash', '-c', `sleep 44.${marker} & touch started; sleep 45.${marker}`],
      work,
    )
    // this test process stays alive, so bwrap's own --die-with-parent never fires: only the lifeline acts
    const child = spawn(wrapped.argv[0], wrapped.argv.slice(1), {
      cwd: work,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const deadline = Date.now() + 15_000
    while (!existsSync(join(work, 'started'))) {
      if (Date.now() > deadline) throw new Error('the sleeps never started')
      await new Promise((r) => setTimeout(r, 50))
    }
    child.stdio[3]?.destroy()
    const code = await exited
    await wrapped.release()
    const left = pidsMatching(marker)
    for (const pid of left) if (!isGone(pid)) process.kill(pid, 'SIGKILL')
    expect(left).toEqual([])
    expect(code).not.toBe(0)
  })

  it('9.3 with tack alive the command behind the lifeline keeps its stdin, its exit status and no fd 3', async () => {
    const work = await tempDir('tack-attack-')
    const result = await runProcess(
      runOptions(work, {
        command: 'cat; test -e /proc/self/fd/3 && echo "fd 3 open"; exit 7',
        input: 'from stdin\n',
        wrapper: sandboxWrapper(support, policyFor(work)),
      }),
    )
    expect(result.stdout).toBe('from stdin\n')
    expect(result.exitCode).toBe(7)
  })
})
