// Issue 10 item 6 through the real binary: `--allow TOOL[:pattern]` / `--deny TOOL[:pattern]` add
// permission rules for one run; a permission mode or rule in a config file is honoured by `tack run`
// exactly like the flag; an untrusted project config still cannot widen access.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tempDirOutsideTmp } from '@tack/process/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, writeJson } from './helpers.ts'

interface ToolOutcome {
  readonly name: string
  readonly isError: boolean
  readonly code?: string
  readonly text: string
}

/** Runs one scripted turn that makes `calls` (one step each), then answers; returns each call's outcome. */
async function runCalls(
  box: Sandbox,
  calls: ReadonlyArray<{ name: string; args: unknown }>,
  flags: readonly string[] = [],
): Promise<{ code: number | null; stderr: string; outcomes: ToolOutcome[] }> {
  const script = [...calls.map((c) => ({ kind: 'tool-calls', calls: [c] })), { kind: 'text', text: 'done' }]
  const file = await writeJson(join(box.root, `script-${Math.random().toString(36).slice(2)}.json`), script)
  const r = await runTack(['run', '--json', '--model', `scripted/${file}`, ...flags, 'go'], {
    env: box.env,
    cwd: box.workspace,
  })
  const outcomes = jsonLines(r.stdout)
    .filter((l) => l.type === 'tool/result')
    .map((l) => {
      const data = l.data as {
        name: string
        isError: boolean
        error?: { code: string }
        content: Array<{ text: string }>
      }
      return {
        name: data.name,
        isError: data.isError,
        ...(data.error ? { code: data.error.code } : {}),
        text: data.content.map((c) => c.text).join(''),
      }
    })
  return { code: r.code, stderr: r.stderr, outcomes }
}

const ECHO = { name: 'bash', args: { command: 'echo hi' } }
const TOUCH = { name: 'bash', args: { command: 'touch made.txt' } }
const RM = { name: 'bash', args: { command: 'rm keep.txt' } }

describe('--allow / --deny (issue 10 item 6)', () => {
  test('--deny TOOL:command denies matching commands only; --deny TOOL denies every call of the tool', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'keep.txt'), 'x')
    const r = await runCalls(box, [RM, ECHO], ['--deny', 'bash:rm'])
    expect(r.code).toBe(0)
    expect(r.outcomes.map((o) => o.code ?? 'ok')).toEqual(['DENIED', 'ok'])
    expect(r.outcomes[0].text).toContain('{"tool":"bash","command":"rm"}')
    expect(existsSync(join(box.workspace, 'keep.txt'))).toBe(true)
    const write = await runCalls(
      box,
      [{ name: 'write', args: { file_path: 'new.txt', content: 'x' } }],
      ['--deny', 'write'],
    )
    expect(write.outcomes[0].code).toBe('DENIED')
    expect(existsSync(join(box.workspace, 'new.txt'))).toBe(false)
  })

  test('--allow lets a command through read-only mode, only that command; repeatable', async () => {
    const box = await sandbox()
    const r = await runCalls(
      box,
      [ECHO, TOUCH, { name: 'bash', args: { command: 'pwd' } }],
      ['--permission-mode', 'read-only', '--allow', 'bash:echo', '--allow', 'bash:pwd'],
    )
    expect(r.outcomes.map((o) => o.code ?? 'ok')).toEqual(['ok', 'DENIED', 'ok'])
    expect(r.outcomes[0].text).toContain('hi')
    expect(existsSync(join(box.workspace, 'made.txt'))).toBe(false)
  })

  test('read-only as the README says: reads pass; write, edit and bash are denied; an allowed command cannot write the workspace', async () => {
    const box = await sandbox()
    // a workspace outside the temp folders, which stay writable in read-only
    const work = await tempDirOutsideTmp()
    await writeFile(join(work, 'a.txt'), 'A\n')
    const r = await runCalls(
      box,
      [
        { name: 'read', args: { file_path: 'a.txt' } },
        { name: 'grep', args: { pattern: 'A' } },
        { name: 'write', args: { file_path: 'b.txt', content: 'B' } },
        { name: 'edit', args: { file_path: 'a.txt', old_string: 'A', new_string: 'Z' } },
        { name: 'bash', args: { command: 'echo x > c.txt' } },
        { name: 'bash', args: { command: 'touch made.txt' } },
      ],
      ['--permission-mode', 'read-only', '--allow', 'bash:touch', '--cwd', work],
    )
    expect(r.outcomes.map((o) => o.code ?? (o.isError ? 'error' : 'ok'))).toEqual([
      'ok',
      'ok',
      'DENIED',
      'DENIED',
      'DENIED',
      'COMMAND_FAILED',
    ])
    expect(r.outcomes[2].text).toContain('Read-only mode does not allow this')
    expect(r.outcomes[5].text).toMatch(/Read-only file system|Permission denied/)
    expect(existsSync(join(work, 'made.txt'))).toBe(false)
    expect(existsSync(join(work, 'c.txt'))).toBe(false)
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('A\n')
  })

  test('--allow read:PATH is a path rule: it lets a read outside the workspace through', async () => {
    const box = await sandbox()
    const outside = join(box.root, 'outside')
    await mkdir(outside)
    await writeFile(join(outside, 'doc.txt'), 'outside text')
    const read = { name: 'read', args: { file_path: join(outside, 'doc.txt') } }
    const without = await runCalls(box, [read])
    expect(without.outcomes[0].isError).toBe(true)
    const allowed = await runCalls(box, [read], ['--allow', `read:${outside}/**`])
    expect(allowed.outcomes[0].isError).toBe(false)
    expect(allowed.outcomes[0].text).toContain('outside text')
  })

  test('bad specs are one-line usage errors naming the flag', async () => {
    const box = await sandbox()
    const upper = await runTack(['run', '--allow', 'Bash', 'x'], { env: box.env, cwd: box.workspace })
    expect(upper.code).toBe(2)
    expect(upper.stderr).toBe(
      'tack: --allow "Bash": TOOL must be a tool name (lower case, e.g. bash, read, write), an MCP tool name (mcp__server__tool), * or a wildcard such as mcp__github__* — the form is TOOL or TOOL:pattern\n',
    )
    const empty = await runTack(['run', '--deny', 'bash:', 'x'], { env: box.env, cwd: box.workspace })
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('--deny "bash:": the pattern after ":" is empty')
    const model = await writeJson(join(box.root, 'unused.json'), [{ kind: 'text', text: 'never' }])
    const typo = await runTack(['run', '--model', `scripted/${model}`, '--deny', 'bsh:rm', 'x'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(typo.code).toBe(2)
    expect(typo.stderr).toMatch(/^tack: --deny: no tool is named "bsh" \(tools: .*bash.*\)\n$/)
  })
})

describe('a permission mode or rule in a config file is honoured by run like the flag (issue 10 item 6)', () => {
  const userConfig = async (box: Sandbox, yaml: string) => {
    await mkdir(box.tackHome, { recursive: true })
    await writeFile(join(box.tackHome, 'config.yml'), yaml)
  }

  test.each([
    ['permissionMode: read-only', 'permissionMode: read-only\n'],
    ['plugins.permissions.mode: read-only', 'plugins:\n  permissions: { mode: read-only }\n'],
  ])('%s in the user config denies bash, as the flag does', async (_name, yaml) => {
    const box = await sandbox()
    await userConfig(box, yaml)
    const r = await runCalls(box, [TOUCH])
    expect(r.outcomes[0].code).toBe('DENIED')
    expect(r.outcomes[0].text).toContain('Read-only mode does not allow this')
    expect(existsSync(join(box.workspace, 'made.txt'))).toBe(false)
  })

  test('--permission-mode read-only denies the same call; the flag beats the file', async () => {
    const flag = await sandbox()
    const r = await runCalls(flag, [TOUCH], ['--permission-mode', 'read-only'])
    expect(r.outcomes[0].code).toBe('DENIED')
    const both = await sandbox()
    await userConfig(both, 'plugins:\n  permissions: { mode: read-only }\n')
    const over = await runCalls(both, [TOUCH], ['--permission-mode', 'workspace-write'])
    expect(over.outcomes[0].isError).toBe(false)
  })

  test('rules in the config file apply, and the flags add to them', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'keep.txt'), 'x')
    await userConfig(
      box,
      'permissionMode: read-only\nplugins:\n  permissions:\n    allow: [{ tool: bash, command: echo }]\n    deny: [{ tool: bash, command: "echo secret" }]\n',
    )
    const r = await runCalls(
      box,
      [ECHO, { name: 'bash', args: { command: 'echo secret' } }, { name: 'bash', args: { command: 'pwd' } }],
      ['--allow', 'bash:pwd'],
    )
    expect(r.outcomes.map((o) => o.code ?? 'ok')).toEqual(['ok', 'DENIED', 'ok'])
  })

  test('--allow or --deny with the permissions plugin turned off is one clear error, exit 2, in any boot order', async () => {
    for (const seed of [undefined, '3']) {
      const box = await sandbox(seed === undefined ? {} : { TACK_DEV_SHUFFLE_CATALOG: seed })
      await userConfig(box, 'plugins:\n  permissions: false\n')
      const r = await runCalls(box, [ECHO], ['--deny', 'bash'])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(
        '--allow/--deny need the permissions plugin, which the config turns off (plugins.permissions: false)',
      )
      expect(r.outcomes).toEqual([])
    }
  })

  test('an untrusted project config cannot widen access; a narrowing mode from it is honoured', async () => {
    const box = await sandbox()
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(
      join(box.workspace, '.tack', 'config.yml'),
      'permissionMode: yolo\nplugins:\n  permissions:\n    allow: [{ tool: bash }]\n',
    )
    const widened = await runCalls(box, [TOUCH], ['--permission-mode', 'read-only'])
    expect(widened.stderr).toContain('ignored from')
    expect(widened.stderr).toContain('permissionMode, plugins.permissions.allow')
    expect(widened.outcomes[0].code).toBe('DENIED')

    await writeFile(
      join(box.workspace, '.tack', 'config.yml'),
      'plugins:\n  permissions: { mode: read-only }\n',
    )
    const narrowed = await runCalls(box, [TOUCH])
    expect(narrowed.outcomes[0].code).toBe('DENIED')
    expect(existsSync(join(box.workspace, 'made.txt'))).toBe(false)
  })
})
