// Issue 10 items 1, 2 and 4 through the real binary against the loopback model server: project
// instructions in the session prefix, continue (-c) and resume by id prefix (-r) with byte-identical
// request prefixes, the --json start and result lines, and ambiguous or unknown session ids.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoggedRequest, startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

type Line = Record<string, unknown>
type Wire = { messages: Array<{ role: string; content: unknown }> }

const messagesOf = (r: LoggedRequest) => (r.body as Wire).messages
/** The raw JSON text of each wire message: "byte-identical" is compared on these. */
const rawMessages = (r: LoggedRequest) => messagesOf(r).map((m) => JSON.stringify(m))
const textOf = (m: { content: unknown }) =>
  typeof m.content === 'string' ? m.content : JSON.stringify(m.content)

async function workspace() {
  const server = await startLoopbackServer({
    script: [
      { kind: 'text', text: 'one', usage: { inputTokens: 1000, outputTokens: 10 } },
      { kind: 'text', text: 'two', usage: { inputTokens: 1100, outputTokens: 10 } },
      { kind: 'text', text: 'three', usage: { inputTokens: 1200, outputTokens: 10 } },
      { kind: 'text', text: 'four', usage: { inputTokens: 1300, outputTokens: 10 } },
    ],
  })
  const box = await sandbox()
  const repo = join(box.workspace, 'repo')
  const sub = join(repo, 'pkg', 'sub')
  await mkdir(join(repo, '.git'), { recursive: true })
  await mkdir(sub, { recursive: true })
  await mkdir(box.tackHome, { recursive: true })
  await writeFile(join(box.tackHome, 'AGENTS.md'), 'USER-LEVEL: answer briefly.\n')
  await writeFile(join(box.workspace, 'AGENTS.md'), 'ABOVE-THE-REPO: never read.\n')
  await writeFile(join(repo, 'AGENTS.md'), 'REPO-ROOT: run npm test.\n')
  await symlink(join(repo, 'AGENTS.md'), join(repo, 'CLAUDE.md')) // the same file: read once
  await writeFile(join(repo, 'pkg', 'AGENTS.md'), 'PKG: packages are small.\n')
  await writeFile(join(sub, 'AGENTS.md'), 'SUB-AGENTS: tabs.\n')
  await writeFile(join(sub, 'CLAUDE.md'), 'SUB-CLAUDE: no emojis.\n')
  const config = await writeLoopConfig(box.root, server.baseUrl)
  const run = (args: string[], cwd = sub) =>
    runTack(['run', '--json', '--config', config, '--model', 'loop/gpt-4.1', ...args], {
      env: box.env,
      cwd,
    })
  return { server, box, repo, sub, config, run }
}

describe('continue and resume, with project instructions in the prefix', () => {
  test('issue 10.1/10.2/10.4: AGENTS.md order, -c and -r PREFIX keep the request prefix byte-identical; start and result lines', async () => {
    const { server, box, repo, sub, run } = await workspace()
    try {
      const first = await run(['first task'])
      expect(first.stderr).toBe('')
      expect(first.code).toBe(0)
      const lines = jsonLines(first.stdout)
      const start = lines[0] as Line
      expect(start).toMatchObject({
        type: 'start',
        version: 2,
        model: 'loop/gpt-4.1',
        workspace: sub,
        permissionMode: 'workspace-write',
        resumed: false,
      })
      expect(start.tools).toEqual(expect.arrayContaining(['bash', 'edit', 'read', 'write']))
      const result = lines.at(-1) as Line
      const id = start.sessionId as string
      expect(result).toMatchObject({
        type: 'result',
        version: 2,
        sessionId: id,
        isError: false,
        answer: 'one',
        turns: 1,
        steps: 1,
        permissionDenials: [],
        usage: { inputTokens: 1000, outputTokens: 10 },
      })
      expect(result.error).toBeUndefined()
      // gpt-4.1 is priced in the catalogue: $2 per million input and $8 per million output tokens
      expect(result.costUsd).toBeCloseTo((1000 * 2 + 10 * 8) / 1e6, 10)
      expect(typeof result.durationMs).toBe('number')
      // the instruction files, general to specific, once each; nothing above the repository root
      const loaded = lines.find((l) => l.type === 'instructions/loaded') as {
        data: { files: Array<{ path: string; scope: string }>; text: string }
      }
      expect(loaded.data.files.map((f) => [f.path, f.scope])).toEqual([
        [join(box.tackHome, 'AGENTS.md'), 'user'],
        [join(repo, 'AGENTS.md'), 'project'],
        [join(repo, 'pkg', 'AGENTS.md'), 'project'],
        [join(sub, 'AGENTS.md'), 'project'],
        [join(sub, 'CLAUDE.md'), 'project'],
      ])
      const [firstRequest] = server.requests
      const prefix = textOf(messagesOf(firstRequest).find((m) => m.role === 'user')!)
      const order = ['USER-LEVEL', 'REPO-ROOT', 'PKG:', 'SUB-AGENTS', 'SUB-CLAUDE'].map((w) =>
        prefix.indexOf(w),
      )
      expect(order.every((at) => at >= 0)).toBe(true)
      expect([...order].sort((a, b) => a - b)).toEqual(order)
      expect(prefix).not.toContain('ABOVE-THE-REPO')
      expect(prefix.match(/REPO-ROOT/g)).toHaveLength(1)

      // The files change; the session keeps the text it recorded.
      await writeFile(join(repo, 'AGENTS.md'), 'REPO-ROOT: CHANGED.\n')
      const second = await run(['-c', 'second task'])
      expect(second.code).toBe(0)
      const secondLines = jsonLines(second.stdout)
      expect(secondLines[0]).toMatchObject({ type: 'start', sessionId: id, resumed: true })
      const prior = (secondLines[0] as { priorEvents: number }).priorEvents
      expect((secondLines[1] as { seq: number }).seq).toBe(prior) // the history is not printed again
      expect(secondLines.at(-1)).toMatchObject({ sessionId: id, answer: 'two', turns: 1 })

      // -r with an id prefix, from another folder: the session runs in its own workspace
      const third = await run(['-r', id.slice(0, 8), 'third task'], box.root)
      expect(third.code).toBe(0)
      expect(jsonLines(third.stdout)[0]).toMatchObject({ sessionId: id, workspace: sub, resumed: true })

      const [r1, r2, r3] = server.requests.map(rawMessages)
      expect(r2.slice(0, r1.length)).toEqual(r1)
      expect(r3.slice(0, r2.length)).toEqual(r2)
      expect(r2.length).toBe(r1.length + 2)
      expect(JSON.stringify(server.requests[2].body)).not.toContain('CHANGED')

      // A fork is continued like any session.
      const fork = await runTack(['sessions', 'fork', id.slice(0, 8)], { env: box.env, cwd: sub })
      expect(fork.code).toBe(0)
      const child = fork.stdout.trim()
      const fourth = await run(['-r', child, 'fourth task'])
      expect(fourth.code).toBe(0)
      expect(jsonLines(fourth.stdout).at(-1)).toMatchObject({ sessionId: child, answer: 'four' })
      expect(rawMessages(server.requests[3]).slice(0, r3.length)).toEqual(r3)
      server.assertConsumed()

      // sessions list: the summary of each, newest first, in text and JSON alike
      const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: sub })
      const summaries = JSON.parse(list.stdout) as Array<Record<string, unknown>>
      expect(summaries.map((s) => s.id)).toEqual([child, id])
      expect(summaries[1]).toMatchObject({
        turns: 3,
        firstPrompt: 'first task',
        model: 'loop/gpt-4.1',
        cwd: sub,
      })
      expect(summaries[0]).toMatchObject({ turns: 4, parentSession: id })
      const text = await runTack(['sessions', 'list'], { env: box.env, cwd: sub })
      const rows = text.stdout.split('\n').filter((l) => /^\S/.test(l))
      expect(rows[0]).toContain(child)
      expect(rows[0]).toContain(`(fork of ${id})`)
      expect(rows[1]).toMatch(new RegExp(`^${id}  \\S+\\s+3 turn\\(s\\)  loop/gpt-4\\.1  ${sub}$`))
      expect(text.stdout).toContain('"first task"')
    } finally {
      await server.close()
    }
  })

  test('issue 10.1: -c with no session here, an unknown id and an ambiguous prefix are one-line errors (exit 1)', async () => {
    const { server, box, sub, run } = await workspace()
    try {
      const none = await run(['-c', 'x'])
      expect(none.code).toBe(1)
      expect(none.stderr).toBe(
        `tack: no session to continue in ${sub} (start one with tack, or tack run "task")\n`,
      )
      for (const id of ['abc-1111', 'abc-2222']) {
        const header = { version: 1, id, createdAt: '2025-01-01T00:00:00.000Z', cwd: sub }
        const imported = await runTack(['sessions', 'import', '-'], {
          env: box.env,
          cwd: sub,
          input: `${JSON.stringify({ type: 'session/header', header })}\n`,
        })
        expect(imported.stdout).toBe(`${id}\n`)
      }
      for (const args of [
        ['run', '-r', 'abc', 'x', '--model', 'loop/x'],
        ['sessions', 'show', 'abc'],
        ['sessions', 'export', 'abc'],
        ['sessions', 'fork', 'abc'],
        ['sessions', 'rm', 'abc'],
      ]) {
        const r = await runTack(args, { env: box.env, cwd: sub })
        expect(r.code, args.join(' ')).toBe(1)
        const errLines = r.stderr.trimEnd().split('\n')
        expect(errLines[0]).toBe('tack: session id "abc" is ambiguous; it matches:')
        expect(
          errLines
            .slice(1)
            .map((l) => l.trim().split(/\s+/)[0])
            .sort(),
        ).toEqual(['abc-1111', 'abc-2222'])
      }
      const unknown = await runTack(['sessions', 'show', 'zzz'], { env: box.env, cwd: sub })
      expect(unknown.code).toBe(1)
      expect(unknown.stderr).toBe('tack: no session "zzz" (tack sessions list shows them)\n')
      const rm = await runTack(['sessions', 'rm', 'abc-2'], { env: box.env, cwd: sub })
      expect(rm.stdout).toBe('removed abc-2222\n')
      expect(server.requests).toHaveLength(0)
    } finally {
      await server.close()
    }
  })

  test('issue 10.2: plugins.instructions.enabled false reads nothing; a small maxBytes cuts the text with a note; 0 is rejected', async () => {
    const { server, box, config, sub } = await workspace()
    try {
      // one --config file each: the endpoint, plus the instructions setting under test
      const endpoint = await readFile(config, 'utf8')
      const withSetting = async (name: string, setting: string) => {
        const file = join(box.root, name)
        await writeFile(file, `${endpoint}  instructions: ${setting}\n`)
        return file
      }
      const off = await withSetting('off.yml', '{ enabled: false }')
      const cap = await withSetting('cap.yml', '{ maxBytes: 46 }')
      const bad = await withSetting('bad.yml', '{ maxBytes: 0 }')
      const base = ['run', '--json', '--model', 'loop/test-model']
      const r1 = await runTack([...base, '--config', off, 'a'], { env: box.env, cwd: sub })
      expect(r1.code, r1.stderr).toBe(0)
      expect(JSON.stringify(server.requests[0].body)).not.toContain('USER-LEVEL')
      expect(jsonLines(r1.stdout).some((l) => l.type === 'instructions/loaded')).toBe(false)
      const r2 = await runTack([...base, '--config', cap, 'b'], { env: box.env, cwd: sub })
      expect(r2.code, r2.stderr).toBe(0)
      const body = textOf(messagesOf(server.requests[1]).find((m) => m.role === 'user')!)
      expect(body).toContain('USER-LEVEL: answer briefly.')
      expect(body).toContain('REPO-ROOT: run npm')
      expect(body).not.toContain('npm test')
      expect(body).not.toContain('PKG:')
      expect(body).toContain('cut at 46 bytes (plugins.instructions.maxBytes)')
      const r3 = await runTack([...base, '--config', bad, 'c'], { env: box.env, cwd: sub })
      expect(r3.code).toBe(2)
      expect(r3.stderr).toContain('plugins.instructions.maxBytes')
      expect(r3.stderr.trim().split('\n')).toHaveLength(1)
      const doctor = await runTack(['doctor', '--config', config], { env: box.env, cwd: sub })
      const listed = doctor.stdout.split('\n').filter((l) => l.startsWith('instructions'))
      expect(listed.map((l) => l.split(/\s+/)[1])).toEqual([
        join(box.tackHome, 'AGENTS.md'),
        join(box.workspace, 'repo', 'AGENTS.md'),
        join(box.workspace, 'repo', 'pkg', 'AGENTS.md'),
        join(sub, 'AGENTS.md'),
        join(sub, 'CLAUDE.md'),
      ])
    } finally {
      await server.close()
    }
  })
})
