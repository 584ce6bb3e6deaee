// Leaving the sandbox on purpose (issue 26 item 4, docs/decisions/0315-leaving-the-sandbox.md) through
// the real binary, a loopback scripted model and a real git repository in a temp folder: in
// workspace-write a `git commit` fails in the sandbox and the model's result names the protected path and
// the way out; the model's escalated retry is put to the person in the TUI with its reason, and after
// one "allow once" the commit lands; headless, `--allow 'bash:git commit*'` or `--sandbox-writable .git`
// let it land without a prompt, and without either the escalation is denied with the reason.
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { runOnLoop, runTack, type Sandbox, sandbox } from './helpers.ts'
import { closeAllTuis, openTui, submit } from './pty/tui-session.ts'

afterEach(closeAllTuis)

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: dir, stdio: 'pipe' }).toString()

/** A git repository in `dir` with a.txt, staged when `stage` says so. */
async function repository(dir: string, stage: boolean): Promise<void> {
  git(dir, 'init', '-q')
  git(dir, 'config', 'user.email', 'test@example.com')
  git(dir, 'config', 'user.name', 'Test')
  await writeFile(join(dir, 'a.txt'), 'a\n')
  if (stage) git(dir, 'add', 'a.txt')
}

const hasCommit = (dir: string): boolean => {
  try {
    return git(dir, 'log', '--oneline').includes('first')
  } catch {
    return false
  }
}

const bash = (args: Record<string, unknown>): LoopbackEntry => ({
  kind: 'tool-calls',
  calls: [{ name: 'bash', args }],
})
const COMMIT = 'git commit -q -m first'
const escalated = {
  command: COMMIT,
  sandbox_permissions: 'require_escalated',
  justification: 'the sandbox keeps .git read-only and the user asked for a commit',
}

/** Every tool result the model was sent, as the requests carried them. */
const sent = (requests: readonly { body?: unknown }[]): string =>
  requests.map((r) => JSON.stringify(r.body ?? '')).join('\n')

async function headless(box: Sandbox, script: LoopbackEntry[], flags: string[]) {
  const server = await startLoopbackServer({ script })
  try {
    const run = await runOnLoop(box, server.baseUrl, ['--model', 'loop/m', ...flags, 'commit a.txt'])
    return { run, seen: sent(server.requests) }
  } finally {
    await server.close()
  }
}

describe('headless (tack run, workspace-write)', () => {
  it('the sandboxed commit names .git and the way out; the escalation without a rule is denied with the reason', async () => {
    const box = await sandbox()
    await repository(box.workspace, true)
    const { run, seen } = await headless(
      box,
      [bash({ command: COMMIT }), bash(escalated), { kind: 'text', text: 'Could not.' }],
      [],
    )
    expect(run.code).toBe(0)
    expect(seen).toContain(
      `[the sandbox stopped this: ${box.workspace}/.git/index.lock is inside ${box.workspace}/.git`,
    )
    expect(seen).toContain('\\"sandbox_permissions\\": \\"require_escalated\\"')
    expect(seen).toContain('no approver is available in this run, so the call is denied')
    expect(seen).toContain("--allow 'bash:git commit -q -m first'")
    expect(hasCommit(box.workspace)).toBe(false)
  })

  it("--allow 'bash:git commit*' lets the escalated commit land without a prompt", async () => {
    const box = await sandbox()
    await repository(box.workspace, true)
    const { run } = await headless(
      box,
      [bash(escalated), { kind: 'text', text: 'Committed.' }],
      ['--allow', 'bash:git commit*'],
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Committed.')
    expect(hasCommit(box.workspace)).toBe(true)
  })

  it("--allow 'bash:*' names no command: like a bare --allow bash it runs commands in the sandbox, never out of it", async () => {
    const box = await sandbox()
    await repository(box.workspace, true)
    const { run, seen } = await headless(
      box,
      [bash(escalated), { kind: 'text', text: 'Could not.' }],
      ['--allow', 'bash:*'],
    )
    expect(run.code).toBe(0)
    expect(seen).toContain('no approver is available in this run, so the call is denied')
    expect(hasCommit(box.workspace)).toBe(false)
  })

  it('--sandbox-writable .git lets the commit land in the sandbox, not escalated', async () => {
    const box = await sandbox()
    await repository(box.workspace, false)
    const script = [
      bash({ command: `git add a.txt && ${COMMIT}` }),
      { kind: 'text', text: 'Committed.' },
    ] as LoopbackEntry[]
    const { run, seen } = await headless(box, script, ['--sandbox-writable', '.git'])
    expect(run.code).toBe(0)
    expect(seen).not.toContain('the sandbox stopped this')
    expect(hasCommit(box.workspace)).toBe(true)
  })

  it("an untrusted project's config cannot grant it: its allow rule and sandboxWritable are held back", async () => {
    const box = await sandbox()
    await repository(box.workspace, true)
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(
      join(box.workspace, '.tack', 'config.yml'),
      `plugins:\n  permissions:\n    allow: [{ tool: bash, command: "git commit*" }]\n  bash:\n    sandboxWritable: ["${box.workspace}/.git"]\n`,
    )
    const script: LoopbackEntry[] = [
      bash({ command: COMMIT }),
      bash(escalated),
      { kind: 'text', text: 'Could not.' },
    ]
    const { run, seen } = await headless(box, script, [])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain('plugins.permissions.allow, plugins.bash.sandboxWritable')
    expect(seen).toContain('[the sandbox stopped this:')
    expect(seen).toContain('no approver is available in this run, so the call is denied')
    expect(hasCommit(box.workspace)).toBe(false)
  })

  it('--sandbox-writable naming no folder is a usage error', async () => {
    const box = await sandbox()
    const run = await runTack(['run', '--sandbox-writable', 'no-such-dir', 'hi'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(
      `--sandbox-writable no-such-dir: ${box.workspace}/no-such-dir is not an existing folder`,
    )
  })
})

describe('interactive (the TUI, workspace-write)', () => {
  it('the escalation is asked with its reason; after one "allow once" the commit lands', async () => {
    const { term, box, server } = await openTui(
      [bash({ command: COMMIT }), bash(escalated), { kind: 'text', text: 'Committed it.' }],
      {
        args: ['--permission-mode', 'workspace-write'],
        cols: 160,
        prepare: (workspace) => repository(workspace, true),
      },
    )
    await submit(term, 'commit a.txt')
    const question = await term.waitFor('Permission required', 20_000)
    expect(question).toContain('outside the sandbox (reason given: the sandbox keeps .git read-only')
    expect(hasCommit(box.workspace)).toBe(false)
    term.press('enter')
    await term.waitFor('Committed it.', 20_000)
    expect(hasCommit(box.workspace)).toBe(true)
    expect(sent(server.requests)).toContain(`${box.workspace}/.git/index.lock is inside`)
  })
})
