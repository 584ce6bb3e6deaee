// Slash commands through the real binary (80-cli.md §7.3, docs/decisions/0103-slash-commands.md): a
// plugin's registered command runs in `tack run "/name args"`, its result decides what happens (text on
// stdout, an error on stderr with exit 1, a prompt sent to the model); an unknown `/name` is a prompt.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
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

async function setUp(script: Parameters<typeof startLoopbackServer>[0] = {}) {
  box = await sandbox()
  await mkdir(join(box.tackHome, 'plugins'), { recursive: true })
  await writeFile(join(box.tackHome, 'plugins', 'greeter.mjs'), PLUGIN)
  server = await startLoopbackServer(script)
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, '--model', 'loop/m', ...args], { env: box.env, cwd: box.workspace })
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
