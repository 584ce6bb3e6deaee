// Slash commands through the real binary (80-cli.md §7.3, docs/decisions/0103-slash-commands.md): a
// plugin's registered command runs in `tack run "/name args"`, its result decides what happens (text on
// stdout, an error on stderr with exit 1, a prompt sent to the model); an unknown `/name` is a prompt.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { PERMISSIONS_OFF } from '../src/slash/mode-commands.ts'
import { jsonLines, runTack, type Sandbox, sandbox } from './helpers.ts'

const PLUGIN = `export const name = 'greeter'
export function apply(ctx) {
  const commands = ctx.get('commands')
  commands.register({ name: 'greet', description: 'Greets someone', args: 'name', run: ({ args }) => ({ kind: 'text', text: 'hello ' + args }) })
  commands.register({ name: 'fail', description: 'Always fails', run: () => ({ kind: 'error', message: 'nothing to do here' }) })
  commands.register({ name: 'ask', description: 'Asks the model', run: ({ args }) => ({ kind: 'prompt', text: 'please ' + args }) })
}
`

let box: Sandbox
let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** `extraYaml`: more top-level config lines (e.g. a plugin turned off). */
async function setUp(script: Parameters<typeof startLoopbackServer>[0] = {}, extraYaml = '') {
  box = await sandbox()
  await mkdir(join(box.tackHome, 'plugins'), { recursive: true })
  await writeFile(join(box.tackHome, 'plugins', 'greeter.mjs'), PLUGIN)
  server = await startLoopbackServer(script)
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `model: loop/m\nplugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n${extraYaml}`,
  )
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
  return { server, run }
}

describe('tack run "/name args"', () => {
  test("a plugin's command prints its text and calls no model; --json prints one command line", async () => {
    const { server, run } = await setUp()
    const plain = await run('/greet  Ada ')
    expect(plain).toMatchObject({ code: 0, stdout: 'hello Ada\n', stderr: '' })
    const json = await run('--json', '/greet Bob')
    expect(json.code).toBe(0)
    const command = jsonLines(json.stdout).filter((l) => l.type === 'command')
    expect(command).toEqual([{ type: 'command', sessionId: expect.any(String), text: 'hello Bob' }])
    expect(server.requests).toHaveLength(0)
    // A command on a new session leaves no session behind: `tack run -c` still finds the real one.
    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
    expect(JSON.parse(list.stdout)).toEqual([])
  })

  test('an error result goes to stderr in one line with exit 1', async () => {
    const { run } = await setUp()
    const r = await run('/fail')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('tack: nothing to do here\n')
  })

  test("a prompt result is the model's prompt; an unknown /name goes to the model as typed", async () => {
    const { server, run } = await setUp({
      script: [
        { kind: 'text', text: 'first answer' },
        { kind: 'text', text: 'second answer' },
      ],
    })
    const asked = await run('/ask for a haiku')
    expect(asked).toMatchObject({ code: 0, stdout: 'first answer\n' })
    expect(JSON.stringify(server.requests[0].body)).toContain('please for a haiku')
    const unknown = await run('/nosuch thing')
    expect(unknown).toMatchObject({ code: 0, stdout: 'second answer\n' })
    expect(JSON.stringify(server.requests[1].body)).toContain('/nosuch thing')
  })
})

describe('mode switches are logged and restored (80-cli.md §5.4)', () => {
  test('/model, /permissions and /tools-mode switch the session; tack run -c keeps them; a flag switches again', async () => {
    const { server, run } = await setUp({
      script: [
        { kind: 'text', text: 'first' },
        { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'x.txt', content: 'x' } }] },
        { kind: 'text', text: 'after the denial' },
        { kind: 'text', text: 'third' },
      ],
    })
    expect((await run('hello')).stdout).toBe('first\n')
    expect((await run('/greet you')).stdout).toBe('hello you\n')
    for (const [command, said] of [
      ['/model loop/other', 'model set to loop/other (from the next request)'],
      ['/permissions read-only', 'permission mode set to read-only (from the next tool call)'],
      ['/tools-mode native', 'tools mode set to native (from the next request)'],
    ]) {
      const r = await run('-c', command)
      expect(r, r.stderr).toMatchObject({ code: 0, stdout: `${said}\n` })
    }
    const shown = await run('-c', '/permissions')
    expect(shown.stdout).toBe('permission mode: read-only\n')
    const bad = await run('-c', '/permissions sideways')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe(
      'tack: /permissions: "sideways" is not one of ask, workspace-write, read-only, yolo\n',
    )

    const resumed = await run('-c', '--json', 'write x.txt')
    expect(resumed.code).toBe(0)
    const lines = jsonLines(resumed.stdout)
    const result = lines.find((l) => l.type === 'tool/result') as { data: { error?: { code: string } } }
    expect(result.data.error?.code).toBe('DENIED')
    expect((server.requests[1].body as { model: string }).model).toBe('other')
    expect(existsSync(join(box.workspace, 'x.txt'))).toBe(false)

    // An explicit flag on a resumed run is a new switch, logged like the command's.
    const flagged = await run('-c', '--json', '--model', 'loop/m', 'again')
    expect((server.requests[3].body as { model: string }).model).toBe('m')
    const switches = jsonLines(flagged.stdout).filter((l) => l.type === 'agent/model')
    expect(switches.map((l) => (l.data as { model: string }).model)).toEqual(['loop/m'])
  }, 120_000)

  test('with the permissions plugin off, /permissions says so and logs no switch', async () => {
    const { run } = await setUp({ script: [{ kind: 'text', text: 'first' }] }, '  permissions: false\n')
    expect((await run('hello')).stdout).toBe('first\n')
    const shown = await run('-c', '/permissions')
    expect(shown).toMatchObject({ code: 0, stdout: `${PERMISSIONS_OFF}\n` })
    const switched = await run('-c', '/permissions yolo')
    expect(switched).toMatchObject({ code: 1, stdout: '' })
    expect(switched.stderr).toBe(`tack: /permissions: ${PERMISSIONS_OFF}; nothing to switch\n`)
    const [session] = JSON.parse(
      (await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })).stdout,
    ) as { id: string }[]
    const log = await runTack(['sessions', 'export', session.id], { env: box.env, cwd: box.workspace })
    expect(log.stdout).toContain('"assistant/message"')
    expect(log.stdout).not.toContain('permission/mode')
  })
})
