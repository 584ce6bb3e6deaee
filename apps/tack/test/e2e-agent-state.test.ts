// Issue 13 end to end: the agent-state mod folder loaded unchanged by the real `tack run --mod` against a
// loopback model, then `tack state status --json` reading what it wrote (70-agent-state.md R3, R4, R27).
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startLoopbackServer } from '@tack/llm/testing'
import { afterEach, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox } from './helpers.ts'

const MOD = fileURLToPath(new URL('../../../products/agent-state/mod', import.meta.url))

let closeServer: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeServer?.()
  closeServer = undefined
})

test('R3 tack run --mod <agent-state mod> writes the session files; tack state status --json reads them', async () => {
  const box = await sandbox()
  const server = await startLoopbackServer({
    script: [
      {
        kind: 'tool-calls',
        calls: [{ name: 'bash', args: { command: 'echo from-bash' } }],
        usage: { inputTokens: 40, outputTokens: 6 },
      },
      { kind: 'text', text: 'all done', usage: { inputTokens: 60, outputTokens: 3 } },
    ],
  })
  closeServer = () => server.close()
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  const run = await runTack(
    ['run', '--json', '--config', config, '--model', 'loop/m', '--mod', MOD, 'run echo'],
    { env: box.env, cwd: box.workspace },
  )
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  const sessionId = String(jsonLines(run.stdout).find((l) => typeof l.sessionId === 'string')?.sessionId)

  // R4: with no outputDir, tack's folder is <TACK_HOME>/agent-state
  const folder = join(box.tackHome, 'agent-state')
  expect((await readdir(folder)).sort()).toEqual([`${sessionId}.json`, `${sessionId}.jsonl`])
  const snapshot = JSON.parse(await readFile(join(folder, `${sessionId}.json`), 'utf8'))
  expect(snapshot).toMatchObject({
    schema: 1,
    session_id: sessionId,
    host: 'tack',
    cwd: box.workspace,
    state: 'ended',
    tool: null,
  })
  expect(snapshot.signals.turn_end.value).toBe('answer')
  const log = (await readFile(join(folder, `${sessionId}.jsonl`), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  const states = log.filter((l) => l.kind === 'state').map((l) => (l.tool ? `${l.state}:${l.tool}` : l.state))
  expect(states).toEqual(['idle', 'working', 'tool:Bash', 'working', 'idle', 'ended'])
  // 70-agent-state.md R10: token usage per turn and model — both requests of the turn, summed
  expect(log.filter((l) => l.kind === 'usage')).toMatchObject([
    { model: 'loop/m', sub_agent: false, input: 100, output: 9, cache_read: 0, cache_creation: 0 },
  ])
  // privacy (70-agent-state.md R20): neither the prompt, the command nor the answer reaches the files
  expect(JSON.stringify(log) + JSON.stringify(snapshot)).not.toMatch(/run echo|from-bash|all done/)

  const env = { ...box.env, AGENT_STATE_DIR: '' }
  const live = await runTack(['state', 'status', '--json'], { env, cwd: box.workspace })
  expect(live.code).toBe(0)
  expect(JSON.parse(live.stdout).sessions).toEqual([]) // the session ended: not running now
  const all = await runTack(['state', 'status', '--json', '--all'], { env, cwd: box.workspace })
  expect(all.code).toBe(0)
  expect(JSON.parse(all.stdout).sessions).toMatchObject([
    { session_id: sessionId, host: 'tack', state: 'ended', cwd: box.workspace },
  ])
})
