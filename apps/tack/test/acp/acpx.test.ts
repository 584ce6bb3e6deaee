// 50-acp.md requirement 17 and issue 15's acceptance: the npm `acpx` client (a devDependency, pinned)
// drives `tack acp` from outside, started with the Zed configuration the README shows (its command,
// args and env, read from the README itself), the scripted model chosen in $TACK_HOME/config.yml.
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox, TACK_BIN } from '../helpers.ts'

const ACPX = join(dirname(createRequire(import.meta.url).resolve('acpx/package.json')), 'dist', 'cli.js')
const README = fileURLToPath(new URL('../../../../README.md', import.meta.url))

interface AgentServer {
  command: string
  args: string[]
  env: Record<string, string>
}

/** The `agent_servers.tack` entry of the README's Zed block. */
async function readmeZedConfig(): Promise<AgentServer> {
  const text = await readFile(README, 'utf8')
  const match = /<!-- acp-zed-config[^>]*-->\s*```json\n([\s\S]*?)```/.exec(text)
  if (!match) throw new Error('README.md has no acp-zed-config block')
  return (JSON.parse(match[1]) as { agent_servers: { tack: AgentServer } }).agent_servers.tack
}

/** A sandbox whose PATH has a `tack` that runs this checkout, and whose user config picks the script. */
async function editorBox(script: unknown[]): Promise<{ box: Sandbox; model: string; agent: string }> {
  const box = await sandbox()
  const bin = join(box.root, 'bin')
  await mkdir(bin)
  await writeFile(join(bin, 'tack'), `#!/bin/sh\nexec "${process.execPath}" "${TACK_BIN}" "$@"\n`)
  await chmod(join(bin, 'tack'), 0o755)
  const model = join(box.root, 'model.json')
  await writeFile(model, JSON.stringify(script))
  await mkdir(box.tackHome, { recursive: true })
  await writeFile(join(box.tackHome, 'config.yml'), `model: scripted/${model}\n`)
  const zed = await readmeZedConfig()
  Object.assign(box.env, zed.env, { PATH: `${bin}:${box.env.PATH}` })
  return { box, model, agent: [zed.command, ...zed.args].join(' ') }
}

/** acpx's common flags for a run against `agent` in the sandbox's workspace, JSON output. */
const acpxFlags = (box: Sandbox, agent: string, ...more: string[]) => [
  '--agent',
  agent,
  '--cwd',
  box.workspace,
  '--format',
  'json',
  ...more,
]

const acpx = (box: Sandbox, args: string[]) => runTack(args, { env: box.env, cwd: box.workspace, bin: ACPX })

/** Processes of this sandbox (they carry its TACK_HOME): acpx's queue owner, and tack under it. */
const sandboxProcesses = (box: Sandbox) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`TACK_HOME=${box.tackHome}`)
      } catch {
        return false
      }
    })
    .map((pid) => ({
      pid: Number(pid),
      cmdline: (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
        } catch {
          return ''
        }
      })(),
    }))

const messages = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)

/** The agent's answer: its message chunks joined. */
/** The first session/update whose params mention all of `texts`. */
const updateWith = (stdout: string, ...texts: string[]) =>
  messages(stdout).find(
    (m) => m.method === 'session/update' && texts.every((t) => JSON.stringify(m.params).includes(t)),
  )

const answer = (stdout: string) =>
  messages(stdout)
    .map(
      (m) =>
        (m.params as { update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined)
          ?.update,
    )
    .filter((u) => u?.sessionUpdate === 'agent_message_chunk')
    .map((u) => u?.content?.text ?? '')
    .join('')

test('issue 15: acpx edits a file with one permission prompt, prompts again, and a fresh process loads the session', async () => {
  const { box, model, agent } = await editorBox([
    { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: 'greeting.txt' } }] },
    {
      kind: 'tool-calls',
      calls: [{ name: 'edit', args: { file_path: 'greeting.txt', old_string: 'helo', new_string: 'hello' } }],
    },
    { kind: 'text', text: 'Fixed the greeting.' },
    { kind: 'text', text: 'Nothing else to fix.' },
    { kind: 'text', text: 'Still fixed after the load.' },
  ])
  await writeFile(join(box.workspace, 'greeting.txt'), 'helo world\n')
  const common = acpxFlags(box, agent, '--approve-all', '--ttl', '60')
  const created = await acpx(box, [...common, 'sessions', 'new'])
  expect(created.code, `${created.stderr}\n${created.stdout}`).toBe(0)

  const first = await acpx(box, [...common, 'prompt', 'fix the greeting'])
  expect(first.code, `${first.stderr}\n${first.stdout}`).toBe(0)
  const firstMessages = messages(first.stdout)
  expect(firstMessages.filter((m) => m.method === 'session/request_permission')).toHaveLength(1)
  expect(answer(first.stdout)).toBe('Fixed the greeting.')
  expect(updateWith(first.stdout, '"status":"completed"', '"type":"diff"'), first.stdout).toBeDefined()
  expect(await readFile(join(box.workspace, 'greeting.txt'), 'utf8')).toBe('hello world\n')

  const second = await acpx(box, [...common, 'prompt', 'anything else?'])
  expect(second.code, `${second.stderr}\n${second.stdout}`).toBe(0)
  expect(answer(second.stdout)).toBe('Nothing else to fix.')

  // Both prompts went to one acpx queue owner and one tack process. Ending that owner (which this test
  // started) closes tack's stdin; the next prompt starts a fresh tack, which loads the session.
  for (const proc of sandboxProcesses(box))
    if (proc.cmdline.includes('acpx')) process.kill(proc.pid, 'SIGTERM')
  const deadline = Date.now() + 60_000
  while (sandboxProcesses(box).length > 0) {
    if (Date.now() > deadline) throw new Error('acpx and tack did not exit')
    await new Promise((r) => setTimeout(r, 100))
  }
  const third = await acpx(box, [...common.slice(0, -1), '1', 'prompt', 'still good?'])
  expect(third.code, `${third.stderr}\n${third.stdout}`).toBe(0)
  const thirdMessages = messages(third.stdout)
  const load = thirdMessages.find((m) => m.method === 'session/load')
  expect(load).toBeDefined()
  const loaded = thirdMessages.find((m) => m.id === load?.id && m.method === undefined)
  expect(loaded?.error).toBeUndefined()
  expect(answer(third.stdout)).toBe('Still fixed after the load.')
  const requests = (await readFile(`${model}.requests.jsonl`, 'utf8')).trim().split('\n')
  const history = JSON.stringify(JSON.parse(requests.at(-1) as string).messages)
  for (const text of ['fix the greeting', 'Fixed the greeting.', 'anything else?', 'still good?'])
    expect(history).toContain(text)
}, 180_000)

test('50-acp.md requirement 17: acpx exec with --approve-all writes the file; with --deny-all it is absent and the turn still ends', async () => {
  const script = [
    {
      kind: 'tool-calls',
      calls: [{ name: 'write', args: { file_path: 'out.txt', content: 'made by tack\n' } }],
    },
    { kind: 'text', text: 'Wrote out.txt.' },
  ]
  for (const [flag, written] of [
    ['--approve-all', true],
    ['--deny-all', false],
  ] as const) {
    const { box, agent } = await editorBox(script)
    const run = await acpx(box, acpxFlags(box, agent, flag, 'exec', 'write out.txt'))
    // acpx exits 5 (its PERMISSION_DENIED code) when it denied a permission; the turn itself ended.
    expect(run.code, run.stderr).toBe(written ? 0 : 5)
    expect(run.stdout).toContain('"stopReason":"end_turn"')
    expect(answer(run.stdout)).toBe('Wrote out.txt.')
    const status = written ? '"status":"completed"' : '"status":"failed"'
    expect(updateWith(run.stdout, status, '"toolCallId"'), run.stdout).toBeDefined()
    const exists = await readFile(join(box.workspace, 'out.txt'), 'utf8').then(
      () => true,
      () => false,
    )
    expect(exists).toBe(written)
  }
}, 120_000)
