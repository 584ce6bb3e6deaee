// Prompt command files as slash commands through the real binary (85-skills-and-commands.md C1–C3, K5;
// docs/decisions/0275-prompt-commands.md): what the model is sent for `/review src/a.ts`, a namespaced
// `/frontend:component`, a Codex prompts file, a name a built-in or an MCP prompt holds, a command's `model:` for its own
// turn only, and `` !`cmd` `` that runs for the person's own command but not for an untrusted workspace's.
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'
import { writeMcpConfig } from './mcp-everything.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function setUp(files: Record<string, string>, answers = 1, extraEnv: NodeJS.ProcessEnv = {}) {
  const box = await sandbox(extraEnv)
  for (const [path, text] of Object.entries(files)) {
    const full = path.startsWith('~/') ? join(box.home, path.slice(2)) : join(box.workspace, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFile(full, text)
  }
  server = await startLoopbackServer({
    script: Array.from({ length: answers }, (_, i) => ({ kind: 'text' as const, text: `answer ${i + 1}` })),
  })
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m' })
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
  return { box, server, run }
}

/** The text of the last user message of request `i`. */
function userText(s: LoopbackServer, i: number): string {
  const body = s.requests[i]?.body as { messages: Array<{ role: string; content: unknown }> }
  const users = body.messages.filter((m) => m.role === 'user')
  const content = users[users.length - 1]?.content
  return typeof content === 'string' ? content : JSON.stringify(content)
}

function modelOf(s: LoopbackServer, i: number): string {
  return (s.requests[i]?.body as { model?: string } | undefined)?.model ?? ''
}

async function sessionEvents(box: Sandbox, id: string) {
  const out = await runTack(['sessions', 'export', id, '--format', 'jsonl'], {
    env: box.env,
    cwd: box.workspace,
  })
  return jsonLines(out.stdout)
}

describe('prompt commands in tack run (C1–C3)', () => {
  test('/review src/a.ts sends the header and the body without front matter, and the log records the command', async () => {
    const { box, server, run } = await setUp({
      '.claude/commands/review.md':
        '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $0 for bugs. Focus: $1. All: $ARGUMENTS\n',
    })
    const r = await run('--json', '/review src/a.ts')
    expect(r.code, r.stderr).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(userText(server, 0)).toBe(
      '<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/a.ts</command-args>\n\nReview src/a.ts for bugs. Focus: $1. All: src/a.ts',
    )
    const id = jsonLines(r.stdout).find((l) => l.type === 'result')?.sessionId as string
    const events = await sessionEvents(box, id)
    const types = events.map((e) => e.type)
    const at = types.indexOf('command/expanded')
    expect(at).toBeGreaterThanOrEqual(0)
    expect(types[at + 1]).toBe('user/message')
    expect(events[at]?.data).toEqual({
      name: 'review',
      kind: 'command',
      scope: 'project',
      file: join(box.workspace, '.claude/commands/review.md'),
    })
  })

  test('a subfolder gives /frontend:component; a Codex prompts file is a command too', async () => {
    const { box, server, run } = await setUp(
      {
        '.claude/commands/frontend/component.md': 'Make a React component named $ARGUMENTS.\n',
        '~/codex/prompts/fixup.md': 'Fix the failing test.\n',
      },
      2,
      {},
    )
    const env = { ...box.env, CODEX_HOME: join(box.home, 'codex') }
    const namespaced = await run('/frontend:component Button')
    expect(namespaced.code, namespaced.stderr).toBe(0)
    expect(userText(server, 0)).toContain('<command-name>/frontend:component</command-name>')
    expect(userText(server, 0)).toContain('Make a React component named Button.')
    const config = join(box.root, 'loop.yml')
    const codex = await runTack(['run', '--config', config, '/fixup tests/a.test.ts'], {
      env,
      cwd: box.workspace,
    })
    expect(codex.code, codex.stderr).toBe(0)
    expect(userText(server, 1)).toContain('Fix the failing test.\n\nARGUMENTS: tests/a.test.ts')
  })

  test('a command named like a built-in is reported once naming its file, and the built-in runs', async () => {
    const { box, server, run } = await setUp({ '.claude/commands/model.md': 'Pick a model for me.\n' })
    const r = await run('/model')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('model: loop/m\n')
    const lines = r.stderr.split('\n').filter((l) => l.includes('model.md'))
    expect(lines).toEqual([
      expect.stringContaining(
        `${join(box.workspace, '.claude/commands/model.md')}: /model is also a built-in command; the built-in is used`,
      ),
    ])
    expect(server.requests).toHaveLength(0)
  })

  test("model: front matter runs that one turn on its model; the next turn is back on the session's", async () => {
    const { server, run } = await setUp(
      { '.claude/commands/quick.md': '---\nmodel: loop/other\n---\nSay hi.\n' },
      2,
    )
    const first = await run('/quick')
    expect(first.code, first.stderr).toBe(0)
    const next = await run('-c', 'and again')
    expect(next.code, next.stderr).toBe(0)
    expect([modelOf(server, 0), modelOf(server, 1)]).toEqual(['other', 'm'])
  })

  test('a model no provider serves is refused before anything is sent, naming file and key', async () => {
    const { box, server, run } = await setUp({
      '.claude/commands/far.md': '---\nmodel: nowhere/x\n---\nHi.\n',
    })
    const r = await run('/far')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      `/far: ${join(box.workspace, '.claude/commands/far.md')}: model: no provider serves nowhere/x`,
    )
    expect(server.requests).toHaveLength(0)
  })

  test("an untrusted workspace's command may not play a file as the model (scripted/…); your own may", async () => {
    const { box, server, run } = await setUp({})
    const script = join(box.root, 'played.json')
    await writeFile(script, JSON.stringify([{ kind: 'text', text: 'played from the file' }]))
    const front = `---\nmodel: scripted/${script}\n---\nHi.\n`
    const project = join(box.workspace, '.claude', 'commands', 'play.md')
    await mkdir(dirname(project), { recursive: true })
    await writeFile(project, front)
    await mkdir(join(box.home, '.claude', 'commands'), { recursive: true })
    await writeFile(join(box.home, '.claude', 'commands', 'mine.md'), front)
    const refused = await run('/play')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`/play: ${project}: model: scripted/${script} plays a file as the model`)
    const own = await run('/mine')
    expect(own.code, own.stderr).toBe(0)
    expect(own.stdout).toContain('played from the file')
    expect(server.requests).toHaveLength(0)
  })

  test("untrusted workspace: a project command's !`cmd` does not run; the person's own does, through bash's permissions", async () => {
    const body = 'State: !`touch pwned && echo made-it`\n'
    const { box, server, run } = await setUp(
      { '.claude/commands/proj.md': body, '~/.claude/commands/mine.md': body },
      3,
    )
    const project = await run('--allow', 'bash', '/proj')
    expect(project.code, project.stderr).toBe(0)
    expect(existsSync(join(box.workspace, 'pwned'))).toBe(false)
    expect(userText(server, 0)).toContain('State: !`touch pwned && echo made-it`')
    expect(userText(server, 0)).toContain('did not run:')
    // The call goes through bash's permissions: a rule denying bash denies it, and the prompt says so.
    const denied = await run('--deny', 'bash', '/mine')
    expect(denied.code, denied.stderr).toBe(0)
    expect(existsSync(join(box.workspace, 'pwned'))).toBe(false)
    expect(userText(server, 1)).toContain('[touch pwned && echo made-it did not run:')
    const own = await run('--allow', 'bash', '/mine')
    expect(own.code, own.stderr).toBe(0)
    expect(existsSync(join(box.workspace, 'pwned'))).toBe(true)
    expect(userText(server, 2)).toContain('State: made-it')
  })

  test("Claude Code's UserPromptExpansion hooks see the expansion, add context, and can block it", async () => {
    const log = 'expansion.jsonl'
    const hook = (command: string) => ({
      hooks: { UserPromptExpansion: [{ matcher: 'review', hooks: [{ type: 'command', command }] }] },
    })
    const { box, server, run } = await setUp({ '.claude/commands/review.md': 'Review $0.\n' }, 1)
    const settings = join(box.home, '.claude', 'settings.json')
    await mkdir(dirname(settings), { recursive: true })
    const logPath = join(box.root, log)
    await writeFile(
      settings,
      JSON.stringify(hook(`jq -c . >> '${logPath}'; echo 'Reviews follow the style guide.'`)),
    )
    const allowed = await run('/review a.ts')
    expect(allowed.code, allowed.stderr).toBe(0)
    const [payload] = jsonLines(await readFile(logPath, 'utf8'))
    expect(payload).toMatchObject({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'review',
      command_args: 'a.ts',
      command_source: 'project',
      prompt: expect.stringContaining('Review a.ts.'),
    })
    expect(JSON.stringify(server.requests[0]?.body)).toContain('Reviews follow the style guide.')
    await writeFile(settings, JSON.stringify(hook("echo 'no reviews on Fridays' >&2; exit 2")))
    const blocked = await run('/review a.ts')
    expect(blocked.code).toBe(1)
    expect(blocked.stderr).toContain('/review: no reviews on Fridays')
    expect(server.requests).toHaveLength(1)
  })

  test('a skill runs as /name with its folder named; user-invocable: false is not offered; disable-model-invocation still runs', async () => {
    const skill = (name: string, extra = '') =>
      `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\nUse \${CLAUDE_SKILL_DIR}/run.sh on $0.\n`
    const { box, server, run } = await setUp(
      {
        '~/.claude/skills/pdf/SKILL.md': skill('pdf', 'disable-model-invocation: true\n'),
        '~/.claude/skills/hidden/SKILL.md': skill('hidden', 'user-invocable: false\n'),
      },
      2,
    )
    const pdf = await run('/pdf doc.pdf')
    expect(pdf.code, pdf.stderr).toBe(0)
    const dir = join(box.home, '.claude', 'skills', 'pdf')
    expect(userText(server, 0)).toContain(
      `<command-name>/pdf</command-name>\n<command-args>doc.pdf</command-args>\n\nBase directory for this skill: ${dir}\n\nUse ${dir}/run.sh on doc.pdf.`,
    )
    // Not a command: the typed text goes to the model as it is.
    const hidden = await run('/hidden doc.pdf')
    expect(hidden.code, hidden.stderr).toBe(0)
    expect(userText(server, 1)).toBe('/hidden doc.pdf')
  })

  test('an MCP prompt registered after the command files keeps its name; the file is reported', async () => {
    const { box, server } = await setUp({
      '.claude/commands/mcp__everything__args-prompt.md': 'Not the server.\n',
    })
    const config = await writeMcpConfig(box.root, server.baseUrl)
    const r = await runTack(
      ['run', '--config', config, '--model', 'loop/m', '/mcp__everything__args-prompt Paris'],
      {
        env: box.env,
        cwd: box.workspace,
      },
    )
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain(
      `${join(box.workspace, '.claude/commands/mcp__everything__args-prompt.md')}: /mcp__everything__args-prompt is also a built-in command; the built-in is used`,
    )
    // the prompt is the server's; the file stays in the model's catalog (C2), under its name, as a skill would
    const body = server.requests[0]?.body as { messages: Array<{ role: string }> } | undefined
    const messages = body?.messages ?? []
    const prompt = JSON.stringify(messages.filter((m) => m.role === 'user'))
    expect(prompt).toContain("What's weather in Paris?")
    expect(prompt).not.toContain('Not the server.')
  })
})
