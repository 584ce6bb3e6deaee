// Leaving the sandbox on purpose (docs/decisions/0315-leaving-the-sandbox.md) at the tool, with real
// bubblewrap and a real git repository: a command the sandbox stops is told which path and the way
// out; an escalated call runs unconfined only with an approval (never in read-only mode); a control
// folder named itself in `sandboxWritable` is writable. The parsing of error lines is pinned on the
// messages git, coreutils, npm, Python and bash write.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentOptions } from '@tack/agent'
import type { ConfigInput, Context } from '@tack/kernel'
import { tempDirOutsideTmp } from '@tack/process/testing'
import type { ToolCallRequest } from '@tack/tools'
import { stubAgent } from '@tack/tools/testing'
import { memorySession } from '@tack/session/testing'
import { describe, expect, it } from 'vitest'
import type { BashToolConfig } from '../src/config.ts'
import { sandboxDenial } from '../src/sandbox-denial.ts'
import { bashCall, bashContext, tempDir, textOf } from './helpers.ts'

function call(args: Record<string, unknown>, cwd: string, mode: string): ToolCallRequest {
  const options: AgentOptions = { permissionMode: mode }
  return { ...bashCall(args, cwd), agent: stubAgent(memorySession(cwd), { cwd, options }) }
}

async function sandboxed(config: ConfigInput<typeof BashToolConfig> = {}): Promise<Context> {
  return bashContext({ sandbox: 'on', ...config })
}

/** Lets every call through with a rule's approval, as an allow rule or a person's yes would. */
function approveAll(ctx: Context): void {
  ctx.on('tools/pre-execute', () => ({ action: 'allow', approval: 'rule' }))
}

/** A git repository with one staged file, outside /tmp (which the sandbox keeps writable). */
async function repository(): Promise<string> {
  const dir = await tempDirOutsideTmp()
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' })
  git('init', '-q')
  git('config', 'user.email', 'test@example.com')
  git('config', 'user.name', 'Test')
  await writeFile(join(dir, 'a.txt'), 'a\n')
  return dir
}

const commits = (dir: string): string =>
  execFileSync('git', ['log', '--oneline'], { cwd: dir, stdio: 'pipe' }).toString()
const hasCommits = (dir: string): boolean => {
  try {
    return commits(dir) !== ''
  } catch {
    return false
  }
}

const COMMIT = 'git add a.txt && git commit -q -m first'

describe('a command the sandbox stops', () => {
  it('git commit in workspace-write: the result names the .git path and the way out', async () => {
    const repo = await repository()
    const result = await (await sandboxed()).tools.execute(call({ command: COMMIT }, repo, 'workspace-write'))
    expect(result).toMatchObject({ isError: true, error: { code: 'COMMAND_FAILED' } })
    const text = textOf(result)
    expect(text).toContain(`[the sandbox stopped this: ${repo}/.git/index.lock is inside ${repo}/.git`)
    expect(text).toContain('"sandbox_permissions": "require_escalated"')
    // a compound command: no rule can name it; the folder to open is named
    expect(text).toContain(
      `(--allow 'bash:COMMAND' for a simple command) or make a folder writable (--sandbox-writable ${repo}/.git)`,
    )
    expect(result.meta).toMatchObject({ sandboxDenial: { kind: 'read-only', protectedBy: `${repo}/.git` } })
    expect(hasCommits(repo)).toBe(false)
  })

  it('a write outside the workspace names the path; read-only mode says it cannot be left', async () => {
    const [work, outside] = [await tempDirOutsideTmp(), await tempDirOutsideTmp()]
    const ctx = await sandboxed()
    const written = await ctx.tools.execute(call({ command: `touch ${outside}/f` }, work, 'workspace-write'))
    expect(textOf(written)).toContain(`${outside}/f is outside the folders the sandbox lets commands write`)
    expect(textOf(written)).toContain(
      `(--allow 'bash:touch ${outside}/f') or make a folder writable (--sandbox-writable PATH)`,
    )
    const readOnly = await ctx.tools.execute(call({ command: 'touch f' }, work, 'read-only'))
    expect(textOf(readOnly)).toContain('read-only mode, which does not allow leaving the sandbox')
  })

  it('a failure that is not the sandbox gets no note', async () => {
    const result = await (await sandboxed()).tools.execute(
      call({ command: 'echo "Read-only file system" >&2; exit 3' }, await tempDir(), 'workspace-write'),
    )
    expect(textOf(result)).not.toContain('the sandbox stopped this')
  })

  it('with the network off, a network error names it', async () => {
    const result = await (await sandboxed({ sandboxNetwork: 'deny' })).tools.execute(
      call(
        { command: 'getent hosts example.com || echo "Could not resolve host: example.com"; exit 6' },
        await tempDir(),
        'workspace-write',
      ),
    )
    expect(textOf(result)).toContain('the network is off for sandboxed commands')
  })
})

describe('an escalated call', () => {
  const escalated = { command: COMMIT, sandbox_permissions: 'require_escalated', justification: 'commit' }

  it('without an approval nothing runs: ESCALATION_REFUSED', async () => {
    const repo = await repository()
    const result = await (await sandboxed()).tools.execute(call(escalated, repo, 'workspace-write'))
    expect(result).toMatchObject({ isError: true, error: { code: 'ESCALATION_REFUSED' } })
    expect(textOf(result)).toContain('[the command was not run outside the sandbox:')
    expect(hasCommits(repo)).toBe(false)
  })

  it('with an approval it runs unconfined: the commit lands', async () => {
    const repo = await repository()
    const ctx = await sandboxed()
    approveAll(ctx)
    const result = await ctx.tools.execute(call(escalated, repo, 'workspace-write'))
    expect(result.isError).toBe(false)
    expect(result.meta).toMatchObject({ escalated: true })
    expect(commits(repo)).toContain('first')
  })

  it('in read-only mode it is refused even with an approval', async () => {
    const repo = await repository()
    const ctx = await sandboxed()
    approveAll(ctx)
    const result = await ctx.tools.execute(call(escalated, repo, 'read-only'))
    expect(result).toMatchObject({ isError: true, error: { code: 'ESCALATION_REFUSED' } })
    expect(hasCommits(repo)).toBe(false)
  })
})

describe('sandboxWritable naming a control folder', () => {
  it('.git named itself is writable: the commit lands in the sandbox', async () => {
    const repo = await repository()
    const ctx = await sandboxed({ sandboxWritable: [join(repo, '.git')] })
    const result = await ctx.tools.execute(call({ command: COMMIT }, repo, 'workspace-write'))
    expect(textOf(result)).not.toContain('Read-only file system')
    expect(commits(repo)).toContain('first')
  })

  it('naming the workspace does not open its .git', async () => {
    const repo = await repository()
    const ctx = await sandboxed({ sandboxWritable: [repo] })
    await ctx.tools.execute(call({ command: COMMIT }, repo, 'workspace-write'))
    expect(hasCommits(repo)).toBe(false)
    expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false)
  })
})

describe('reading error lines', () => {
  const policy = {
    writable: ['/tmp', '/w'],
    readOnly: ['/w/.git'],
    hidden: ['/home/u/.ssh'],
    revealed: [],
    network: false,
  }
  it.each([
    ["fatal: Unable to create '/w/.git/index.lock': Read-only file system", '/w/.git/index.lock'],
    ["touch: cannot touch '/home/u/x': Read-only file system", '/home/u/x'],
    ["npm ERR! EROFS: read-only file system, mkdir '/home/u/.npm/_cacache'", '/home/u/.npm/_cacache'],
    ["OSError: [Errno 30] Read-only file system: '/opt/x'", '/opt/x'],
    ['bash: line 1: /etc/x: Read-only file system', '/etc/x'],
    ["touch: cannot touch '.git/x': Read-only file system", '/w/.git/x'],
  ])('%s names %s', (line, path) => {
    expect(sandboxDenial(`some output\n${line}\n`, policy, '/w')).toMatchObject({ kind: 'read-only', path })
  })

  it('a hidden path refused, a network error with the network off; none in a writable folder', () => {
    expect(sandboxDenial("cat: '/home/u/.ssh/id': Permission denied", policy, '/w')).toMatchObject({
      kind: 'hidden',
      hiddenBy: '/home/u/.ssh',
    })
    expect(sandboxDenial('curl: (6) Could not resolve host: x', policy, '/w')).toEqual({ kind: 'network' })
    expect(sandboxDenial('curl: (6) Could not resolve host: x', { ...policy, network: true }, '/w')).toBe(
      undefined,
    )
    expect(sandboxDenial("touch: cannot touch '/w/x': Read-only file system", policy, '/w')).toBe(undefined)
  })
})
