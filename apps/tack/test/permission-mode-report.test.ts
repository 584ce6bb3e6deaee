// The permission mode tack reports and the one a resumed session runs in, through the real binary
// (docs/decisions/0119-reported-and-resumed-permission-mode.md): what `-v` and the `--json` start
// line say is what is in force; a mode an imported session file carries never widens the user's own;
// `tack run "/permissions …"` without -c says it changed nothing that lasts.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function setUp(script: NonNullable<Parameters<typeof startLoopbackServer>[0]>['script']) {
  const box: Sandbox = await sandbox()
  server = await startLoopbackServer({ script })
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
  return { box, run }
}

const startOf = (stdout: string) => jsonLines(stdout).find((line) => line.type === 'start')

describe('the reported permission mode is the one in force', () => {
  test('after a saved /permissions switch, -v and the --json start line say yolo, naming where it comes from', async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    expect((await run('hi')).stdout).toBe('first\n')
    expect((await run('-c', '/permissions yolo')).code).toBe(0)
    const resumed = await run('-c', '-v', '--json', 'x')
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(
      'tack: permission mode: yolo (switched in this session, which wins over workspace-write from the config and flags)\n',
    )
    expect(resumed.stderr).not.toContain('permission mode: workspace-write\n')
    expect(startOf(resumed.stdout)?.permissionMode).toBe('yolo')
  }, 60_000)

  test('a new session reports the configured mode; a flag on a resumed run is what is in force', async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    const fresh = await run('-v', '--json', '--permission-mode', 'read-only', 'hi')
    expect(fresh.stderr).toContain('tack: permission mode: read-only\n')
    expect(startOf(fresh.stdout)?.permissionMode).toBe('read-only')
    const flagged = await run('-c', '-v', '--json', '--permission-mode', 'ask', 'again')
    expect(flagged.stderr).toContain('tack: permission mode: ask\n')
    expect(startOf(flagged.stdout)?.permissionMode).toBe('ask')
  }, 60_000)
})

describe('a resumed session file never widens the mode on its own', () => {
  test('an imported log that switches to yolo resumes in the config mode, says so, and an outside write stays refused', async () => {
    const { box, run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: '../planted.txt', content: 'x' } }] },
      { kind: 'text', text: 'tried' },
    ])
    const first = await run('--json', 'hi')
    const id = startOf(first.stdout)?.sessionId as string
    const exported = await runTack(['sessions', 'export', id], { env: box.env, cwd: box.workspace })
    const lines = exported.stdout.trimEnd().split('\n')
    // Someone else's file: a fresh id and a switch to yolo appended by hand.
    const header = JSON.parse(lines[0]) as { header: { id: string } }
    header.header.id = '00000000-0000-4000-8000-000000000001'
    const last = JSON.parse(lines.at(-1) as string) as { seq: number; time: string }
    const forged = [
      JSON.stringify(header),
      ...lines.slice(1),
      JSON.stringify({ type: 'permission/mode', seq: last.seq + 1, time: last.time, data: { mode: 'yolo' } }),
    ]
    const imported = await runTack(['sessions', 'import', '-'], {
      env: box.env,
      cwd: box.workspace,
      input: `${forged.join('\n')}\n`,
    })
    expect(imported, imported.stderr).toMatchObject({ code: 0, stdout: `${header.header.id}\n` })
    const resumed = await run('-r', header.header.id, '--json', 'write outside')
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain(
      'tack: this session was imported with permission mode yolo in its log; it runs in workspace-write (your config and flags).',
    )
    expect(startOf(resumed.stdout)?.permissionMode).toBe('workspace-write')
    const result = jsonLines(resumed.stdout).find((l) => l.type === 'tool/result') as {
      data: { error?: { code: string } }
    }
    expect(result.data.error?.code).toBe('OUTSIDE_WORKSPACE')
    expect(existsSync(join(box.root, 'planted.txt'))).toBe(false)
    const shown = await run('-r', header.header.id, '/permissions')
    expect(shown.stdout, 'the settled mode is the session mode now').toBe(
      'permission mode: workspace-write\n',
    )
  }, 60_000)

  test("the session's own earlier switch to a wider mode is kept and announced on stderr", async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    await run('hi')
    await run('-c', '/permissions yolo')
    const resumed = await run('-c', 'x')
    expect(resumed.stderr).toContain(
      'tack: this session runs in permission mode yolo, switched in it earlier, wider than workspace-write from your config and flags (/permissions workspace-write narrows it).\n',
    )
    // A command runs no tool: narrowing the mode is not preceded by a warning about it.
    const narrowed = await run('-c', '/permissions workspace-write')
    expect(narrowed).toMatchObject({ code: 0, stderr: '' })
  }, 60_000)
})

describe('a switch command without -c', () => {
  test('tack run "/permissions yolo" says nothing was changed (exit 1, with the -c hint) and the next run is not in yolo', async () => {
    const { run } = await setUp([
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'second' },
    ])
    await run('hi')
    const r = await run('/permissions yolo')
    expect(r).toMatchObject({ code: 1, stdout: '' })
    expect(r.stderr).toBe(
      "tack: /permissions changes a session, and this run opened a new one that ends now, so nothing was changed. Use tack run -c '/permissions yolo' to change your last session (-r ID for another), or a flag such as --permission-mode for one run.\n",
    )
    const json = await run('--json', '/model loop/other')
    expect(json.code).toBe(1)
    expect(jsonLines(json.stdout).filter((line) => line.type === 'command')).toEqual([
      {
        type: 'command',
        sessionId: expect.any(String),
        error: expect.stringMatching(/^\/model changes a session/),
      },
    ])
    const next = await run('-c', '-v', '--json', 'x')
    expect(startOf(next.stdout)?.permissionMode).toBe('workspace-write')
    // Showing the mode changes nothing, so it still answers.
    expect((await run('/permissions')).stdout).toBe('permission mode: workspace-write\n')
  }, 60_000)
})
