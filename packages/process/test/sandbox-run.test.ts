// Commands in the real sandbox (bubblewrap; `.ci/run` installs it, and these tests fail, not skip,
// where it is missing): what can be written and read, what of tack can be seen, the network switch,
// and that the group kill, timeouts and output capture still work through the launcher.
import { createServer, type Server } from 'node:http'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runProcess } from '../src/run-process.ts'
import { detectSandbox, probeSandbox, type SandboxSupport } from '../src/sandbox/detect.ts'
import type { SandboxPolicy } from '../src/sandbox/policy.ts'
import { sandboxWrapper } from '../src/sandbox/wrapper.ts'
import { pidsMatching, tempDirOutsideTmp } from '../src/testing.ts'
import { runOptions, tempDir } from './helpers.ts'

let support: Exclude<SandboxSupport, { kind: 'none' }>

beforeAll(async () => {
  const found = await detectSandbox()
  if (found.kind === 'none') throw new Error(`these tests need the OS sandbox: ${found.reason}`)
  support = found
})

interface Layout {
  readonly work: string
  readonly outside: string
  readonly home: string
  readonly policy: SandboxPolicy
}

async function layout(overrides: Partial<SandboxPolicy> = {}): Promise<Layout> {
  const work = await tempDir('tack-sandbox-work-')
  const outside = await tempDirOutsideTmp()
  const home = await tempDir('tack-sandbox-home-')
  await mkdir(join(home, 'scratch'))
  await writeFile(join(home, '.env'), 'DEEPSEEK_API_KEY=sk-very-secret-value\n')
  await writeFile(join(home, 'scratch', 'spill.log'), 'spilled output\n')
  const policy: SandboxPolicy = {
    writable: [work, '/tmp'],
    readOnly: [join(work, '.tack'), join(work, '.claude')],
    hidden: [home],
    revealed: [join(home, 'scratch')],
    network: true,
    ...overrides,
  }
  return { work, outside, home, policy }
}

async function waitForFile(path: string): Promise<void> {
  const deadline = Date.now() + 15_000
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} never appeared`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

function sandboxed(l: Layout, command: string, extra: Parameters<typeof runOptions>[1] | object = {}) {
  return runProcess(
    runOptions(l.work, { command, wrapper: sandboxWrapper(support, l.policy), graceMs: 300, ...extra }),
  )
}

describe('writes', () => {
  it('9.3 the workspace and /tmp are writable; a folder outside them is not', async () => {
    const l = await layout()
    const run = await sandboxed(
      l,
      `echo a > in.txt && echo b > /tmp/tack-sb-$$.txt && rm /tmp/tack-sb-$$.txt; echo c > ${l.outside}/out.txt`,
    )
    expect(await readFile(join(l.work, 'in.txt'), 'utf8')).toBe('a\n')
    expect(existsSync(join(l.outside, 'out.txt'))).toBe(false)
    expect(run.stdout).toMatch(/Read-only file system/)
    expect(run.exitCode).not.toBe(0)
  })

  it('9.3 read-only mode: a policy without the workspace writes nowhere but temp', async () => {
    const l = await layout()
    // The workspace is outside /tmp here: a workspace inside a temp folder is writable as temp.
    const ro = { ...l, work: l.outside, policy: { ...l.policy, writable: ['/tmp'], readOnly: [] } }
    const run = await sandboxed(ro, 'echo a > in.txt; echo $? ; mktemp')
    expect(existsSync(join(l.outside, 'in.txt'))).toBe(false)
    expect(run.stdout).toMatch(/^.*Read-only file system\n1\n\/tmp\/tmp\./)
  })

  it('9.3 an existing control folder stays read-only inside a writable workspace', async () => {
    const l = await layout()
    await mkdir(join(l.work, '.tack'))
    await writeFile(join(l.work, '.tack', 'config.yml'), 'model: x\n')
    await sandboxed(
      l,
      'echo "baseUrl: http://evil" >> .tack/config.yml; echo x > .tack/new.yml; mv .tack .gone',
    )
    expect(await readFile(join(l.work, '.tack', 'config.yml'), 'utf8')).toBe('model: x\n')
    expect(existsSync(join(l.work, '.tack', 'new.yml'))).toBe(false)
    expect(existsSync(join(l.work, '.gone'))).toBe(false)
  })

  it('9.3 a missing control folder cannot be created, and no placeholder is left behind', async () => {
    const l = await layout()
    const run = await sandboxed(
      l,
      'mkdir -p .claude/hooks && echo planted > .claude/settings.json; ls -a .claude | wc -l',
    )
    expect(run.stdout).toMatch(/Read-only file system/)
    expect(existsSync(join(l.work, '.claude'))).toBe(false)
  })

  it('9.3 two commands at once share a placeholder; it goes when the last one ends', async () => {
    const l = await layout()
    const slow = sandboxed(l, 'sleep 0.6; touch .claude/x 2>/dev/null || echo still-protected')
    await new Promise((r) => setTimeout(r, 150))
    await sandboxed(l, 'true')
    expect((await slow).stdout).toBe('still-protected\n')
    expect(existsSync(join(l.work, '.claude'))).toBe(false)
  })
})

describe('reads', () => {
  it('9.3 a hidden folder shows empty: $TACK_HOME/.env cannot be read; the revealed scratch folder can', async () => {
    const l = await layout()
    const run = await sandboxed(
      l,
      `cat ${l.home}/.env; ls -A ${l.home}; cat ${l.home}/scratch/spill.log; echo x > ${l.home}/scratch/new`,
    )
    expect(run.stdout).not.toContain('sk-very-secret-value')
    expect(run.stdout).toContain('No such file or directory')
    expect(run.stdout).toContain('spilled output')
    expect(existsSync(join(l.home, 'scratch', 'new'))).toBe(false)
  })

  it('9.3 a hidden file reads as empty', async () => {
    const l = await layout()
    const secret = join(l.outside, 'netrc')
    await writeFile(secret, 'machine example.com password hunter22\n')
    const policy = { ...l.policy, hidden: [secret] }
    const run = await sandboxed({ ...l, policy }, `wc -c < ${secret}; echo gone > ${secret}; cat ${secret}`)
    expect(run.stdout.trim()).toBe('0')
    expect(await readFile(secret, 'utf8')).toBe('machine example.com password hunter22\n')
  })

  it("9.3 tack's own process is invisible: a fresh /proc holds only the sandbox's processes", async () => {
    const l = await layout()
    process.env.TACK_SANDBOX_CANARY = 'canary-from-the-parent-process'
    try {
      const run = await sandboxed(
        l,
        `cat /proc/$PPID/environ /proc/1/environ 2>/dev/null | tr '\\0' '\\n'; ls /proc | grep -c '^[0-9]'; cat /proc/${process.pid}/environ`,
        { env: { PATH: process.env.PATH } },
      )
      expect(run.stdout).not.toContain('canary-from-the-parent-process')
      expect(run.stdout).toContain(`/proc/${process.pid}/environ: No such file or directory`)
      const count = Number(run.stdout.split('\n').find((line) => /^\d+$/.test(line)))
      expect(count).toBeLessThan(6)
    } finally {
      delete process.env.TACK_SANDBOX_CANARY
    }
  })
})

describe('network', () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('hello from the host\n'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  const fetchCommand = () =>
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3 | tail -1`

  it('9.3 network on by default: the host loopback server answers', async () => {
    const run = await sandboxed(await layout(), fetchCommand())
    expect(run.stdout).toContain('hello from the host')
  })

  it('9.3 network denied: only a private loopback exists, the host server is unreachable', async () => {
    const run = await sandboxed(await layout({ network: false }), fetchCommand())
    expect(run.stdout).not.toContain('hello from the host')
    expect(run.stdout).toMatch(/Connection refused|Network is unreachable/)
  })
})

describe('the runner through the sandbox', () => {
  it('9.3 exit codes and merged output pass through', async () => {
    const run = await sandboxed(await layout(), 'echo out; echo err >&2; exit 7')
    expect(run).toMatchObject({ exitCode: 7, stdout: 'out\nerr\n', timedOut: false })
  })

  it('9.3 on timeout the whole sandbox dies, including a process that left the group with setsid', async () => {
    const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const started = performance.now()
    const run = await sandboxed(await layout(), `setsid sleep 31.${marker} & sleep 32.${marker} & wait`, {
      timeoutMs: 800,
    })
    expect(run.timedOut).toBe(true)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(pidsMatching(marker)).toEqual([])
  })

  it('9.3 a TERM trap still gets its grace before the kill', async () => {
    // Abort only once the trap is set: under load, starting the sandbox can take longer than any
    // fixed timeout, and a SIGTERM before the trap exists kills bash without running it.
    const l = await layout()
    const controller = new AbortController()
    const pending = sandboxed(l, `trap 'echo got TERM; exit 3' TERM; touch trap-set; sleep 30 & wait`, {
      signal: controller.signal,
    })
    await waitForFile(join(l.work, 'trap-set'))
    controller.abort()
    const run = await pending
    expect(run.aborted).toBe(true)
    expect(run.stdout).toContain('got TERM')
    expect(run.exitCode).toBe(3)
  })

  it('9.3 abort takes the sandboxed command down', async () => {
    const marker = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const controller = new AbortController()
    const pending = sandboxed(await layout(), `sleep 33.${marker}`, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 300))
    controller.abort()
    expect((await pending).aborted).toBe(true)
    expect(pidsMatching(marker)).toEqual([])
  })

  it('9.3 output beyond the cap is cut and spilled as without the sandbox', async () => {
    const l = await layout()
    const spillPath = join(l.outside, 'spill.log')
    const run = await sandboxed(l, 'head -c 100000 /dev/zero | tr "\\0" a', {
      maxOutputBytes: 1000,
      spillPath,
    })
    expect(run).toMatchObject({ truncated: true, totalBytes: 100000, spillPath })
    expect((await readFile(spillPath, 'utf8')).length).toBe(100000)
  })
})

describe('detectSandbox', () => {
  it('9.3 without bwrap on the PATH the sandbox is unavailable, with the fix in the reason', async () => {
    const found = await probeSandbox('linux', '/nonexistent')
    expect(found).toEqual({ kind: 'none', reason: expect.stringContaining('apt-get install bubblewrap') })
  })

  it('9.3 on an unsupported platform the reason names it', async () => {
    expect(await probeSandbox('win32', '')).toEqual({
      kind: 'none',
      reason: 'no sandbox is supported on win32',
    })
  })
})
