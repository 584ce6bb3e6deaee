// Issue 3's end-to-end acceptance: the real `tack run` binary against the loopback model server reads a
// file, edits it, runs a check through bash and answers — over the OpenAI wire and the Anthropic wire.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type LoopbackEntry, startLoopbackServer } from '@tack/llm/testing'
import { describe, expect, test } from 'vitest'
import { jsonLines, runOnLoop, runTack, sandbox } from './helpers.ts'

const script: LoopbackEntry[] = [
  {
    kind: 'tool-calls',
    calls: [{ name: 'read', args: { file_path: 'greet.txt' } }],
    usage: { inputTokens: 120, outputTokens: 10 },
  },
  {
    kind: 'tool-calls',
    calls: [
      { name: 'edit', args: { file_path: 'greet.txt', old_string: 'hello', new_string: 'hello world' } },
    ],
    usage: { inputTokens: 160, outputTokens: 20, cachedInputTokens: 100 },
  },
  {
    kind: 'tool-calls',
    calls: [{ name: 'bash', args: { command: "grep -q 'hello world' greet.txt && echo CHECK PASSED" } }],
    usage: { inputTokens: 200, outputTokens: 15, cachedInputTokens: 150 },
  },
  {
    kind: 'text',
    text: 'greet.txt now says "hello world" and the check passed.',
    usage: { inputTokens: 240, outputTokens: 12 },
  },
]

async function scenario(wire: 'openai' | 'anthropic') {
  const server = await startLoopbackServer({ script, expectApiKey: 'loopback-key-123456' })
  const box = await sandbox({ LOOP_KEY: 'loopback-key-123456' })
  try {
    await writeFile(join(box.workspace, 'greet.txt'), 'hello\n')
    const run = await runOnLoop(
      box,
      server.baseUrl,
      ['--json', '--model', 'loop/test-model', 'make greet.txt say hello world'],
      {
        kind: wire === 'openai' ? 'openai-compatible' : 'anthropic',
        apiKeyEnv: 'LOOP_KEY',
        fastRetries: true,
      },
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(await readFile(join(box.workspace, 'greet.txt'), 'utf8')).toBe('hello world\n')
    const lines = jsonLines(run.stdout)
    const result = lines.at(-1) as {
      type: string
      reason: unknown
      answer: string
      sessionId: string
      usage: { inputTokens: number; cachedInputTokens: number }
    }
    expect(result.type).toBe('result')
    expect(result.reason).toEqual({ kind: 'completed' })
    expect(result.answer).toContain('hello world')
    expect(result.usage.inputTokens).toBe(720)
    expect(result.usage.cachedInputTokens).toBe(250)
    const results = lines.filter((l) => l.type === 'tool/result') as Array<{
      data: { isError: boolean; content: Array<{ text: string }> }
    }>
    expect(results.map((r) => r.data.isError)).toEqual([false, false, false])
    expect(results[2].data.content[0].text).toContain('CHECK PASSED')
    expect(server.requests).toHaveLength(4)
    expect(server.requests.every((r) => r.protocol === wire && r.authorized === true)).toBe(true)
    server.assertConsumed()

    // the session is stored; list shows it; export round-trips into an equal log
    const list = await runTack(['sessions', 'list'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(result.sessionId)
    const exported = await runTack(['sessions', 'export', result.sessionId, '--format', 'jsonl'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(exported.code).toBe(0)
    const [header, ...events] = jsonLines(exported.stdout)
    expect(header).toMatchObject({
      type: 'session/header',
      header: { id: result.sessionId, cwd: box.workspace },
    })
    const streamed = lines.filter((l) => l.type !== 'result' && l.type !== 'start')
    expect(events.map((e) => ({ type: e.type, seq: e.seq, time: e.time, data: e.data }))).toEqual(streamed)

    const other = await sandbox()
    const file = join(box.root, 'export.jsonl')
    await writeFile(file, exported.stdout)
    const imported = await runTack(['sessions', 'import', file], { env: other.env, cwd: other.workspace })
    expect(imported.stdout.trim()).toBe(result.sessionId)
    const again = await runTack(['sessions', 'export', result.sessionId, '--format', 'jsonl'], {
      env: other.env,
      cwd: other.workspace,
    })
    expect(again.stdout).toBe(exported.stdout)
  } finally {
    await server.close()
  }
}

describe('tack run end to end against the loopback server', () => {
  test('issue 3 acceptance over the OpenAI Chat Completions wire: read, edit, bash, answer; stored and exported', async () => {
    await scenario('openai')
  })

  test('issue 3 acceptance over the Anthropic Messages wire: read, edit, bash, answer; stored and exported', async () => {
    await scenario('anthropic')
  })
})
